// Translations: six languages, chosen from the browser's preference or the menu (kept in
// localStorage); only the chosen language's file is loaded. `t(key, params)` looks a string up; a
// value may be a function of the params (and of `plural`), or an object of plural forms picked
// with Intl.PluralRules by `params.n`. `percent` and `number` write numbers as the language does.

/** The languages, each named in itself. Only the chosen one is loaded. */
export const LANGS = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
  { code: 'it', name: 'Italiano' },
  { code: 'es', name: 'Español' },
  { code: 'ro', name: 'Română' },
];

/** @typedef {import('pages-types').Params} Params @typedef {import('pages-types').PluralForms} PluralForms */

const STORAGE_KEY = 'mabula:lang';
let current = pick();
/** The strings of the current language (every language has the same keys). */
let strings = /** @type {import('pages-types').Strings} */ ({});
let plurals = new Intl.PluralRules(current);

function pick() {
  const saved = safeGet(STORAGE_KEY);
  if (saved && LANGS.some((l) => l.code === saved)) return saved;
  for (const wanted of navigator.languages || [navigator.language || 'en']) {
    const base = String(wanted).toLowerCase().split('-')[0];
    if (LANGS.some((l) => l.code === base)) return base;
  }
  return 'en';
}

/** @param {string} key */
function safeGet(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

/** Loads the current language's strings; the page waits for this before it draws. */
export async function loadLang() {
  strings = (await import(`./lang/${current}.js`)).default;
  plurals = new Intl.PluralRules(current);
}

/** The current language code. */
export function lang() {
  return current;
}

/** Switches the language, remembers it, and tells the page (`langchange` on window). */
/** @param {string} code */
export async function setLang(code) {
  if (!LANGS.some((l) => l.code === code) || code === current) return;
  const before = current;
  current = code;
  try {
    await loadLang();
  } catch (err) {
    current = before;
    throw err;
  }
  try { localStorage.setItem(STORAGE_KEY, code); } catch { /* private mode */ }
  document.documentElement.lang = code;
  window.dispatchEvent(new CustomEvent('langchange', { detail: code }));
}

/**
 * The form of `forms` (`{ one, few, many, other }`, as Intl.PluralRules names them) that the
 * current language uses for the count `n`. Language files get it as the second argument of a
 * string that is a function.
 * @param {number | string} n
 * @param {PluralForms} forms
 * @returns {string}
 */
export function plural(n, forms) {
  return forms[plurals.select(Number(n))] ?? forms.other;
}

/**
 * The translation of `key`, with `{name}` placeholders filled from `params` (a `{ percent: x }`
 * parameter is written as a percentage in the language's way).
 * @param {string} key
 * @param {Params} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  let value = strings[key];
  if (value === undefined) {
    console.warn(`missing translation key ${key}`);
    return key;
  }
  if (typeof value === 'function') value = value(/** @type {import('pages-types').Args} */ (params || {}), plural);
  if (value && typeof value === 'object') value = plural(Number(params?.n ?? 0), value);
  return String(value).replace(/\{(\w+)\}/g, (m, name) => {
    const v = params ? params[name] : undefined;
    if (v === undefined) return m;
    // `{ percent: x }` keeps a number language-free (in data-i18n-args) until it is shown.
    if (v && typeof v === 'object' && typeof v.percent === 'number') return percent(v.percent);
    return String(v);
  });
}

/** "3 minutes ago" in the current language. */
/** @param {number} ms */
export function timeAgo(ms) {
  const seconds = Math.round((ms - Date.now()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(current, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 45) return rtf.format(0, 'second');
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86400), 'day');
}

/**
 * A fraction (0..1) as a percentage with one decimal (or `digits`), as the language writes it:
 * "72.3%", "72,3 %".
 */
/** @param {number} fraction @param {number} [digits] */
export function percent(fraction, digits = 1) {
  return new Intl.NumberFormat(current, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(fraction);
}

/** A number with `digits` decimals, as the language writes it. */
/** @param {number} x @param {number} [digits] */
export function number(x, digits = 0) {
  return new Intl.NumberFormat(current, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}
