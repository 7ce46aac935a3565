// The account page (`/account`): change the password, the sessions by device (log out one, or
// all the others), personal API tokens (tokens.js), download one's data as JSON, and delete the account (a dialog asks for the
// password first).

import { h, clear, translateDom, toast, announce } from '../dom.js';
import { t, lang, timeAgo } from '../i18n.js';
import { api, ApiError } from '../api.js';
import { navigate } from '../nav.js';
import { sessionReady, myName, refreshSession } from '../session.js';
import { errorText } from './errors.js';
import { tokensCard } from './tokens.js';

/** @typedef {import('api-types').SessionInfo} SessionInfo */

export function mount(/** @type {HTMLElement} */ main) {
  let unmounted = false;
  const root = h('section', { class: 'account-page' });
  main.append(root);
  const setTitle = () => { document.title = `${t('accountPage.title')} · Mabula`; };
  setTitle();
  sessionReady().then(() => { if (!unmounted) render(); });

  const sessionsList = h('ul', { class: 'sessions-list', id: 'sessions' });
  const sessionsStatus = h('p', { class: 'muted', role: 'status' });
  /** @type {ReturnType<typeof tokensCard> | null} */
  let tokens = null;

  function render() {
    clear(root);
    if (!myName()) {
      root.append(h('div', { class: 'card login-card' },
        h('h1', { i18n: 'accountPage.title' }),
        h('p', { i18n: 'accountPage.loginFirst' }),
        h('a', { class: 'btn primary', href: '/login?next=%2Faccount', i18n: 'nav.login' })));
      return;
    }
    root.append(
      h('h1', { i18n: 'accountPage.title' }),
      h('p', { class: 'muted', i18n: 'login.already', i18nArgs: { name: myName() } }),
      h('div', { class: 'account-grid' },
        passwordCard(),
        sessionsCard(),
        (tokens = tokensCard()).el,
        dataCard(),
        deleteCard()));
    loadSessions();
  }

  function passwordCard() {
    const current = h('input', { type: 'password', id: 'pw-current', autocomplete: 'current-password', required: true, maxlength: 128 });
    const next = h('input', { type: 'password', id: 'pw-new', autocomplete: 'new-password', required: true, maxlength: 128, 'aria-describedby': 'pw-rules' });
    const error = h('p', { class: 'error-text', role: 'alert', id: 'pw-error' });
    const submit = h('button', { type: 'submit', class: 'btn primary', i18n: 'accountPage.changePassword' });
    const form = h('form', { class: 'card account-card', 'aria-labelledby': 'pw-title', novalidate: true, onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = '';
      if (!current.value) { error.textContent = t('login.passwordMissing'); current.focus(); return; }
      if (next.value.length < 8) { error.textContent = t('rule.password_short'); next.focus(); return; }
      submit.disabled = true;
      try {
        await api.changePassword(current.value, next.value);
        current.value = '';
        next.value = '';
        toast(t('accountPage.passwordChanged'));
        announce(t('accountPage.passwordChanged'));
        loadSessions();
      } catch (err) {
        error.textContent = errorText(err);
        (err instanceof ApiError && err.code === 'wrong_password' ? current : next).focus();
      } finally {
        submit.disabled = false;
      }
    } },
    h('h2', { id: 'pw-title', i18n: 'accountPage.password' }),
    h('div', { class: 'field-row' },
      h('label', { for: 'pw-current', class: 'field-label', i18n: 'accountPage.currentPassword' }), current),
    h('div', { class: 'field-row' },
      h('label', { for: 'pw-new', class: 'field-label', i18n: 'accountPage.newPassword' }), next,
      h('p', { class: 'hint', id: 'pw-rules', i18n: 'accountPage.passwordRules' })),
    h('p', { class: 'muted', i18n: 'accountPage.passwordEnds' }),
    h('div', { class: 'row-buttons' }, submit),
    error);
    return form;
  }

  function sessionsCard() {
    return h('section', { class: 'card account-card', 'aria-labelledby': 'sessions-title' },
      h('h2', { id: 'sessions-title', i18n: 'accountPage.sessions' }),
      h('p', { class: 'muted', i18n: 'accountPage.sessionsText' }),
      sessionsList,
      h('div', { class: 'row-buttons' },
        h('button', { type: 'button', class: 'btn', id: 'end-others', i18n: 'accountPage.endOthers', onclick: endOthers })),
      sessionsStatus);
  }

  async function loadSessions() {
    let list;
    try {
      list = await api.sessions();
    } catch (err) {
      if (!unmounted) sessionsStatus.textContent = errorText(err);
      return;
    }
    if (unmounted) return;
    clear(sessionsList);
    const date = new Intl.DateTimeFormat(lang(), { dateStyle: 'medium', timeStyle: 'short' });
    for (const s of list.sessions) {
      sessionsList.append(h('li', { class: `session-row${s.current ? ' current' : ''}` },
        h('div', { class: 'session-what' },
          h('strong', {}, s.device || t('accountPage.unknownDevice')),
          s.current ? h('span', { class: 'badge', i18n: 'accountPage.thisDevice' }) : null,
          h('span', { class: 'muted small' }, t('accountPage.sessionTimes', { since: date.format(new Date(s.created_at)), used: timeAgo(s.last_used_at) }))),
        s.current ? null : h('button', {
          type: 'button', class: 'btn small', i18n: 'accountPage.endSession',
          'aria-label': t('accountPage.endSessionOf', { device: s.device || t('accountPage.unknownDevice') }),
          onclick: () => endOne(s),
        })));
    }
  }

  /** @param {SessionInfo} s */
  async function endOne(s) {
    try {
      await api.endSession(s.id);
      sessionsStatus.textContent = t('accountPage.sessionEnded');
    } catch (err) {
      sessionsStatus.textContent = errorText(err);
    }
    await loadSessions();
    /** @type {HTMLElement | null} */ (root.querySelector('#end-others'))?.focus();
  }

  async function endOthers() {
    try {
      const { ended } = await api.endOtherSessions();
      sessionsStatus.textContent = t('accountPage.othersEnded', { n: ended });
    } catch (err) {
      sessionsStatus.textContent = errorText(err);
    }
    loadSessions();
  }

  function dataCard() {
    return h('section', { class: 'card account-card', 'aria-labelledby': 'data-title' },
      h('h2', { id: 'data-title', i18n: 'accountPage.data' }),
      h('p', { class: 'muted', i18n: 'accountPage.dataText' }),
      h('div', { class: 'row-buttons' },
        h('a', { class: 'btn', id: 'export-link', href: api.exportPath(), download: `mabula-${(myName() || '').toLowerCase()}.json`, i18n: 'accountPage.download' })));
  }

  function deleteCard() {
    return h('section', { class: 'card account-card danger-zone', 'aria-labelledby': 'delete-title' },
      h('h2', { id: 'delete-title', i18n: 'accountPage.delete' }),
      h('p', { i18n: 'accountPage.deleteText' }),
      h('div', { class: 'row-buttons' },
        h('button', { type: 'button', class: 'btn danger', id: 'delete-account', i18n: 'accountPage.deleteButton', onclick: askDelete })));
  }

  /** The dialog that asks for the password, then deletes the account. */
  function askDelete() {
    const opener = /** @type {HTMLElement | null} */ (root.querySelector('#delete-account'));
    const password = h('input', { type: 'password', id: 'delete-password', autocomplete: 'current-password', required: true, maxlength: 128 });
    const error = h('p', { class: 'error-text', role: 'alert' });
    const confirm = h('button', { class: 'btn danger', type: 'submit', id: 'delete-confirm', i18n: 'accountPage.deleteConfirm' });
    /** @type {HTMLDialogElement} */
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': 'delete-dialog-title' },
      h('form', { class: 'dialog-body', novalidate: true, onsubmit: async (e) => {
        e.preventDefault();
        error.textContent = '';
        if (!password.value) { error.textContent = t('login.passwordMissing'); password.focus(); return; }
        confirm.disabled = true;
        try {
          await api.deleteAccount(password.value);
          dialog.close();
          toast(t('accountPage.deleted'));
          await refreshSession();
          navigate('/');
        } catch (err) {
          error.textContent = errorText(err);
          password.focus();
        } finally {
          confirm.disabled = false;
        }
      } },
      h('h2', { id: 'delete-dialog-title', i18n: 'accountPage.deleteAsk' }),
      h('p', { i18n: 'accountPage.deleteText' }),
      h('div', { class: 'field-row' },
        h('label', { for: 'delete-password', class: 'field-label', i18n: 'login.password' }), password),
      error,
      h('div', { class: 'dialog-buttons' },
        h('button', { class: 'btn', type: 'button', i18n: 'dialog.cancel', onclick: () => dialog.close() }),
        confirm)));
    translateDom(dialog);
    document.body.append(dialog);
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (!unmounted && document.contains(opener)) opener?.focus();
    });
    dialog.showModal();
    password.focus();
  }

  return {
    unmount() { unmounted = true; },
    onLang() { setTitle(); translateDom(main); if (myName()) { loadSessions(); tokens?.reload(); } },
    onSession() { if (!unmounted) render(); },
  };
}
