// Translations: six languages, chosen from the browser's preference or the menu (kept in
// localStorage). `t(key, params)` looks a string up; a value may be a function of the params, or an
// object of plural forms picked with Intl.PluralRules by `params.n`.

import en from './lang/en.js';
import de from './lang/de.js';
import fr from './lang/fr.js';
import it from './lang/it.js';
import es from './lang/es.js';
import ro from './lang/ro.js';

/** The languages, each named in itself. */
export const LANGS = [
  { code: 'en', name: 'English', strings: en },
  { code: 'de', name: 'Deutsch', strings: de },
  { code: 'fr', name: 'Français', strings: fr },
  { code: 'it', name: 'Italiano', strings: it },
  { code: 'es', name: 'Español', strings: es },
  { code: 'ro', name: 'Română', strings: ro },
];

const STORAGE_KEY = 'mabula:lang';
let current = pick();

function pick() {
  const saved = safeGet(STORAGE_KEY);
  if (saved && LANGS.some((l) => l.code === saved)) return saved;
  for (const wanted of navigator.languages || [navigator.language || 'en']) {
    const base = String(wanted).toLowerCase().split('-')[0];
    if (LANGS.some((l) => l.code === base)) return base;
  }
  return 'en';
}

function safeGet(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

/** The current language code. */
export function lang() {
  return current;
}

/** Switches the language, remembers it, and tells the page (`langchange` on window). */
export function setLang(code) {
  if (!LANGS.some((l) => l.code === code) || code === current) return;
  current = code;
  try { localStorage.setItem(STORAGE_KEY, code); } catch { /* private mode */ }
  document.documentElement.lang = code;
  window.dispatchEvent(new CustomEvent('langchange', { detail: code }));
}

function table(code) {
  return (LANGS.find((l) => l.code === code) || LANGS[0]).strings;
}

/** The translation of `key`, with `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  let value = table(current)[key];
  if (value === undefined) {
    value = en[key];
    if (value === undefined) {
      console.warn(`missing translation key ${key}`);
      return key;
    }
  }
  if (typeof value === 'function') value = value(params || {});
  if (value && typeof value === 'object') {
    const form = new Intl.PluralRules(current).select(Number(params?.n ?? 0));
    value = value[form] ?? value.other;
  }
  return String(value).replace(/\{(\w+)\}/g, (m, name) =>
    params && params[name] !== undefined ? String(params[name]) : m);
}

/** Long-form content (the rules page) of the current language. */
export function content(key) {
  return table(current)[key] ?? en[key];
}

/** "3 minutes ago" in the current language. */
export function timeAgo(ms) {
  const seconds = Math.round((ms - Date.now()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(current, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 45) return rtf.format(0, 'second');
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86400), 'day');
}
