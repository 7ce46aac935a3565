// Unit tests of the analysis board's state machine (assets/js/pages/analysis-model.js), in node
// without a browser or a server: messages in, the model and the effects out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  init, update, shown, lineEnd, onMainLine, mainLineNode, plies, moveNumber, keyMessage, writeLink, readLink, graphCounts,
} from '../../crates/mabula-server/assets/js/pages/analysis-model.js';

const START = '1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w';
const BLACK_FIRST = '1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 b';

/** A move as the server describes one, to the made-up position `p{n}`. */
const mv = (n, from = 'b1', to = 'b4') => ({ notation: `${from}-${to}`, from, to, position: `p${n}` });

/** Applies messages one after another; answers the last model and every effect. */
function run(model, ...messages) {
  const effects = [];
  for (const msg of messages) {
    const out = update(model, msg);
    model = out.model;
    effects.push(...out.effects);
  }
  return { model, effects };
}

const types = (effects) => effects.map((e) => e.type);
const game = (n = 4) => ({ type: 'loaded', start: START, moves: Array.from({ length: n }, (_, i) => mv(i + 1)), scoring: 'largest', record: 'the record' });
const analysis = (done, white = 0.5) => ({ white, done, moves: [], step: 1, playouts: 10, elapsed_ms: 5, verdict: null });

test('a loaded game is its main line, shown from the start, with its analysis and graph asked for', () => {
  const { model, effects } = run(init(), game(4));
  assert.equal(plies(model), 4);
  assert.equal(shown(model).ply, 0);
  assert.equal(mainLineNode(model, 3).position, 'p3');
  assert.equal(mainLineNode(model, 9), null);
  assert.deepEqual(effects, [
    { type: 'analyse', id: model.root, position: START, scoring: 'largest' },
    { type: 'legal', id: model.root, position: START },
    { type: 'analyseGame', which: 'main', scoring: 'largest', record: 'the record' },
  ]);
  const alone = run(init(), { type: 'loaded', start: START, scoring: 'product' });
  assert.equal(alone.model.record, null);
  assert.ok(!types(alone.effects).includes('analyseGame'), 'no graph for a position alone');
});

test('stepping through the moves stops the shown position\'s stream once its analysis is complete', () => {
  let { model } = run(init(), game(4));
  let out = update(model, { type: 'next' });
  assert.equal(shown(out.model).ply, 1);
  assert.deepEqual(types(out.effects), ['analyse', 'legal']);
  ({ model } = run(out.model, { type: 'legal', id: out.model.current, moves: [] }, { type: 'analysis', id: out.model.current, analysis: analysis(true) }));
  out = update(model, { type: 'first' });
  assert.equal(shown(out.model).ply, 0);
  assert.equal(out.effects[0].id, model.root, 'the start is analysed again: its analysis never completed');
  // Back on move 1, whose analysis is complete and legal moves known: nothing is asked, the stream stops.
  out = update(out.model, { type: 'next' });
  assert.deepEqual(out.effects, [{ type: 'analyse', id: null }]);
  assert.equal(shown(update(model, { type: 'last' }).model).ply, 4);
  assert.equal(update(run(init(), game(4)).model, { type: 'prev' }).effects.length, 0, 'nothing before the start');
});

test('a move tried on the board makes a variation once; playing it again goes there', () => {
  let { model } = run(init(), game(4), { type: 'next' });
  const alt = mv(9, 'c1', 'c3');
  let out = update(model, { type: 'play', move: alt });
  assert.equal(out.effects[0].type, 'announce');
  model = out.model;
  const variation = model.current;
  assert.equal(shown(model).ply, 2);
  assert.equal(onMainLine(model, variation), false);
  assert.equal(plies(model), 4, 'the main line is unchanged');
  assert.equal(lineEnd(model, variation).id, variation);
  ({ model } = run(model, { type: 'prev' }));
  out = update(model, { type: 'play', move: alt });
  assert.equal(out.model.current, variation);
  assert.ok(!types(out.effects).includes('announce'));
  // The game's own next move is its main line, not a new variation.
  out = update(model, { type: 'play', move: mv(2) });
  assert.equal(onMainLine(out.model, out.model.current), true);
});

test('a move of the engine\'s list is played only when it is a legal move of the shown position', () => {
  let { model } = run(init(), game(2));
  assert.equal(update(model, { type: 'lineMove', notation: 'c1-c3' }).model, model);
  ({ model } = run(model, { type: 'legal', id: model.root, moves: [mv(7, 'c1', 'c3')] }));
  const out = update(model, { type: 'lineMove', notation: 'c1-c3' });
  assert.equal(shown(out.model).position, 'p7');
});

test('the game\'s analysis fills the graph point by point and lends each main-line node its analysis', () => {
  let { model } = run(init(), game(2));
  ({ model } = run(model, { type: 'gamePosition', which: 'main', index: 1, analysis: analysis(false, 0.7) }));
  assert.equal(model.graph.main.values[1], 0.7);
  assert.equal(model.graph.main.values.filter((v) => typeof v === 'number').length, 1);
  assert.equal(model.analysis[mainLineNode(model, 1).id].white, 0.7);
  // A complete analysis of the node is kept over the game's.
  const first = mainLineNode(model, 2).id;
  ({ model } = run(model, { type: 'analysis', id: first, analysis: analysis(true, 0.9) }, { type: 'gamePosition', which: 'main', index: 2, analysis: analysis(false, 0.2) }));
  assert.equal(model.analysis[first].white, 0.9);
  ({ model } = run(model, { type: 'gameDone', which: 'main', values: [0.5, 0.7, 0.2], notes: [], counts: null }));
  assert.equal(model.graph.main.done, true);
  // The other scoring's graph is asked for the first time it is shown.
  let out = update(model, { type: 'other', on: true });
  assert.deepEqual(out.effects, [{ type: 'analyseGame', which: 'other', scoring: 'product', record: 'the record' }]);
  out = run(out.model, { type: 'gameDone', which: 'other', values: [0.5], notes: [], counts: null }, { type: 'other', on: false }, { type: 'other', on: true });
  assert.equal(out.effects.length, 0);
});

test('a click on the graph goes to that move of the main line, within its ends', () => {
  const { model } = run(init(), game(4));
  assert.equal(shown(update(model, { type: 'ply', index: 3 }).model).ply, 3);
  assert.equal(shown(update(model, { type: 'ply', index: 99 }).model).ply, 4);
  assert.equal(shown(update(model, { type: 'ply', index: -5 }).model).ply, 0);
});

test('a failed stream is said for the shown node only, and forgotten when another is shown', () => {
  let { model } = run(init(), game(2));
  ({ model } = run(model, { type: 'analysisFailed', id: model.root, error: { code: 'busy' } }));
  assert.deepEqual(model.engineError, { code: 'busy' });
  ({ model } = run(model, { type: 'next' }));
  assert.equal(model.engineError, null);
  assert.equal(update(model, { type: 'analysisFailed', id: model.root, error: { code: 'busy' } }).model, model);
  assert.ok(run(init(), { type: 'failed', error: { code: 'game_not_found' } }).model.failure);
});

test('moves are numbered as the record numbers them, also when Black begins', () => {
  const white = run(init(), game(2)).model;
  assert.deepEqual(moveNumber(white, 1), { num: 1, white: true });
  assert.deepEqual(moveNumber(white, 2), { num: 1, white: false });
  const black = run(init(), { ...game(2), start: BLACK_FIRST }).model;
  assert.deepEqual(moveNumber(black, 1), { num: 1, white: false });
  assert.deepEqual(moveNumber(black, 2), { num: 2, white: true });
});

test('the keys step along the line, to its ends and between variations, each step announced', () => {
  let { model } = run(init(), game(4), { type: 'next' });
  // Two moves tried instead of the game's second move.
  ({ model } = run(model, { type: 'play', move: mv(8, 'c1', 'c3') }, { type: 'prev' }, { type: 'play', move: mv(9, 'd1', 'd3') }, { type: 'first' }));
  const key = (k) => {
    const msg = keyMessage(k);
    assert.ok(msg, k);
    const out = update(model, msg);
    model = out.model;
    return out.effects;
  };
  assert.equal(keyMessage('a'), null);
  assert.deepEqual(key('ArrowRight')[0], { type: 'announceNode', id: model.current });
  assert.equal(shown(model).ply, 1);
  key('ArrowRight');
  assert.equal(shown(model).position, 'p2', 'Right follows the main line');
  key('ArrowDown');
  assert.equal(shown(model).position, 'p8', 'Down goes to the next move tried in its place');
  key('ArrowDown');
  assert.equal(shown(model).position, 'p9');
  assert.deepEqual(key('ArrowDown'), [], 'nothing below the last variation, and nothing said');
  key('ArrowUp');
  key('ArrowUp');
  assert.equal(shown(model).position, 'p2');
  assert.deepEqual(key('ArrowUp'), []);
  key('End');
  assert.equal(shown(model).ply, 4);
  assert.deepEqual(key('ArrowRight'), [], 'nothing after the end');
  key('ArrowLeft');
  assert.equal(shown(model).ply, 3);
  key('Home');
  assert.equal(model.current, model.root);
  assert.deepEqual(key('ArrowLeft'), []);
  // Clicks and buttons move without announcing.
  assert.ok(!types(update(model, { type: 'next' }).effects).includes('announceNode'));
});

/** A game with a variation tree: 4 moves, c1-c3 and d1-d3 (then e1-e3) instead of move 2. */
function treeGame() {
  let { model } = run(init(), game(4), { type: 'next' });
  ({ model } = run(model, { type: 'play', move: mv(8, 'c1', 'c3') }, { type: 'prev' }, { type: 'play', move: mv(9, 'd1', 'd3') }, { type: 'play', move: mv(10, 'e1', 'e3') }));
  return model;
}

test('the tree and the node shown are written as a link, PGN-like with four characters a move', () => {
  const model = treeGame();
  assert.equal(writeLink(model), 'v=b1b4b1b4(c1c3)(d1d3e1e3)b1b4b1b4&at=5');
  assert.equal(writeLink(run(init(), game(0)).model), '', 'nothing to keep');
  const parsed = readLink(`#${writeLink(model)}`);
  assert.deepEqual(parsed.entries.map((e) => [e.notation, e.parent]), [
    ['b1-b4', 0], ['b1-b4', 1], ['c1-c3', 1], ['d1-d3', 1], ['e1-e3', 4], ['b1-b4', 2], ['b1-b4', 6],
  ]);
  assert.equal(parsed.at, 5);
  assert.deepEqual(readLink('v=passb1b4&at=0').entries.map((e) => e.notation), ['pass', 'b1-b4']);
  // Nested variations: a variation of a variation's first move.
  assert.deepEqual(readLink('v=a1a3(b1b3(c1c3)d8d6)&at=0').entries.map((e) => e.parent), [0, 0, 0, 2]);
});

test('a malformed link is refused as a whole', () => {
  for (const bad of ['v=b1b(&at=0', 'v=(b1b4)&at=0', 'v=b1b4()&at=0', 'v=b1b4(c1c3&at=0', 'v=b1b4)&at=0',
    'v=b1b4&at=2', 'v=b1b4&at=-1', 'v=z9z9&at=0', 'v=b1-b4&at=0', `v=${'b1b4'.repeat(1001)}&at=0`]) {
    assert.equal(readLink(bad), null, bad);
  }
});

test('a link\'s variations are restored as their parents\' legal moves arrive, then its node shown', () => {
  const link = `#${writeLink(treeGame())}`;
  let { model, effects } = run(init(), { ...game(4), link });
  assert.ok(model.restoring, 'the variations wait for the legal moves of move 1');
  const first = mainLineNode(model, 1).id;
  assert.deepEqual(effects.filter((e) => e.type === 'legal'), [{ type: 'legal', id: first, position: 'p1' }]);
  assert.ok(types(effects).includes('analyseGame'), 'the graph does not wait');
  ({ model, effects } = run(model, { type: 'legal', id: first, moves: [mv(2), mv(8, 'c1', 'c3'), mv(9, 'd1', 'd3')] }));
  // d1-d3 is in the tree; e1-e3 after it needs d1-d3's legal moves.
  const d = model.nodes[first].children.find((c) => model.nodes[c].position === 'p9');
  assert.deepEqual(effects, [{ type: 'legal', id: d, position: 'p9' }]);
  ({ model, effects } = run(model, { type: 'legal', id: d, moves: [mv(10, 'e1', 'e3')] }));
  assert.equal(model.restoring, null);
  assert.equal(shown(model).position, 'p10', 'the node the link was at');
  assert.equal(model.linkBroken, false);
  assert.equal(writeLink(model), link.slice(1), 'the same link again');
  assert.equal(types(effects)[0], 'analyse');
});

test('a link with a move that is not legal keeps the rest and says it is broken', () => {
  let { model } = run(init(), { type: 'loaded', start: START, scoring: 'largest', link: '#v=b1b4c1c3(d1d3)&at=2' });
  ({ model } = run(model, { type: 'legal', id: model.root, moves: [mv(1)] }));
  const b = model.nodes[model.root].children[0];
  ({ model } = run(model, { type: 'legal', id: b, moves: [mv(2, 'd1', 'd3')] }));
  assert.equal(model.restoring, null);
  assert.equal(model.linkBroken, true);
  assert.deepEqual(model.nodes[b].children.map((c) => model.nodes[c].move.notation), ['d1-d3']);
  assert.equal(model.current, model.root, 'the node it was at is gone: the start is shown');
  // A link that cannot be read at all: the game alone, and the notice.
  const bad = run(init(), { ...game(2), link: '#v=(((&at=0' }).model;
  assert.equal(bad.linkBroken, true);
  assert.equal(bad.restoring, null);
  assert.equal(plies(bad), 2);
});

test('the quick pass fills the graph first, and the full analyses replace its values, never the other way', () => {
  let { model } = run(init(), game(2));
  const quick = (index, white) => ({ type: 'gamePosition', which: 'main', index, analysis: analysis(false, white), quick: true });
  const deep = (index, white) => ({ type: 'gamePosition', which: 'main', index, analysis: analysis(true, white) });
  ({ model } = run(model, quick(0, 0.5), quick(1, 0.6), quick(2, 0.4)));
  assert.deepEqual(graphCounts(model.graph.main), { known: 3, deep: 0 });
  assert.equal(model.analysis[mainLineNode(model, 1).id].white, 0.6, 'the board shows the quick value meanwhile');
  ({ model } = run(model, deep(1, 0.8)));
  assert.deepEqual(model.graph.main.values, [0.5, 0.8, 0.4]);
  assert.deepEqual(graphCounts(model.graph.main), { known: 3, deep: 1 });
  assert.equal(model.analysis[mainLineNode(model, 1).id].white, 0.8);
  // A late quick value does not undo a full one.
  assert.equal(update(model, quick(1, 0.1)).model, model);
});
