// Log in or create an account (`/login`, `/signup`): one form, two purposes. After signing up,
// the guest games this browser holds seat tokens for can be taken into the new account.

import { h, clear, translateDom, toast, announce } from '../dom.js';
import { t } from '../i18n.js';
import { api, myGames, ApiError } from '../api.js';
import { navigate } from '../nav.js';
import { sessionReady, myName, signUp, logIn, logOut } from '../session.js';
import { errorText } from './errors.js';

/** The rules the server applies, checked here first so the person learns them at once. */
const NAME_RE = /^[A-Za-z][A-Za-z0-9_-]{2,19}$/;

/** The rules shown up front on the sign-up form, each with the server's rules it stands for. */
const NAME_RULES = [
  { key: 'login.nameRules', rules: ['name_length', 'name_start', 'name_characters', 'name_control'] },
  { key: 'login.rules.reserved', rules: ['name_reserved'] },
];
const PASSWORD_RULES = [
  { key: 'login.rules.length', rules: ['password_short', 'password_long'] },
  { key: 'login.rules.hasName', rules: ['password_has_name'] },
  { key: 'login.rules.common', rules: ['password_common'] },
  { key: 'login.rules.repeated', rules: ['password_repeated'] },
];

/** A list of rules under a field (its `id` describes the field). */
function rulesList(/** @type {string} */ id, /** @type {{ key: string, rules: string[] }[]} */ rules) {
  return h('ul', { class: 'hint rules-list', id },
    ...rules.map((r) => h('li', { dataset: { rules: r.rules.join(' ') }, i18n: r.key })));
}

/** Marks the rule `rule` (a server rule name) as the one broken in `form`'s lists, or none. */
function broken(/** @type {HTMLElement} */ form, /** @type {string | null | undefined} */ rule) {
  for (const li of form.querySelectorAll('.rules-list li')) {
    const hit = !!rule && (/** @type {HTMLElement} */ (li).dataset.rules || '').split(' ').includes(rule);
    li.classList.toggle('broken', hit);
  }
}

/** Where to go afterwards: a path of this site from `?next=`, else the lobby. */
function nextPath() {
  const next = new URLSearchParams(location.search).get('next') || '';
  // Read as the browser would read a link (`/\evil.example` is another site to it), and kept
  // only when it stays on this site.
  let url;
  try { url = new URL(next, location.origin); } catch { return '/lobby'; }
  const path = url.pathname + url.search + url.hash;
  return next.startsWith('/') && url.origin === location.origin && !/^\/(login|signup)\b/.test(url.pathname) ? path : '/lobby';
}

export function mount(/** @type {HTMLElement} */ main, /** @type {{ signUp?: boolean }} */ { signUp: startWithSignUp }) {
  let mode = startWithSignUp ? 'signup' : 'login';
  let busy = false;
  /** After a sign-up: the claim offer is showing (a session change must not redraw the form). */
  let welcoming = false;

  const setTitle = () => { document.title = `${t(mode === 'signup' ? 'login.signUpTitle' : 'login.title')} · Mabula`; };
  const root = h('section', { class: 'login-page' });
  main.append(root);

  sessionReady().then(() => { if (!welcoming) render(); });

  function render() {
    setTitle();
    clear(root);
    if (myName()) {
      root.append(h('div', { class: 'card login-card' },
        h('h1', { i18n: 'login.already', i18nArgs: { name: myName() } }),
        h('div', { class: 'row-buttons' },
          h('a', { class: 'btn primary', href: '/lobby', i18n: 'login.toLobby' }),
          h('a', { class: 'btn', href: `/@/${myName()}`, i18n: 'account.profile' }),
          h('button', { type: 'button', class: 'btn', i18n: 'account.logOut', onclick: () => logOut().catch((err) => toast(errorText(err), 'error')) }))));
      return;
    }
    root.append(form());
    /** @type {HTMLInputElement | null} */ (root.querySelector('#login-name'))?.focus();
  }

  function form() {
    const signup = mode === 'signup';
    const nameInput = h('input', {
      type: 'text', id: 'login-name', name: 'username', required: true, autocomplete: 'username',
      autocapitalize: 'off', spellcheck: 'false', maxlength: 20,
      'aria-describedby': signup ? 'name-rules' : null,
    });
    const passInput = h('input', {
      type: 'password', id: 'login-password', name: 'password', required: true, maxlength: 128,
      autocomplete: signup ? 'new-password' : 'current-password',
      'aria-describedby': signup ? 'password-rules' : null,
    });
    const show = h('input', { type: 'checkbox', id: 'show-password', onchange: () => { passInput.type = show.checked ? 'text' : 'password'; } });
    const error = h('p', { class: 'error-text', role: 'alert', id: 'login-error' });
    const submit = h('button', { type: 'submit', class: 'btn primary big', i18n: signup ? 'login.signUpButton' : 'login.button' });
    const switcher = (/** @type {'login' | 'signup'} */ value, /** @type {string} */ key) => h('label', {},
      h('input', { type: 'radio', name: 'login-mode', value, checked: mode === value, onchange: () => { mode = value; render(); } }),
      h('span', { i18n: key }));
    const f = h('form', { class: 'card login-card', novalidate: true, onsubmit: async (e) => {
      e.preventDefault();
      if (busy) return;
      error.textContent = '';
      const name = nameInput.value.trim();
      const password = passInput.value;
      if (!name) { error.textContent = t('login.nameMissing'); nameInput.focus(); return; }
      if (signup && !NAME_RE.test(name)) { broken(f, 'name_length'); error.textContent = t('login.nameRules'); nameInput.focus(); return; }
      if (!password) { error.textContent = t('login.passwordMissing'); passInput.focus(); return; }
      if (signup && password.length < 8) { broken(f, 'password_short'); error.textContent = t('rule.password_short'); passInput.focus(); return; }
      broken(f, null);
      busy = true;
      submit.disabled = true;
      try {
        if (signup) {
          welcoming = true;
          await signUp(name, password);
          welcome();
        } else {
          await logIn(name, password);
          toast(t('login.welcomeBack', { name: myName() }));
          navigate(nextPath());
        }
      } catch (err) {
        welcoming = false;
        error.textContent = errorText(err);
        const rule = err instanceof ApiError ? err.rule : null;
        broken(f, rule || null);
        const onName = (err instanceof ApiError && err.code === 'name_taken') || String(rule || '').startsWith('name_');
        (onName ? nameInput : passInput).focus();
      } finally {
        busy = false;
        submit.disabled = false;
      }
    } },
    h('h1', { i18n: signup ? 'login.signUpTitle' : 'login.title' }),
    h('fieldset', {}, h('legend', { class: 'sr-only', i18n: 'login.which' }),
      h('div', { class: 'seg' }, switcher('login', 'login.haveAccount'), switcher('signup', 'login.newHere'))),
    h('div', { class: 'field-row' },
      h('label', { for: 'login-name', class: 'field-label', i18n: 'login.name' }),
      nameInput,
      signup ? rulesList('name-rules', NAME_RULES) : null),
    h('div', { class: 'field-row' },
      h('label', { for: 'login-password', class: 'field-label', i18n: 'login.password' }),
      passInput,
      signup ? rulesList('password-rules', PASSWORD_RULES) : null,
      h('label', { class: 'inline-check', for: 'show-password' }, show, h('span', { i18n: 'login.showPassword' }))),
    h('div', { class: 'start-row' }, submit),
    error,
    h('p', { class: 'muted small-print', i18n: signup ? 'login.guestNote' : 'login.noAccount' }));
    return f;
  }

  /** After a sign-up: offer to take this browser's guest games into the account. */
  function welcome() {
    const guest = myGames().filter((g) => g.token);
    if (!guest.length) {
      toast(t('login.welcome', { name: myName() }));
      welcoming = false;
      navigate(nextPath());
      return;
    }
    setTitle();
    clear(root);
    const result = h('p', { role: 'status' });
    const takeButton = h('button', { type: 'button', class: 'btn primary', i18n: 'login.claim' });
    const skip = h('a', { class: 'btn', href: nextPath(), i18n: 'login.claimSkip' });
    takeButton.addEventListener('click', async () => {
      takeButton.disabled = true;
      try {
        const answer = await api.claim(guest.map((g) => ({ id: g.id, token: g.token })));
        const n = answer.claimed.length;
        result.textContent = t('login.claimed', { n });
        announce(result.textContent);
        takeButton.hidden = true;
        skip.dataset.i18n = 'login.continue';
        skip.textContent = t('login.continue');
        skip.classList.add('primary');
        skip.focus();
      } catch (err) {
        takeButton.disabled = false;
        result.textContent = errorText(err);
      }
    });
    const heading = h('h1', { i18n: 'login.welcome', i18nArgs: { name: myName() }, tabindex: '-1' });
    root.append(h('div', { class: 'card login-card claim-card' },
      heading,
      h('p', { i18n: 'login.claimOffer', i18nArgs: { n: guest.length } }),
      h('p', { class: 'muted', i18n: 'login.claimWhy' }),
      h('div', { class: 'row-buttons' }, takeButton, skip),
      result));
    heading.focus();
  }

  return {
    onLang() { setTitle(); translateDom(main); },
    // The form itself logs in and out; only the "already logged in" view follows other tabs.
    onSession() { if (!welcoming) render(); },
  };
}
