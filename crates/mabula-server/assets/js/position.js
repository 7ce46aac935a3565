// Reading position strings for display, and the groups and scores of a field (to show past
// positions and previews). The rules of moving are the server's: every legal move comes with the
// position after it, so nothing here computes a push.

export const FILES = 'abcdefgh';

/** @typedef {import('pages-types').Colour} Colour @typedef {import('pages-types').BoardMap} BoardMap @typedef {import('pages-types').Groups} Groups */

/** Square name from file and rank indexes (0..7). */
export function sq(/** @type {number} */ f, /** @type {number} */ r) {
  return FILES[f] + (r + 1);
}

/** File and rank indexes (0..7) of a square name. */
export function coords(/** @type {string} */ name) {
  return [FILES.indexOf(name[0]), Number(name.slice(1)) - 1];
}

export function isCorner(/** @type {number} */ f, /** @type {number} */ r) {
  return (f === 0 || f === 7) && (r === 0 || r === 7);
}

export function isField(/** @type {number} */ f, /** @type {number} */ r) {
  return f >= 1 && f <= 6 && r >= 1 && r <= 6;
}

/** Every square that is part of the game (60: 36 field, 24 edge). */
/** @type {string[]} */
export const SQUARES = [];
for (let r = 0; r < 8; r++) for (let f = 0; f < 8; f++) if (!isCorner(f, r)) SQUARES.push(sq(f, r));

/**
 * Reads a position string: `{ board: Map(square -> 'w' | 'b'), toMove: 'w' | 'b' }`, or throws an
 * Error whose message names the problem (only used to preview a pasted setup; the server decides).
 * @param {string} text
 * @returns {{ board: BoardMap, toMove: Colour }}
 */
export function parsePosition(text) {
  const [placement, side, ...rest] = String(text).trim().split(/\s+/);
  if (!placement) throw new Error('empty');
  if (rest.length) throw new Error('extra');
  if (side !== 'w' && side !== 'b') throw new Error('side');
  const ranks = placement.split('/');
  if (ranks.length !== 8) throw new Error('ranks');
  /** @type {BoardMap} */
  const board = new Map();
  ranks.forEach((row, i) => {
    const r = 7 - i;
    let f = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) f += Number(ch);
      else if (ch === 'w' || ch === 'b') {
        if (f > 7) throw new Error('squares');
        if (isCorner(f, r)) throw new Error('corner');
        board.set(sq(f, r), ch);
        f += 1;
      } else throw new Error('char');
    }
    if (f !== 8) throw new Error('squares');
  });
  return { board, toMove: side };
}

/** Like parsePosition, but answers an empty board for unreadable text. */
/** @returns {{ board: BoardMap, toMove: Colour }} */
export function tryParse(/** @type {string} */ text) {
  try { return parsePosition(text); } catch { return { board: new Map(), toMove: 'w' }; }
}

/** Each colour's groups in the field, largest first, each a list of squares. */
/** @param {BoardMap} board @returns {Groups} */
export function groupsOf(board) {
  const seen = new Set();
  /** @type {Groups} */
  const out = { white: [], black: [] };
  for (let r = 1; r <= 6; r++) {
    for (let f = 1; f <= 6; f++) {
      const start = sq(f, r);
      const colour = board.get(start);
      if (!colour || seen.has(start)) continue;
      /** @type {string[]} */
      const group = [];
      const stack = [start];
      seen.add(start);
      while (stack.length) {
        const cur = /** @type {string} */ (stack.pop());
        group.push(cur);
        const [cf, cr] = coords(cur);
        for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const nf = cf + df;
          const nr = cr + dr;
          if (!isField(nf, nr)) continue;
          const next = sq(nf, nr);
          if (!seen.has(next) && board.get(next) === colour) {
            seen.add(next);
            stack.push(next);
          }
        }
      }
      group.sort();
      out[colour === 'w' ? 'white' : 'black'].push(group);
    }
  }
  out.white.sort((a, b) => b.length - a.length);
  out.black.sort((a, b) => b.length - a.length);
  return out;
}

/** Both scores of both colours, as the server's `scores` object. */
export function scoresOf(/** @type {Groups} */ groups) {
  const largest = (/** @type {string[][]} */ gs) => (gs.length ? gs[0].length : 0);
  const product = (/** @type {string[][]} */ gs) => (gs.length ? gs.reduce((p, g) => p * g.length, 1) : 0);
  return {
    largest: { white: largest(groups.white), black: largest(groups.black) },
    product: { white: product(groups.white), black: product(groups.black) },
  };
}

/** Distance in squares along a file or rank. */
export function distance(/** @type {string} */ a, /** @type {string} */ b) {
  const [fa, ra] = coords(a);
  const [fb, rb] = coords(b);
  return Math.abs(fa - fb) + Math.abs(ra - rb);
}

/** Writes a board (Map square -> 'w' | 'b') as a position string. */
export function toPositionString(/** @type {BoardMap} */ board, /** @type {Colour} */ side = 'w') {
  const ranks = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const c = board.get(sq(f, r));
      if (c) {
        if (empty) row += empty;
        empty = 0;
        row += c;
      } else empty += 1;
    }
    if (empty) row += empty;
    ranks.push(row);
  }
  return `${ranks.join('/')} ${side}`;
}
