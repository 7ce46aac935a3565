// The account page's card of personal API tokens (issue 38): create one (a description and its
// scopes), its secret shown this once with a copy button, the list with the last use, and
// revoking (after a confirmation). `GET/POST /api/account/tokens`, `DELETE …/{id}`.

import { h, clear, translateDom, toast, announce, copyText } from '../dom.js';
import { t, lang, timeAgo } from '../i18n.js';
import { request, ApiError } from '../api.js';
import { errorText } from './errors.js';
import { addBotStyles } from './bots-style.js';

/** @typedef {import('api-types').TokenView} TokenView */

/** The scopes, each with the sentence that says what it allows. */
const SCOPES = [['bot:play', 'tokens.scopeBot'], ['challenge:write', 'tokens.scopeChallenge'], ['board:play', 'tokens.scopeBoard']];

/** The tokens card; `reload()` reads the list again (after a language change). */
export function tokensCard() {
  addBotStyles();
  const description = h('input', { type: 'text', id: 'token-description', maxlength: 60, autocomplete: 'off', required: true, 'aria-describedby': 'token-description-hint token-error' });
  const boxes = SCOPES.map(([scope]) => h('input', { type: 'checkbox', name: 'scope', value: scope, id: `scope-${scope.replace(':', '-')}` }));
  const error = h('p', { class: 'error-text', role: 'alert', id: 'token-error' });
  const submit = h('button', { type: 'submit', class: 'btn primary', id: 'token-create', i18n: 'tokens.create' });
  const secretBox = h('div', { class: 'token-secret', id: 'token-secret', hidden: true });
  const list = h('ul', { class: 'sessions-list tokens-list', id: 'tokens' });
  const status = h('p', { class: 'muted', role: 'status' });

  const form = h('form', { class: 'token-form', novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    error.textContent = '';
    const scopes = boxes.filter((b) => b.checked).map((b) => b.value);
    const text = description.value.trim();
    if (!text) { error.textContent = t('error.invalid_token'); description.focus(); return; }
    if (!scopes.length) { error.textContent = t('tokens.noScope'); boxes[0].focus(); return; }
    submit.disabled = true;
    try {
      const made = await request('POST', '/api/account/tokens', { body: { description: text, scopes } });
      description.value = '';
      for (const b of boxes) b.checked = false;
      showSecret(made.token);
      load();
    } catch (err) {
      error.textContent = errorText(err);
      if (err instanceof ApiError && err.code === 'invalid_token') description.focus();
    } finally {
      submit.disabled = false;
    }
  } },
  h('div', { class: 'field-row' },
    h('label', { for: 'token-description', class: 'field-label', i18n: 'tokens.description' }), description,
    h('p', { class: 'hint', id: 'token-description-hint', i18n: 'tokens.descriptionHint' })),
  h('fieldset', { class: 'field-row token-scopes' }, h('legend', { class: 'field-label', i18n: 'tokens.scopes' }),
    ...SCOPES.map(([scope, key], i) => h('label', { class: 'scope-choice' }, boxes[i],
      h('span', {}, h('code', {}, scope), ' ', h('span', { class: 'muted', i18n: key }))))),
  h('div', { class: 'row-buttons' }, submit),
  error);

  /** The new secret, this once: a read-only field, the copy button and the warning. */
  function showSecret(/** @type {string} */ token) {
    clear(secretBox);
    const field = h('input', { type: 'text', id: 'token-value', readonly: true, value: token, 'aria-labelledby': 'token-secret-title', spellcheck: 'false' });
    const hide = () => { clear(secretBox); secretBox.hidden = true; description.focus(); };
    secretBox.append(
      h('h3', { id: 'token-secret-title', i18n: 'tokens.secretTitle' }),
      h('p', { class: 'warning-text', i18n: 'tokens.secretWarning' }),
      h('div', { class: 'copy-row' }, field,
        h('button', { type: 'button', class: 'btn', id: 'token-copy', i18n: 'tokens.copy', onclick: async () => {
          field.select();
          if (await copyText(token)) { toast(t('tokens.copied')); announce(t('tokens.copied')); }
        } })),
      h('div', { class: 'row-buttons' }, h('button', { type: 'button', class: 'btn small', id: 'token-hide', i18n: 'tokens.hide', onclick: hide })));
    secretBox.hidden = false;
    field.focus();
    field.select();
  }

  async function load() {
    let tokens;
    try {
      tokens = (await request('GET', '/api/account/tokens')).tokens;
    } catch (err) {
      status.textContent = errorText(err);
      return;
    }
    status.textContent = '';
    clear(list);
    if (!tokens.length) list.append(h('li', { class: 'empty-note', i18n: 'tokens.none' }));
    const date = new Intl.DateTimeFormat(lang(), { dateStyle: 'medium' });
    for (const tok of tokens) list.append(row(tok, date));
  }

  function row(/** @type {TokenView} */ tok, /** @type {Intl.DateTimeFormat} */ date) {
    return h('li', { class: 'session-row token-row', dataset: { id: tok.id } },
      h('div', { class: 'session-what' },
        h('strong', { class: 'token-description' }, tok.description),
        h('span', { class: 'token-scopes-list' }, ...tok.scopes.map((s) => h('code', {}, s))),
        h('span', { class: 'muted small' },
          `${t('tokens.created', { when: date.format(new Date(tok.created_at)) })} · ${tok.used_at ? t('tokens.used', { when: timeAgo(tok.used_at) }) : t('tokens.neverUsed')}`)),
      h('button', { type: 'button', class: 'btn small danger revoke-button', i18n: 'tokens.revoke',
        'aria-label': t('tokens.revokeLabel', { name: tok.description }), onclick: (e) => askRevoke(tok, /** @type {HTMLElement} */ (e.currentTarget)) }));
  }

  function askRevoke(/** @type {TokenView} */ tok, /** @type {HTMLElement} */ opener) {
    const problem = h('p', { class: 'error-text', role: 'alert' });
    const confirm = h('button', { class: 'btn danger', type: 'submit', id: 'revoke-confirm', i18n: 'tokens.revoke' });
    /** @type {HTMLDialogElement} */
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': 'revoke-title' },
      h('form', { class: 'dialog-body', onsubmit: async (e) => {
        e.preventDefault();
        confirm.disabled = true;
        try {
          await request('DELETE', `/api/account/tokens/${encodeURIComponent(tok.id)}`);
          dialog.close();
          status.textContent = t('tokens.revoked');
          await load();
          description.focus();
        } catch (err) {
          problem.textContent = errorText(err);
        } finally {
          confirm.disabled = false;
        }
      } },
      h('h2', { id: 'revoke-title' }, t('tokens.revokeAsk', { name: tok.description })),
      h('p', { i18n: 'tokens.revokeText' }),
      problem,
      h('div', { class: 'dialog-buttons' },
        h('button', { class: 'btn', type: 'button', i18n: 'dialog.cancel', onclick: () => dialog.close() }),
        confirm)));
    translateDom(dialog);
    document.body.append(dialog);
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (document.contains(opener)) opener.focus();
    });
    dialog.showModal();
    confirm.focus();
  }

  const el = h('section', { class: 'card account-card tokens-card', 'aria-labelledby': 'tokens-title' },
    h('h2', { id: 'tokens-title', i18n: 'tokens.title' }),
    h('p', { class: 'muted', i18n: 'tokens.text' }),
    form, secretBox, list, status);
  load();
  return { el, reload: load };
}
