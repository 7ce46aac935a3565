// "How to play": the rules in the reader's language (the text lives in `js/rules/{lang}.js`,
// loaded only here), illustrated with board diagrams drawn by the same board as the game.

import { h, clear } from '../dom.js';
import { lang } from '../i18n.js';
import { miniBoard } from '../board.js';
import { parsePosition, toPositionString, groupsOf } from '../position.js';

/** @typedef {import('pages-types').Colour} Colour */

const SETUP = '1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w';

/**
 * The setup with some squares changed: `{ b3: 'b', b1: null }`.
 * @param {Record<string, Colour | null>} changes
 * @param {Colour} [side]
 */
function variant(changes, side = 'w') {
  const board = parsePosition(SETUP).board;
  for (const [square, colour] of Object.entries(changes)) {
    if (colour) board.set(square, colour);
    else board.delete(square);
  }
  return toPositionString(board, side);
}

/**
 * A field given row by row (ranks 7 to 2, files b to g), the edge empty.
 * @param {string[]} rows
 * @param {Colour} [side]
 */
function field(rows, side = 'w') {
  /** @type {import('pages-types').BoardMap} */
  const board = new Map();
  rows.forEach((row, i) => {
    [...row].forEach((ch, j) => {
      if (ch === 'w' || ch === 'b') board.set('bcdefg'[j] + (7 - i), ch);
    });
  });
  return toPositionString(board, side);
}

/** @type {Record<string, Colour>} */
const FULL_RANK = { b5: 'b', c5: 'w', d5: 'b', e5: 'w', f5: 'b', g5: 'w' };

const END = field([
  '.ww.b.',
  'bw.bb.',
  'bww.bw',
  '.bww.w',
  'w.bbw.',
  'wb.bb.',
]);

/**
 * The diagrams, by name: a position and its notes.
 * @type {Record<string, import('pages-types').Diagram>}
 */
const DIAGRAMS = {
  setup: { position: SETUP },
  ring: { position: SETUP, notes: { rings: ['f1', 'g1', 'h2'] } },
  pushBefore: {
    position: variant({ b3: 'b', b5: 'w', c8: null, d8: null }),
    notes: { arrows: [['b1', 'b4']] },
  },
  pushAfter: {
    position: variant({ b1: null, b4: 'w', b5: 'b', b6: 'w', c8: null, d8: null }, 'b'),
    lastMove: { from: 'b1', to: 'b4' },
  },
  limit: {
    position: variant({ d3: 'b', d4: 'w', d6: 'b', d7: 'w', c8: null, e8: null, b8: null, f8: null }),
    notes: { rings: ['d2', 'd3'], crosses: ['d4'] },
  },
  blocked: {
    position: variant({ ...FULL_RANK, c8: null, d8: null, c1: null, d1: null, f1: null, g1: null }, 'b'),
    notes: { crosses: ['a5', 'h5'], arrows: [['e8', 'e4']] },
  },
  unblocked: {
    position: variant({ ...FULL_RANK, c8: null, d8: null, c1: null, d1: null, f1: null, g1: null, e8: null, e5: null, e4: 'b', e3: 'w' }),
    notes: { rings: ['a5', 'h5'] },
    lastMove: { from: 'e8', to: 'e4' },
  },
  scoring: { position: END, groups: true },
};

/** The rules' text in the current language: `{ rules, tournaments }`, and the language. */
async function texts() {
  const code = lang();
  /** @type {import('pages-types').RulesTexts} */
  const texts = (await import(`../rules/${code}.js`)).default;
  return { ...texts, code };
}

export function mount(/** @type {HTMLElement} */ main) {
  // Each render's number: a render whose text comes after a newer one's, or after the page was
  // left, draws nothing.
  let shown = 0;
  async function render() {
    if (shown < 0) return;
    const ticket = ++shown;
    const { rules: c, tournaments, code } = await texts();
    if (ticket !== shown) return;
    clear(main);
    const sections = [...c.sections, tournaments];
    document.title = `${c.title} · Mabula`;
    const article = h('article', { class: 'rules', lang: code },
      h('h1', {}, c.title),
      h('p', { class: 'lead' }, c.lead),
      h('nav', { 'aria-label': c.tocLabel }, h('ul', { class: 'toc' },
        ...sections.map((sec) => h('li', {}, h('a', { href: `#${sec.id}` }, sec.title))))));
    for (const sec of sections) {
      const el = h('section', { id: sec.id, 'aria-labelledby': `${sec.id}-h` }, h('h2', { id: `${sec.id}-h` }, sec.title));
      for (const block of sec.body) {
        if (typeof block === 'string') el.append(h('p', {}, ...rich(block)));
        else if (block.list) el.append(h('ul', {}, ...block.list.map((li) => h('li', {}, ...rich(li)))));
        else if (block.steps) el.append(h('ol', {}, ...block.steps.map((li) => h('li', {}, ...rich(li)))));
        else if (block.figure) el.append(figure(block.figure, block.caption, c));
      }
      article.append(el);
    }
    article.append(h('p', {}, h('a', { class: 'btn primary big', href: '/' }, c.cta)));
    main.append(article);
    if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }

  render();
  return { onLang: render, unmount: () => { shown = -1; } };
}

/** `code` spans between backticks, the rest as text. */
function rich(/** @type {string} */ text) {
  return text.split(/(`[^`]+`)/).filter(Boolean).map((part) =>
    (part.startsWith('`') ? h('code', {}, part.slice(1, -1)) : part));
}

/**
 * @param {string[]} names
 * @param {string | undefined} caption
 * @param {import('pages-types').RulesText} c
 */
function figure(names, caption, c) {
  return h('figure', {},
    ...names.map((name) => {
      const d = DIAGRAMS[name];
      const board = miniBoard(d.position, {
        plain: false,
        labels: true,
        groups: d.groups ? groupsOf(parsePosition(d.position).board) : null,
        lastMove: d.lastMove || null,
        label: 'board.diagram',
      });
      if (d.notes) board.set({ annotations: d.notes });
      board.svg.setAttribute('aria-label', c.diagrams[name]);
      return h('div', {}, board.svg, h('span', { class: 'diagram-caption', 'aria-hidden': 'true' }, c.diagrams[name]));
    }),
    caption ? h('figcaption', {}, caption) : null);
}

