// Modal dialogs on <dialog>: a yes/no question, the end of a game, and a game shared as a picture.

import { h, toast, copyText } from '../dom.js';
import { t } from '../i18n.js';
import { miniBoard } from '../board.js';
import { ratingText, ratingDiff } from '../widgets.js';

/**
 * Asks a yes/no question; answers true when the person confirms.
 * @param {{ title: string, text?: string, ok: string, cancel?: string, danger?: boolean }} question
 * @returns {Promise<boolean>}
 */
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
    /** @type {HTMLButtonElement | null} */ (dialog.querySelector('button[value="no"]'))?.focus();
  });
}

/**
 * The end of a game: the result, why, both scores with the groups, and the final field with its
 * groups outlined. `actions` are extra buttons (rematch, new game).
 * @param {import('api-types').GameState} state
 * @param {{ headline: string, reason: string, extra?: Node | null, actions?: Node[] }} parts
 */
export function endDialog(state, { headline, reason, extra = null, actions = [] }) {
  const scoring = /** @type {keyof import('api-types').GameState['scores']} */ (state.settings.scoring);
  const row = (/** @type {import('api-types').Side} */ colour) => {
    const sizes = (state.groups[colour] || []).map((g) => g.length);
    return h('tr', { class: state.winner === colour ? 'win' : '' },
      h('th', { scope: 'row' }, h('span', { class: `dot ${colour}`, style: 'display:inline-block;width:14px;height:14px;border-radius:50%;margin-right:8px;vertical-align:-2px' }),
        h('span', { class: 'end-name' }, state.players?.[colour]?.name || t(`colour.${colour === 'white' ? 'White' : 'Black'}`)),
        ratingChange(state.players?.[colour])),
      h('td', { class: 'groups-cell' }, sizes.length ? sizes.join(' · ') : t('end.noGroups')),
      h('td', { class: 'num' }, String(state.scores[scoring][colour])));
  };
  const board = miniBoard(state.position, { groups: state.groups, label: 'end.board' });
  /** @type {HTMLDialogElement} */
  const dialog = h('dialog', { class: 'end-dialog', 'aria-labelledby': 'end-title' },
    h('div', { class: 'dialog-body' },
      h('h2', { id: 'end-title' }, headline),
      h('p', { class: 'muted' }, reason),
      extra,
      h('div', { class: 'end-grid' },
        board.svg,
        h('table', { class: 'score-table' },
          h('caption', { class: 'score-caption' }, `${t('end.scores')} · ${t(`scoring.${scoring}`)}`),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, t('end.player')),
            h('th', { scope: 'col' }, t('end.groups')),
            h('th', { scope: 'col', style: 'text-align:right', title: t(`scoring.${scoring}`) }, t('end.points')))),
          h('tbody', {}, row('white'), row('black')))),
      h('div', { class: 'dialog-buttons' },
        ...actions,
        h('button', { class: 'btn', type: 'button', onclick: () => dialog.close() }, t('dialog.close')))));
  document.body.append(dialog);
  dialog.addEventListener('close', () => dialog.remove());
  dialog.showModal();
  return dialog;
}

/** A player's rating and how the game moved it, beside their name in the result. */
function ratingChange(/** @type {import('api-types').PlayerView | null | undefined} */ player) {
  if (!player || player.rating === null || player.rating === undefined) return null;
  const diff = player.rating_diff;
  return h('span', { class: 'end-rating muted' }, ' ', ratingText(player.rating, player.provisional),
    diff !== null && diff !== undefined
      ? h('span', { class: `rating-diff ${diff > 0 ? 'up' : diff < 0 ? 'down' : ''}`, 'aria-label': t('game.ratingChange', { d: ratingDiff(diff) }) }, ` ${ratingDiff(diff)}`)
      : null);
}

/** ½ points as people write them: 0, ½, 1, 1½, 2. */
function points(/** @type {number} */ x) {
  const whole = Math.floor(x);
  if (x === whole) return String(whole);
  return whole ? `${whole}½` : '½';
}

/**
 * The combined result of a duplicate pair (`state.pair`, in its second game, once both are over):
 * each person's points over both games and both results. People are named from the viewer's
 * seats: you and the engine or your opponent, else by the colours they played.
 * @param {import('api-types').GameState} state
 * @param {import('api-types').Side[]} seats
 */
export function pairSummary(state, seats) {
  const pair = state.pair;
  if (!pair || !pair.points) return null;
  const pts = pair.points;
  // Who played White first is Black in this (second) game.
  /**
   * @typedef {'white_then_black' | 'black_then_white'} PairKey
   * @returns {PairKey}
   */
  const keyOf = (/** @type {string} */ sideNow) => (sideNow === 'black' ? 'white_then_black' : 'black_then_white');
  /** @type {[PairKey, string][]} */
  let rows;
  if (state.settings.mode === 'engine' && state.settings.engine) {
    const engineKey = keyOf(state.settings.engine.color);
    const youKey = engineKey === 'white_then_black' ? 'black_then_white' : 'white_then_black';
    rows = [[youKey, 'pair.you'], [engineKey, 'pair.engine']];
  } else if (state.settings.mode === 'friend' && seats.length === 1) {
    const youKey = keyOf(seats[0]);
    const otherKey = youKey === 'white_then_black' ? 'black_then_white' : 'white_then_black';
    rows = [[youKey, 'pair.you'], [otherKey, 'pair.opponent']];
  } else {
    rows = [['white_then_black', 'pair.whiteFirst'], ['black_then_white', 'pair.blackFirst']];
  }
  const best = Math.max(pts.white_then_black, pts.black_then_white);
  const level = pts.white_then_black === pts.black_then_white;
  return h('section', { class: 'pair-result', 'aria-labelledby': 'pair-title' },
    h('h3', { id: 'pair-title', i18n: 'pair.title' }),
    h('table', { class: 'score-table' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', i18n: 'pair.player' }),
        h('th', { scope: 'col', style: 'text-align:right', i18n: 'pair.points' }))),
      h('tbody', {}, ...rows.map(([key, label]) => h('tr', { class: !level && pts[key] === best ? 'win' : '' },
        h('th', { scope: 'row', i18n: label }),
        h('td', { class: 'num' }, points(pts[key])))))),
    h('p', { class: 'muted' }, level ? `${t('pair.level')} ` : '',
      t('pair.results', { a: pair.results[0], b: pair.results[1] })));
}

/**
 * A game as a picture (`/api/games/{id}/image`): the position after `ply` moves as PNG or SVG,
 * or the whole game animated, to download, to copy the address of, or to hand to the system's
 * share sheet where there is one.
 * @param {string} id
 * @param {{ ply: number, flipped?: boolean }} view
 */
export function shareDialog(id, { ply, flipped = false }) {
  const base = `${location.origin}/api/games/${id}/image`;
  /** @typedef {'png' | 'svg' | 'apng'} Format */
  const query = (/** @type {Format} */ format) => `?format=${format}${format === 'apng' ? '' : `&ply=${ply}`}${flipped ? '&flip=true' : ''}`;
  const url = (/** @type {Format} */ format) => `${base}${query(format)}`;
  const link = (/** @type {Format} */ format, /** @type {string} */ key, /** @type {string} */ file) => h('a', { class: 'btn small', href: url(format), download: file, i18n: key });
  const buttons = [
    link('png', 'share.png', `mabula-${id}-${ply}.png`),
    link('svg', 'share.svg', `mabula-${id}-${ply}.svg`),
    link('apng', 'share.animation', `mabula-${id}.png`),
    h('button', { type: 'button', class: 'btn small share-copy', i18n: 'share.copyLink', onclick: async () => {
      const ok = await copyText(url('png'));
      toast(t(ok ? 'game.copied' : 'game.copyFailed'), ok ? 'info' : 'error');
    } }),
  ];
  if (navigator.share) {
    buttons.push(h('button', { type: 'button', class: 'btn small primary share-system', i18n: 'share.system', onclick: async () => {
      try {
        const blob = await (await fetch(url('png'))).blob();
        const file = new File([blob], `mabula-${id}-${ply}.png`, { type: 'image/png' });
        const data = navigator.canShare?.({ files: [file] }) ? { files: [file] } : { url: url('png') };
        await navigator.share({ title: 'Mabula', ...data });
      } catch { /* cancelled, or not allowed */ }
    } }));
  }
  /** @type {HTMLDialogElement} */
  const dialog = h('dialog', { class: 'share-dialog', 'aria-labelledby': 'share-title' },
    h('div', { class: 'dialog-body' },
      h('h2', { id: 'share-title', i18n: 'share.title' }),
      h('p', { class: 'muted', i18n: 'share.text' }),
      h('img', { class: 'share-preview', src: url('svg'), width: 240, height: 240, alt: t('share.preview', { k: ply }) }),
      h('div', { class: 'share-links' }, ...buttons),
      h('div', { class: 'dialog-buttons' },
        h('button', { class: 'btn', type: 'button', onclick: () => dialog.close(), i18n: 'dialog.close' }))));
  document.body.append(dialog);
  dialog.addEventListener('close', () => dialog.remove());
  dialog.showModal();
  return dialog;
}
