// The game page's parts for playing together (issue 36): the draw offer's banner and the buttons
// to offer a draw and to abort a game before each side has moved. They are drawn from the model
// (pages/game-model.js decides what may be done) and act through the page's `dispatch`.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { other, canOfferDraw, canAbort } from './game-model.js';
import { soundOn, setSound } from '../sound.js';

/** @typedef {import('./game-model.js').Model} Model */
/** @typedef {import('api-types').GameState} GameState */
/** @typedef {import('pages-types').Dispatch<import('pages-types').GameMsg>} Dispatch */

const Cap = { white: 'White', black: 'Black' };

/**
 * The banner of a standing draw offer, or null: Accept and Decline for the side it was made to,
 * a note for the side that made it and for spectators.
 */
export function drawBanner(/** @type {Model} */ m, /** @type {Dispatch} */ dispatch) {
  const st = /** @type {GameState} */ (m.state);
  const by = st.draw_offer;
  if (!by || st.status !== 'playing' || m.replay) return null;
  if (m.seats.length === 1 && m.seats[0] === by) {
    return h('div', { class: 'banner draw-banner' }, h('p', {}, t('play.drawOfferedByYou')));
  }
  if (m.seats.length === 1 && m.seats[0] === other(by)) {
    return h('div', { class: 'banner warn draw-banner', role: 'group', 'aria-label': t('play.drawOfferedToYou') },
      h('p', {}, t('play.drawOfferedToYou')),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'btn primary small draw-accept', onclick: () => dispatch({ type: 'act', action: 'draw' }) }, t('play.drawAccept')),
        h('button', { type: 'button', class: 'btn small draw-decline', onclick: () => dispatch({ type: 'act', action: 'declineDraw' }) }, t('play.drawDecline'))));
  }
  const side = st.players?.[by]?.name || t(`colour.${Cap[by]}`);
  return h('div', { class: 'banner draw-banner' }, h('p', {}, t('play.drawOfferedBy', { side })));
}

/** The buttons to offer a draw and to abort, as far as the player may use them now. */
export function playButtons(/** @type {Model} */ m, /** @type {Dispatch} */ dispatch) {
  const st = /** @type {GameState} */ (m.state);
  /** @type {HTMLElement[]} */
  const out = [];
  if (m.replay) return out;
  if (canAbort(m)) {
    out.push(h('button', { type: 'button', class: 'btn abort-button', onclick: () => dispatch({ type: 'act', action: 'abort' }) }, t('play.abort')));
  }
  if (canOfferDraw(m) && st.draw_offer !== other(m.seats[0])) {
    const mine = st.draw_offer === m.seats[0];
    out.push(h('button', { type: 'button', class: 'btn draw-button', disabled: mine, 'aria-disabled': mine ? 'true' : 'false',
      onclick: () => dispatch({ type: 'act', action: 'draw', ok: 'play.drawOfferedByYou' }) }, t(mine ? 'play.drawOffered' : 'play.drawOffer')));
  }
  return out;
}

/** The switch of the game's sounds (on unless muted; remembered for this browser). */
export function soundToggle() {
  /** @type {HTMLInputElement} */
  const box = h('input', { type: 'checkbox', class: 'sound-toggle', checked: soundOn(), onchange: () => setSound(box.checked) });
  return h('label', {}, box, h('span', { i18n: 'play.sound' }));
}
