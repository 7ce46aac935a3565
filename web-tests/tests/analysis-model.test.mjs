// Unit tests of the analysis board's state machine (assets/js/pages/analysis-model.js), in node
// without a browser or a server: messages in, the model and the effects out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  init, update, shown, lineEnd, onMainLine, mainLineNode, plies, moveNumber,
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
