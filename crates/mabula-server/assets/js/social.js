// Reports and blocks in the browser (issue 36): the report form (from a chat line or a profile),
// the Report and Block buttons of a profile, and the texts of the social error codes.

import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { request, ApiError } from './api.js';
import { errorText } from './pages/errors.js';

/** The codes of the chat, blocks and moderation, with texts of their own. */
const OWN_ERRORS = new Set([
  'chat_empty', 'chat_too_long', 'chat_invalid', 'chat_not_allowed', 'blocked', 'muted',
  'account_closed', 'not_moderator', 'report_not_found', 'invalid_report', 'rate_limited', 'not_logged_in',
]);

/** A translated sentence for an error of the chat, a block or a report. */
export function socialError(/** @type {unknown} */ err) {
  const code = err instanceof ApiError ? err.code : '';
  return OWN_ERRORS.has(code) ? t(`social.error.${code}`) : errorText(err);
}

/**
 * The report form: why (a fixed list), what happened; sent to the moderators.
 * @param {string} player
 * @param {{ game?: string, chatLine?: number }} [about]
 */
export function reportDialog(player, about = {}) {
  const reason = h('select', { id: 'report-reason', required: true },
    ...['abuse', 'spam', 'cheating', 'other'].map((r) => h('option', { value: r }, t(`report.reason.${r}`))));
  const text = h('textarea', { id: 'report-text', rows: '4', maxlength: '1000' });
  const error = h('p', { class: 'error-text', 'aria-live': 'assertive' });
  /** @type {HTMLDialogElement} */
  const dialog = h('dialog', { class: 'confirm report-dialog', 'aria-labelledby': 'report-title' },
    h('form', { class: 'dialog-body', onsubmit: async (e) => {
      e.preventDefault();
      /** @type {import('api-types').ReportRequest} */
      const body = { player, reason: /** @type {import('api-types').ReportReason} */ (reason.value), text: text.value };
      if (about.game) body.game = about.game;
      if (about.chatLine) body.chat_line = about.chatLine;
      try {
        await request('POST', '/api/reports', { body });
        dialog.close();
        toast(t('report.sent'));
      } catch (err) {
        error.textContent = socialError(err);
      }
    } },
      h('h2', { id: 'report-title' }, t('report.title', { name: player })),
      h('label', { for: 'report-reason' }, t('report.reason')), reason,
      h('label', { for: 'report-text' }, t('report.text')), text,
      error,
      h('div', { class: 'dialog-buttons' },
        h('button', { class: 'btn', type: 'button', onclick: () => dialog.close() }, t('dialog.cancel')),
        h('button', { class: 'btn primary', type: 'submit' }, t('report.send')))));
  document.body.append(dialog);
  dialog.addEventListener('close', () => dialog.remove());
  dialog.showModal();
  reason.focus();
}

/**
 * The Report and Block (or Unblock) buttons of a logged-in visitor on `name`'s profile.
 * @param {string} name
 */
export function profileButtons(name) {
  let blocked = false;
  const block = h('button', { type: 'button', class: 'btn block-button', i18n: 'block.button', onclick: async () => {
    try {
      await request(blocked ? 'DELETE' : 'POST', `/api/players/${encodeURIComponent(name)}/block`, blocked ? {} : { body: {} });
      blocked = !blocked;
      toast(t(blocked ? 'block.done' : 'block.undone', { name }));
      label();
    } catch (err) {
      toast(socialError(err), 'error');
    }
  } });
  const label = () => {
    block.dataset.i18n = blocked ? 'block.unblock' : 'block.button';
    block.textContent = t(block.dataset.i18n);
    block.setAttribute('aria-pressed', String(blocked));
  };
  request('GET', '/api/account/blocks').then((/** @type {import('api-types').BlockList} */ res) => {
    blocked = res.players.some((p) => p.toLowerCase() === name.toLowerCase());
    label();
  }).catch(() => { /* shown as not blocked */ });
  const report = h('button', { type: 'button', class: 'btn report-button', i18n: 'report.button', onclick: () => reportDialog(name) });
  return [report, block];
}

/** A link to the moderators' page, shown only once the server says the visitor is a moderator. */
export function moderatorLink() {
  const link = h('a', { class: 'btn moderation-link', href: '/moderation', hidden: true, i18n: 'mod.title' });
  request('GET', '/api/account/moderation')
    .then((res) => { link.hidden = !res.moderator; })
    .catch(() => { /* not shown */ });
  return link;
}
