// Pieces shared by several pages: a game in a list, the names of modes and results.

import { h } from './dom.js';
import { t, timeAgo } from './i18n.js';
import { miniBoard } from './board.js';

/** "Against the engine, level 3" and the like, from a list entry or a state's settings. */
/** @param {string | undefined} mode @param {number | null} [level] */
export function modeLabel(mode, level) {
  if (mode === 'engine') return t('mode.engineLevel', { level });
  if (mode === 'friend') return t('mode.friend');
  return t('mode.local');
}

/** A rating as shown beside a name: `1500?` while it is provisional. */
export function ratingText(/** @type {number | null | undefined} */ rating, /** @type {boolean | undefined} */ provisional) {
  if (rating === null || rating === undefined) return '';
  return `${rating}${provisional ? '?' : ''}`;
}

/** A rating change: `+12`, `−8`, `±0`. */
export function ratingDiff(/** @type {number} */ diff) {
  if (diff > 0) return `+${diff}`;
  if (diff < 0) return `\u2212${-diff}`;
  return '\u00b10';
}

/** "White won", "Draw", ... from a result token (and "Aborted" for a game called off). */
export function resultLabel(/** @type {string | null | undefined} */ result, /** @type {string | null | undefined} */ endReason = null) {
  if (endReason === 'aborted') return t('result.aborted');
  if (result === '1-0') return t('result.white');
  if (result === '0-1') return t('result.black');
  if (result === '1/2-1/2') return t('result.draw');
  return t('result.ongoing');
}

/**
 * Who plays a list entry: "alice (1520) vs bob (1490?)" when a seat has an account (a guest's
 * seat is named by its colour), else the mode ("Against the engine, level 3").
 */
export function playersLabel(/** @type {import('api-types').GameSummary} */ g) {
  const white = g.players?.white;
  const black = g.players?.black;
  if (!white && !black) return modeLabel(g.mode, g.engine_level);
  const side = (/** @type {import('api-types').PlayerView | null | undefined} */ p, /** @type {string} */ colour) => {
    if (!p) return g.mode === 'engine' ? modeLabel('engine', g.engine_level) : t(`colour.${colour}`);
    const rating = ratingText(p.rating, p.provisional);
    return rating ? `${p.name} (${rating})` : p.name;
  };
  return t('list.vs', { white: side(white, 'White'), black: side(black, 'Black') });
}

/** One game of `GET /api/games`, as a link with a small board. */
export function gameItem(/** @type {import('api-types').GameSummary} */ g, /** @type {string} */ href = '') {
  const board = miniBoard(g.position, { label: 'board.thumb' });
  const live = g.status === 'playing';
  const badge = live
    ? h('span', { class: 'badge live' }, t('list.toMove', { side: t(g.to_move === 'white' ? 'colour.White' : 'colour.Black') }))
    : h('span', { class: 'badge' }, resultLabel(g.result, g.end_reason));
  // Games between accounts say whether they are rated, and their clock.
  const accounts = Boolean(g.players?.white || g.players?.black) && g.mode !== 'engine';
  const kind = accounts ? [t(g.rated ? 'list.rated' : 'list.casual'), ...(g.time_control ? [g.time_control] : [])] : [];
  return h('li', {},
    h('a', { class: 'game-item', href: href || (live ? `/game/${g.id}` : `/replay/${g.id}`) },
      board.svg,
      h('span', {},
        h('span', { class: 'what' }, playersLabel(g)),
        h('span', { class: 'meta', style: 'display:block' },
          [...kind, t(`scoring.${g.scoring}`), t('list.moves', { n: g.move_count }), timeAgo(g.updated_at)].join(' · '))),
      badge));
}

/** The BOT badge beside a bot's name (issue 38); its title tells what it means. */
export function botBadge() {
  return h('span', { class: 'badge bot-badge', i18n: 'bots.badge', 'i18n-title': 'bots.badgeTitle' });
}
