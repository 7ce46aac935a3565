// Modal dialogs on <dialog>: a yes/no question, and the end of a game.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { miniBoard } from '../board.js';

/** Asks a yes/no question; answers true when the person confirms. */
export function confirmDialog({ title, text, ok, cancel = t('dialog.cancel'), danger = false }) {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-title' },
      h('form', { method: 'dialog', class: 'dialog-body' },
        h('h2', { id: 'confirm-title' }, title),
        text ? h('p', {}, text) : null,
        h('div', { class: 'dialog-buttons' },
          h('button', { class: 'btn', value: 'no', type: 'submit' }, cancel),
          h('button', { class: `btn ${danger ? 'danger' : 'primary'}`, value: 'yes', type: 'submit' }, ok))));
    document.body.append(dialog);
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'yes');
      dialog.remove();
    });
    dialog.showModal();
    dialog.querySelector('button[value="no"]').focus();
  });
}

/**
 * The end of a game: the result, why, both scores with the groups, and the final field with its
 * groups outlined. `actions` are extra buttons (rematch, new game).
 */
export function endDialog(state, { headline, reason, actions = [] }) {
  const scoring = state.settings.scoring;
  const row = (colour) => {
    const sizes = (state.groups[colour] || []).map((g) => g.length);
    return h('tr', { class: state.winner === colour ? 'win' : '' },
      h('th', { scope: 'row' }, h('span', { class: `dot ${colour}`, style: 'display:inline-block;width:14px;height:14px;border-radius:50%;margin-right:8px;vertical-align:-2px' }), t(`colour.${colour === 'white' ? 'White' : 'Black'}`)),
      h('td', { class: 'groups-cell' }, sizes.length ? sizes.join(' · ') : t('end.noGroups')),
      h('td', { class: 'num' }, String(state.scores[scoring][colour])));
  };
  const board = miniBoard(state.position, { groups: state.groups, label: 'end.board' });
  const dialog = h('dialog', { class: 'end-dialog', 'aria-labelledby': 'end-title' },
    h('div', { class: 'dialog-body' },
      h('h2', { id: 'end-title' }, headline),
      h('p', { class: 'muted' }, reason),
      h('div', { class: 'end-grid' },
        board.svg,
        h('table', { class: 'score-table' },
          h('caption', { class: 'sr-only' }, t('end.scores')),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, t('end.player')),
            h('th', { scope: 'col' }, t('end.groups')),
            h('th', { scope: 'col', style: 'text-align:right' }, t(`scoring.${scoring}`)))),
          h('tbody', {}, row('white'), row('black')))),
      h('div', { class: 'dialog-buttons' },
        ...actions,
        h('button', { class: 'btn', type: 'button', onclick: () => dialog.close() }, t('dialog.close')))));
  document.body.append(dialog);
  dialog.addEventListener('close', () => dialog.remove());
  dialog.showModal();
  return dialog;
}
