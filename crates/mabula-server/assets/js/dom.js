// Tiny DOM helpers: element builders and translatable text that follows the language menu.

import { t } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** @typedef {import('pages-types').Attrs} Attrs @typedef {import('pages-types').Child} Child */

/**
 * Builds an HTML element. `attrs` may hold:
 * - `i18n`: a translation key for the text (kept in `data-i18n`, so a language change updates it),
 * - `i18nArgs`: its parameters,
 * - `i18n-<attribute>`: a translation key for an attribute (`i18n-aria-label`, `i18n-title`, ...),
 * - `on<event>`: a listener, `class`, `style` (string), `dataset` (object), anything else as an attribute.
 * @template {keyof HTMLElementTagNameMap} K @param {K} tag @param {Attrs} [attrs] @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * Builds an SVG element (same attributes as `h`, without the i18n helpers).
 * @template {keyof SVGElementTagNameMap} K @param {K} tag @param {Attrs} [attrs] @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

/** @param {HTMLElement} el @param {Attrs} attrs */
function applyAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'i18n') {
      const args = /** @type {import('pages-types').Params} */ (attrs.i18nArgs);
      el.dataset.i18n = String(v);
      if (args) el.dataset.i18nArgs = JSON.stringify(args);
      el.textContent = t(String(v), args);
    } else if (k === 'i18nArgs') {
      // handled with i18n
    } else if (k.startsWith('i18n-')) {
      const attr = k.slice(5);
      el.setAttribute(`data-i18n-${attr}`, String(v));
      el.setAttribute(attr, t(String(v)));
    } else if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    } else if (k === 'dataset') {
      Object.assign(el.dataset, v);
    } else if (k === 'class') {
      el.className = String(v);
    } else if (k in el && typeof v !== 'string' && k !== 'style') {
      Reflect.set(el, k, v);
    } else if (k === 'value' || k === 'checked' || k === 'disabled' || k === 'selected') {
      Reflect.set(el, k, v);
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
}

/** @param {Element} el @param {Child[]} children */
function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Re-translates every element below `root` that carries `data-i18n*` attributes. */
export function translateDom(/** @type {ParentNode} */ root = document) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n]'))) {
    const args = el.dataset.i18nArgs ? JSON.parse(el.dataset.i18nArgs) : undefined;
    el.textContent = t(el.dataset.i18n || '', args);
  }
  for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      el.setAttribute(attr, t(el.getAttribute(`data-i18n-${attr}`) || ''));
    }
  }
}

/** Sets a translatable text on an existing element. */
/** @param {HTMLElement} el @param {string} key @param {import('pages-types').Params} [args] */
export function setText(el, key, args) {
  el.dataset.i18n = key;
  if (args) el.dataset.i18nArgs = JSON.stringify(args);
  else delete el.dataset.i18nArgs;
  el.textContent = t(key, args);
}

/** Removes every child. */
/** @template {Element} E @param {E} el @returns {E} */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Says something to screen readers (a polite live region). */
/** @param {string} text */
export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  // A separate task, so that the same text said twice is still announced.
  setTimeout(() => { region.textContent = text; }, 30);
}

/** Shows a short message at the bottom of the screen. */
/** @param {string} text @param {'info' | 'error'} [kind] @param {number} [ms] */
export function toast(text, kind = 'info', ms = 3500) {
  const box = document.getElementById('toasts');
  if (!box) return;
  const el = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
  // Just under the top bar (its height changes as it wraps on a phone), never over its links.
  const bar = document.querySelector('.topbar');
  if (bar) box.style.top = `${Math.max(0, bar.getBoundingClientRect().bottom) + 8}px`;
  box.append(el);
  setTimeout(() => el.classList.add('leaving'), ms);
  setTimeout(() => el.remove(), ms + 400);
}

/** Copies text to the clipboard; falls back to a selection copy where the API is not allowed. */
/** @param {string} text */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h('textarea', { class: 'offscreen', readonly: true });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    area.remove();
    return ok;
  }
}

/** True when the person asked for less motion. */
export function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

// The last kind of input: a script moves focus (which draws a focus ring) only for keyboard users.
let keyboardInput = false;
document.addEventListener('keydown', (e) => {
  if (!e.metaKey && !e.ctrlKey && !e.altKey) keyboardInput = true;
}, true);
document.addEventListener('pointerdown', () => { keyboardInput = false; }, true);

/** Whether the person's last input came from the keyboard (not a pointer, and not nothing yet). */
export function usingKeyboard() {
  return keyboardInput;
}
