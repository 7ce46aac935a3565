// The account corner of the top bar: "Log in" for a guest; for a logged-in player the number of
// their games waiting for their move (a link to the most urgent one), and a button with their name that opens a small menu (their profile, the lobby, the account page, log out, log
// out everywhere). The menu is a
// disclosure: Escape or a click elsewhere closes it, and focus goes back to the button.

import { h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import { myName, logOut } from './session.js';
import { playing } from './playing.js';
import { confirmDialog } from './pages/dialogs.js';
import { errorText } from './pages/errors.js';

let open = false;

function box() {
  return document.getElementById('account');
}

/** @param {boolean} value */
function setOpen(value, { focusButton = false } = {}) {
  open = value;
  const button = document.getElementById('account-button');
  const menu = document.getElementById('account-menu');
  if (!button || !menu) return;
  button.setAttribute('aria-expanded', String(open));
  menu.hidden = !open;
  if (!open && focusButton) button.focus();
}

async function doLogOut(/** @type {boolean} */ everywhere) {
  setOpen(false);
  if (everywhere) {
    const yes = await confirmDialog({
      title: t('account.logOutEverywhere.ask'),
      text: t('account.logOutEverywhere.text'),
      ok: t('account.logOutEverywhere'),
      danger: true,
    });
    if (!yes) return;
  }
  try {
    await logOut({ everywhere });
    toast(t(everywhere ? 'account.loggedOutEverywhere' : 'account.loggedOut'));
  } catch (err) {
    toast(errorText(err), 'error');
  }
}

/** Draws the account corner for the current session (call it again after any change). */
export function renderAccountNav() {
  const el = box();
  if (!el) return;
  clear(el);
  open = false;
  const name = myName();
  if (!name) {
    const next = location.pathname === '/login' || location.pathname === '/signup' ? '' : `?next=${encodeURIComponent(location.pathname + location.search)}`;
    el.append(h('a', { class: 'btn small login-link', href: `/login${next}`, i18n: 'nav.login' }));
    return;
  }
  const button = h('button', {
    type: 'button', id: 'account-button', class: 'account-button',
    'aria-expanded': 'false', 'aria-controls': 'account-menu',
    onclick: () => setOpen(!open),
  },
  h('span', { class: 'avatar', 'aria-hidden': 'true' }, name.slice(0, 1).toUpperCase()),
  h('span', { class: 'account-name' }, name),
  h('span', { class: 'sr-only', i18n: 'account.menu' }));
  const item = (/** @type {import('./dom.js').Attrs} */ attrs, /** @type {string} */ key) => h('li', {}, h(attrs.href ? 'a' : 'button', { type: attrs.href ? null : 'button', ...attrs, i18n: key }));
  const menu = h('div', { id: 'account-menu', class: 'account-menu', hidden: true },
    h('p', { class: 'muted account-who', i18n: 'account.loggedInAs', i18nArgs: { name } }),
    h('ul', {},
      item({ href: `/@/${name}`, dataset: { nav: 'profile' }, onclick: () => setOpen(false) }, 'account.profile'),
      item({ href: '/lobby', onclick: () => setOpen(false) }, 'account.lobby'),
      item({ href: '/account', class: 'account-settings', onclick: () => setOpen(false) }, 'account.settings'),
      item({ class: 'logout', onclick: () => doLogOut(false) }, 'account.logOut'),
      item({ class: 'logout-everywhere danger', onclick: () => doLogOut(true) }, 'account.logOutEverywhere')));
  el.append(h('a', { id: 'turn-count', class: 'turn-count', hidden: true }), button, menu);
  renderTurnCount();
}

/** The number of the account's games where it is their turn, beside their name (none: hidden). */
function renderTurnCount() {
  const link = /** @type {HTMLAnchorElement | null} */ (document.getElementById('turn-count'));
  if (!link) return;
  const waiting = (playing() || []).filter((g) => g.your_turn);
  link.hidden = waiting.length === 0;
  if (!waiting.length) return;
  link.href = `/game/${waiting[0].id}`;
  link.textContent = String(waiting.length);
  const label = t('nav.yourTurn', { n: waiting.length });
  link.setAttribute('aria-label', label);
  link.title = label;
}

window.addEventListener('playingchange', renderTurnCount);

// Escape and clicks elsewhere close the menu; so does going to another page.
document.addEventListener('keydown', (e) => {
  if (open && e.key === 'Escape') {
    e.preventDefault();
    setOpen(false, { focusButton: true });
  }
});
document.addEventListener('click', (e) => {
  if (open && !/** @type {Element} */ (e.target).closest('#account')) setOpen(false);
});
document.addEventListener('focusin', (e) => {
  if (open && !/** @type {Element} */ (e.target).closest('#account')) setOpen(false);
});
window.addEventListener('routechange', () => {
  setOpen(false);
  if (!myName()) renderAccountNav(); // the log-in link comes back here afterwards
});
window.addEventListener('popstate', () => { if (!myName()) renderAccountNav(); });

