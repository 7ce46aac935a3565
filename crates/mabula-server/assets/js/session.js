// Who is logged in. The session itself is an HTTP-only cookie the page cannot read; what the page
// knows is the account's name and the session's CSRF token, read from `GET /api/session` at
// load and after every log-in or log-out. A change is announced with `sessionchange` on window.
//
// A guest's browser would be answered 401 there on every page load, so the page asks only when
// localStorage says this browser logged in (the name, not a secret), and other tabs follow that
// entry's changes.

import { api, useCsrf, ApiError } from './api.js';

const HINT_KEY = 'mabula:account';

function hint() {
  try { return localStorage.getItem(HINT_KEY); } catch { return null; }
}

function setHint(/** @type {string | null} */ name) {
  try {
    if (name) localStorage.setItem(HINT_KEY, name);
    else localStorage.removeItem(HINT_KEY);
  } catch { /* private mode: the session lasts as long as this page */ }
}

/** @typedef {import('pages-types').Session} Session */

/**
 * `{ name, csrf }` when logged in, null for a guest, undefined until the first answer.
 * @type {Session | null | undefined}
 */
let current;
/** @type {Promise<Session | null> | null} */
let readyPromise = null;

/** Reads the session from the server (a guest when there is none or it cannot be read). */
async function read() {
  if (!hint()) {
    current = null;
    useCsrf({ token: null });
    return current;
  }
  try {
    const s = await api.session();
    current = { name: s.name, csrf: s.csrf };
  } catch (err) {
    // 401 not_logged_in is a guest; a network failure leaves the page a guest for now.
    if (!(err instanceof ApiError)) console.warn(err);
    current = null;
  }
  useCsrf({ token: current ? current.csrf : null });
  if (!current) setHint(null);
  return current;
}

/** Starts reading the session (once, at page load); answers the promise of its answer. */
export function loadSession() {
  if (!readyPromise) {
    readyPromise = read();
    useCsrf({ ready: readyPromise, refresh: refreshSession });
  }
  return readyPromise;
}

/** The session once it is known: `{ name, csrf }` or null. */
export function sessionReady() {
  return loadSession();
}

/** The logged-in account's name, or null (also while the session is still being read). */
export function myName() {
  return current ? current.name : null;
}

/** True when `name` is the logged-in account (names are unique ignoring case). */
export function isMe(/** @type {string | null | undefined} */ name) {
  return Boolean(current && name && current.name.toLowerCase() === String(name).toLowerCase());
}

function changed() {
  window.dispatchEvent(new CustomEvent('sessionchange', { detail: current }));
}

/** Reads the session again (another tab may have logged in or out); tells the page if it changed. */
export async function refreshSession() {
  const before = current ? current.name : null;
  readyPromise = read();
  useCsrf({ ready: readyPromise });
  await readyPromise;
  if ((current ? current.name : null) !== before) changed();
  return current;
}

function started(/** @type {import('api-types').SessionView} */ s) {
  current = { name: s.name, csrf: s.csrf };
  setHint(s.name);
  readyPromise = Promise.resolve(current);
  useCsrf({ token: s.csrf, ready: readyPromise });
  changed();
  return current;
}

/** Creates an account and logs in; throws ApiError (`name_taken`, `invalid_account`, …). */
export async function signUp(/** @type {string} */ name, /** @type {string} */ password) {
  return started(await api.signUp(name, password));
}

/** Logs in; throws ApiError (`login_failed`, `rate_limited`, …). */
export async function logIn(/** @type {string} */ name, /** @type {string} */ password) {
  return started(await api.logIn(name, password));
}

/** Logs out here (`everywhere`: every session of the account, on every device). */
export async function logOut({ everywhere = false } = {}) {
  try {
    if (everywhere) await api.logOutEverywhere();
    else await api.logOut();
  } catch (err) {
    // An already ended session is logged out all the same.
    if (!(err instanceof ApiError) || err.code !== 'not_logged_in') throw err;
  }
  current = null;
  setHint(null);
  readyPromise = Promise.resolve(null);
  useCsrf({ token: null, ready: readyPromise });
  changed();
}

// Another tab logged in or out: this one follows.
window.addEventListener('storage', (e) => {
  if (e.key === HINT_KEY || e.key === null) refreshSession();
});
