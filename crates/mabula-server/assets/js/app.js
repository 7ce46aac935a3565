// The page's entry point: the router (client routes served as index.html by the server), the
// language menu and the theme button. Each page module exports `mount(main, params)` answering
// `{ unmount(), onLang() }`.
//
// Layout of the UI (plain ES modules, no build step; embedded in the binary by rust-embed):
//   index.html        the shell: top bar, <main>, the shared SVG paints (marble gradients, wood)
//   css/style.css     every style; light and dark themes; phone and desktop layouts
//   js/app.js         this file: routes /, /lobby, /watch, /rules, /login, /@/{name}, /game/{id},
//                     /replay/{id}, /analysis, /account, /tournaments, /tournament/{id}, /bots,
//                     /puzzles, /puzzles/daily, /puzzles/{id}
//   js/api.js         HTTP calls (with the session's CSRF token), seat tokens in localStorage,
//                     the reconnecting WebSocket of a game
//   js/session.js     who is logged in (name and CSRF token); log in, sign up, log out
//   js/accountnav.js  the account button and its menu in the top bar
//   js/lobbyfeed.js   the lobby's WebSocket, shared by every page: seeks, challenges, turns
//   js/notify.js      the browser's notifications, once the person allowed them
//   js/clock.js       clock times as people read them, and the countdown between updates
//   js/board.js       the SVG board: drawing, selection, stops, push preview, rolling marbles
//   js/position.js    position strings, groups and scores for display (no move generation)
//   js/i18n.js        t(), the language choice; js/lang/{en,de,fr,it,es,ro}.js the strings
//   js/dom.js         element builders, live announcements, toasts, clipboard
//   js/widgets.js     a game in a list, mode and result names
//   js/pages/*.js     home, game (and replay), analysis, watch, rules, login, lobby, profile,
//                     account (password, sessions, data, deletion), dialogs, error texts,
//                     tournaments (the list and the form) and tournament (one, live),
//                     puzzles (issue 39: the board, attempts, hints, the daily, streaks)
//                     bots (the bots and their challenge buttons), tokens (the account's API tokens)

import { LANGS, lang, setLang, loadLang, t } from './i18n.js';
import { translateDom, clear, h } from './dom.js';
import { navigate } from './nav.js';
import { loadSession } from './session.js';
import { renderAccountNav } from './accountnav.js';
import { refreshPlaying } from './playing.js';
import { lobbyFeed } from './lobbyfeed.js';

// Each page's module is loaded when it is first shown, so a visit loads only what it uses.
const home = () => import('./pages/home.js');
const game = () => import('./pages/game.js');
const watch = () => import('./pages/watch.js');
const rules = () => import('./pages/rules.js');
const analysis = () => import('./pages/analysis.js');
const login = () => import('./pages/login.js');
const lobby = () => import('./pages/lobby.js');
const profile = () => import('./pages/profile.js');
const account = () => import('./pages/account.js');
const moderation = () => import('./pages/moderation.js'); // moderators (issue 36)
const tournaments = () => import('./pages/tournaments.js'); // issue 37
const tournament = () => import('./pages/tournament.js');
const puzzles = () => import('./pages/puzzles.js'); // issue 39
const bots = () => import('./pages/bots.js'); // issue 38

/**
 * A shown page, and the module that shows one.
 * @typedef {{ unmount?: () => void, onLang?: () => void, onSession?: () => void }} Page
 * @typedef {{ mount: (main: HTMLElement, params: any) => Page }} PageModule
 * @typedef {{ re: RegExp, page: () => Promise<PageModule>, nav: string | null, params?: (m: RegExpMatchArray) => object }} Route
 */

/** @type {Route[]} */
const ROUTES = [
  { re: /^\/$/, page: home, nav: 'home' },
  { re: /^\/lobby\/?$/, page: lobby, nav: 'lobby' },
  { re: /^\/watch\/?$/, page: watch, nav: 'watch' },
  { re: /^\/(login|signup)\/?$/, page: login, nav: null, params: (m) => ({ signUp: m[1] === 'signup' }) },
  { re: /^\/@\/([A-Za-z0-9_-]{1,40})\/?$/, page: profile, nav: 'profile', params: (m) => ({ name: m[1] }) },
  { re: /^\/rules\/?$/, page: rules, nav: 'rules' },
  { re: /^\/tournaments\/?$/, page: tournaments, nav: 'tournaments' },
  { re: /^\/tournament\/([A-Za-z0-9_-]{1,40})\/?$/, page: tournament, nav: 'tournaments', params: (m) => ({ id: m[1] }) },
  { re: /^\/puzzles\/?$/, page: puzzles, nav: 'puzzles' },
  { re: /^\/puzzles\/daily\/?$/, page: puzzles, nav: 'puzzles', params: () => ({ daily: true }) },
  { re: /^\/puzzles\/([a-z0-9]{1,16})\/?$/, page: puzzles, nav: 'puzzles', params: (m) => ({ id: m[1] }) },
  { re: /^\/bots\/?$/, page: bots, nav: 'bots' },
  { re: /^\/account\/?$/, page: account, nav: null },
  { re: /^\/moderation\/?$/, page: moderation, nav: null },
  { re: /^\/analysis\/?$/, page: analysis, nav: null },
  { re: /^\/game\/([a-z0-9]+)\/?$/, page: game, nav: null, params: (m) => ({ id: m[1], replay: false }) },
  { re: /^\/replay\/([a-z0-9]+)\/?$/, page: game, nav: 'watch', params: (m) => ({ id: m[1], replay: true }) },
];

/** @type {Page | null} */
let current = null;
/** Counts routings, so that a page whose module arrives after the next routing is not shown. */
let routing = 0;

async function route() {
  const main = /** @type {HTMLElement} */ (document.getElementById('main'));
  const seq = ++routing;
  if (current) {
    try { current.unmount?.(); } catch (e) { console.warn(e); }
    current = null;
  }
  const path = location.pathname;
  for (const r of ROUTES) {
    const m = path.match(r.re);
    if (m) {
      markNav(r.nav);
      const page = await r.page();
      if (seq !== routing) return;
      clear(main);
      current = page.mount(main, r.params ? r.params(m) : {});
      return;
    }
  }
  clear(main);
  markNav(null);
  document.title = `${t('notfound.title')} · Mabula`;
  main.append(h('section', { class: 'notfound' },
    h('h1', { i18n: 'notfound.title' }),
    h('p', { i18n: 'notfound.text' }),
    h('a', { class: 'btn primary', href: '/', i18n: 'notfound.home' })));
  current = { onLang: () => { document.title = `${t('notfound.title')} · Mabula`; } };
}

function markNav(/** @type {string | null} */ name) {
  for (const a of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-nav]'))) {
    if (a.dataset.nav === 'profile') {
      // The profile link is "current" on the logged-in player's own profile only.
      if (name === 'profile' && (a.getAttribute('href') || '').toLowerCase() === location.pathname.replace(/\/$/, '').toLowerCase()) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
      continue;
    }
    if (a.dataset.nav === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

window.addEventListener('routechange', () => {
  route();
  window.scrollTo(0, 0);
  document.getElementById('main')?.focus({ preventScroll: true });
});

// Links inside the app are routed here; the API, downloads and new tabs are left alone.
document.addEventListener('click', (e) => {
  const a = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (e.target).closest('a[href]'));
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  if (a.target || a.hasAttribute('download')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/') || /\.[a-z0-9]+$/i.test(url.pathname)) return;
  if (url.pathname === location.pathname && url.hash) return;
  e.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});

window.addEventListener('popstate', route);

// ---- Language menu ------------------------------------------------------------------------

function buildLangMenu() {
  const menu = /** @type {HTMLSelectElement} */ (document.getElementById('lang-menu'));
  menu.replaceChildren(...LANGS.map((l) => h('option', { value: l.code, lang: l.code }, l.name)));
  menu.value = lang();
  menu.addEventListener('change', () => setLang(menu.value).catch(() => { menu.value = lang(); }));
}

window.addEventListener('langchange', () => {
  const menu = /** @type {HTMLSelectElement} */ (document.getElementById('lang-menu'));
  menu.value = lang();
  menu.setAttribute('aria-label', t('lang.label'));
  translateDom(document);
  updateThemeButton();
  renderAccountNav();
  if (current && current.onLang) current.onLang();
});

// A log-in or log-out: the page shows what the new person may do (the login page handles it).
window.addEventListener('sessionchange', () => {
  renderAccountNav();
  if (current && current.onSession) current.onSession();
  else route();
});

// ---- Theme --------------------------------------------------------------------------------

const THEMES = ['auto', 'light', 'dark'];

function theme() {
  try { return localStorage.getItem('mabula:theme') || 'auto'; } catch { return 'auto'; }
}

function applyTheme(/** @type {string} */ name) {
  if (name === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = name;
  try { localStorage.setItem('mabula:theme', name); } catch { /* private mode */ }
  updateThemeButton();
}

function updateThemeButton() {
  const button = /** @type {HTMLElement} */ (document.getElementById('theme-button'));
  const key = `theme.${theme()}`;
  button.dataset.i18nAriaLabel = key;
  button.dataset.i18nTitle = key;
  button.setAttribute('aria-label', t(key));
  button.setAttribute('title', t(key));
}

document.getElementById('theme-button')?.addEventListener('click', () => {
  const next = THEMES[(THEMES.indexOf(theme()) + 1) % THEMES.length];
  applyTheme(next);
});

// ---- Start --------------------------------------------------------------------------------

// The language is known at once (the names in the menu are each in their own language); its
// strings arrive with its file.
document.documentElement.lang = lang();
buildLangMenu();
await loadLang();
document.getElementById('lang-menu')?.setAttribute('aria-label', t('lang.label'));
translateDom(document);
updateThemeButton();
renderAccountNav();
route();
loadSession().then(() => {
  renderAccountNav();
  lobbyFeed.ensure();
  refreshPlaying();
});

// ---- Offline --------------------------------------------------------------------------------

// The service worker keeps the page and its files, so the rules and finished games' replays open
// without a network. Once the page has settled, it is told every file of this version (the
// import map names them; of the languages and the rules' texts, only those in use), to keep them.
function keepOffline() {
  navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then((reg) => {
    setTimeout(() => {
      const map = JSON.parse(document.querySelector('script[type="importmap"]')?.textContent || '{"imports":{}}');
      const keep = Object.entries(map.imports)
        .filter(([path]) => !/^\/js\/(lang|rules)\//.test(path) || path === `/js/lang/${lang()}.js` || path === `/js/rules/${lang()}.js`)
        .map(([, url]) => url);
      for (const link of /** @type {NodeListOf<HTMLLinkElement>} */ (document.querySelectorAll('link[href*="?v="]'))) keep.push(link.href);
      reg.active?.postMessage({ keep });
    }, 2000);
  }).catch(() => { /* no offline use */ });
}

if ('serviceWorker' in navigator) {
  // This module waited for its language: the page may have finished loading meanwhile.
  if (document.readyState === 'complete') keepOffline();
  else window.addEventListener('load', keepOffline);
}
