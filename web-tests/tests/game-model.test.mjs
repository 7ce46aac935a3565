// Unit tests of the game page's state machine (assets/js/pages/game-model.js), in node without a
// browser or a server: messages in, the model and the effects out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  init, update, isMyTurn, boardMoves, displayed, clockLeft, abortIn, claimIn, headline, reason, AUTO_PASS_MS,
  premoveMoves, premoveCandidates, canOfferDraw, canAbort, moveSound, engineKept, ACCURACY_WAITS,
} from '../../crates/mabula-server/assets/js/pages/game-model.js';

const START = '1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w';
const AFTER = '1wbwbww1/b6b/b6w/w6b/bw5w/w6b/b6w/2bwbwb1 b';

/** A push as the server describes one. */
function push(number, side, from = 'b1', to = 'b4') {
  return {
    number, record_number: side === 'white' ? `${Math.ceil(number / 2)}.` : `${Math.ceil(number / 2)}...`,
    side, notation: `${from}-${to}`, from, to, slides: [[from, to]], position: AFTER,
  };
}

/** A game state with `n` moves played, White to move on even counts. */
function state(n, extra = {}) {
  const moves = Array.from({ length: n }, (_, i) => push(i + 1, i % 2 ? 'black' : 'white'));
  const toMove = n % 2 ? 'black' : 'white';
  return {
    id: 'g1', updated_at: 1000 + n, epoch: 0, start: START, position: n ? AFTER : START, moves,
    status: 'playing', to_move: toMove, must_pass: false, result: '*', winner: null, end_reason: null,
    legal_moves: [{ notation: 'c1-c3', from: 'c1', to: 'c3', slides: [['c1', 'c3']], position: AFTER }],
    scores: { largest: { white: 1, black: 0 }, product: { white: 1, black: 0 } },
    groups: { white: [['b4']], black: [] },
    settings: { mode: 'friend', scoring: 'largest', engine: null, pair_half: null },
    seats: { white: { kind: 'person', claimed: true, connected: true }, black: { kind: 'person', claimed: true, connected: true } },
    players: { white: { name: 'ann', rating: 1500, provisional: true, rating_diff: null }, black: { name: 'ben', rating: 1500, provisional: true, rating_diff: null } },
    rated: true, clock: null, spectators: 0, undo_offer: null, rematch: null, pair: null, hints: { white: 0, black: 0 },
    ...extra,
  };
}

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

const loaded = (st, you = ['white']) => ({ type: 'loaded', state: { ...st, you }, token: null, at: 0 });
const types = (effects) => effects.map((e) => e.type);

test('loading shows the game at once, connects, and offers the pushes on your turn', () => {
  const { model, effects } = run(init({ id: 'g1' }), loaded(state(2)));
  assert.deepEqual(model.seats, ['white']);
  assert.equal(isMyTurn(model), true);
  assert.deepEqual(boardMoves(model).map((m) => m.notation), ['c1-c3']);
  assert.deepEqual(model.shown, { count: 2, epoch: 0 }, 'the moves before loading are not rolled in');
  assert.ok(types(effects).includes('connect'));
  assert.ok(types(effects).includes('focusBoard'));
  assert.equal(model.flipped, false);
  assert.equal(run(init({ id: 'g1' }), loaded(state(2), ['black'])).model.flipped, true, 'Black sees the board turned');
});

test('an own push is shown and sent at once, and the board offers nothing until it is settled', () => {
  let { model } = run(init({ id: 'g1' }), loaded(state(2)));
  const move = model.state.legal_moves[0];
  let out = update(model, { type: 'play', move });
  model = out.model;
  assert.deepEqual(types(out.effects), ['animate', 'send']);
  assert.equal(out.effects[1].number, 3);
  assert.equal(boardMoves(model), null);
  assert.equal(displayed(model).position, move.position);
  // The server's answer comes while the marbles still roll; then they stop.
  ({ model } = run(model, { type: 'played', state: state(3), at: 5 }));
  assert.ok(model.optimistic, 'still shown ahead while rolling');
  ({ model } = run(model, { type: 'animated', purpose: 'own', count: 3, epoch: 0 }));
  assert.equal(model.optimistic, null);
  assert.equal(model.pending, false);
  assert.deepEqual(model.shown, { count: 3, epoch: 0 });
  // A second play while one is in flight does nothing.
  const busy = run(init({ id: 'g1' }), loaded(state(2)), { type: 'play', move }).model;
  assert.equal(update(busy, { type: 'play', move }).model, busy);
});

test('a refused move is taken back on the board, and a stale one asks for the state again', () => {
  let { model } = run(init({ id: 'g1' }), loaded(state(2)));
  ({ model } = run(model, { type: 'play', move: model.state.legal_moves[0] }));
  const out = update(model, { type: 'playFailed', error: { code: 'stale_state' } });
  assert.equal(out.model.optimistic, null);
  assert.equal(out.model.pending, false);
  assert.deepEqual(types(out.effects), ['toast', 'refetch']);
  const after = update(out.model, { type: 'animated', purpose: 'own', count: 3, epoch: 0 }).model;
  assert.deepEqual(after.shown, { count: 2, epoch: 0 }, 'the refused move does not count as shown');
});

test('moves from the server roll in one at a time; many at once, or an undo, make the board jump', () => {
  let { model } = run(init({ id: 'g1' }), loaded(state(2), []));
  let out = update(model, { type: 'server', msg: { type: 'move', state: state(4) }, at: 1 });
  model = out.model;
  assert.deepEqual(out.effects.filter((e) => e.type === 'animate').map((e) => e.count), [3]);
  out = update(model, { type: 'animated', purpose: 'live', count: 3, epoch: 0 });
  assert.deepEqual(out.effects.filter((e) => e.type === 'animate').map((e) => e.count), [4]);
  model = update(out.model, { type: 'animated', purpose: 'live', count: 4, epoch: 0 }).model;
  assert.deepEqual(model.shown, { count: 4, epoch: 0 });
  out = update(model, { type: 'server', msg: { type: 'sync', state: state(9) }, at: 2 });
  assert.equal(out.effects.filter((e) => e.type === 'animate').length, 0);
  assert.deepEqual(out.model.shown, { count: 9, epoch: 0 });
  out = update(out.model, { type: 'server', msg: { type: 'undo', state: { ...state(7), epoch: 1 } }, at: 3 });
  assert.deepEqual(out.model.shown, { count: 7, epoch: 1 });
  assert.ok(out.effects.some((e) => e.type === 'announce' && e.key === 'announce.undone'));
});

test('an older state is ignored, and a finished game never resumes without an undo', () => {
  let { model } = run(init({ id: 'g1' }), loaded(state(4)));
  assert.equal(update(model, { type: 'server', msg: { type: 'move', state: state(3) }, at: 1 }).model, model);
  const ended = state(4, { status: 'finished', to_move: null, result: '1-0', winner: 'white', end_reason: 'timeout_black', updated_at: 2000 });
  const out = update(model, { type: 'server', msg: { type: 'end', state: ended }, at: 2 });
  model = out.model;
  assert.ok(types(out.effects).includes('showEnd'));
  assert.deepEqual(out.effects.find((e) => e.type === 'playing'), { type: 'playing', id: null });
  // A stale copy that says "playing" with the same moves brings only the new ratings.
  const rated = state(4, { updated_at: 2000, players: { white: { name: 'ann', rating: 1500, provisional: true, rating_diff: 212 }, black: { name: 'ben', rating: 1500, provisional: true, rating_diff: -212 } } });
  model = update(model, { type: 'server', msg: { type: 'update', reason: 'rated', state: rated }, at: 3 }).model;
  assert.equal(model.state.status, 'finished');
  assert.equal(model.state.end_reason, 'timeout_black');
  assert.equal(model.state.players.white.rating_diff, 212);
  assert.deepEqual(headline(model), { key: 'end.youWin' });
  assert.deepEqual(reason(model.state), [{ key: 'end.timeout', args: { side: 'ben' } }]);
});

test('the running clock counts down from the state on arrival; the first moves wait with a deadline', () => {
  const clock = { control: { initial_s: 15, increment_s: 0 }, label: '15s+0', white_ms: 12000, black_ms: 15000, running: 'white', deadline: 5000, now: 1000 };
  let { model } = run(init({ id: 'g1' }), { ...loaded(state(2, { clock })), at: 100 });
  assert.equal(clockLeft(model, 'white', 1100), 11000);
  assert.equal(clockLeft(model, 'black', 1100), 15000, 'the other clock stands');
  assert.equal(clockLeft(model, 'white', 99999), 0, 'never below zero: the server flags');
  assert.equal(abortIn(model, 1100), null);
  const opening = { ...clock, white_ms: 15000, running: null, deadline: 31000, now: 1000 };
  ({ model } = run(init({ id: 'g1' }), { ...loaded(state(0, { clock: opening })), at: 500 }));
  assert.equal(abortIn(model, 2500), 28000);
  assert.equal(clockLeft(model, 'white', 2500), 15000, 'the first moves are not timed');
});

test('an opponent who leaves on their turn can be claimed against after 30 s, and not before', () => {
  const clock = { control: { initial_s: 180, increment_s: 2 }, label: '3+2', white_ms: 170000, black_ms: 175000, running: 'black', deadline: 99999, now: 1000 };
  const gone = { white: { kind: 'person', claimed: true, connected: true }, black: { kind: 'person', claimed: true, connected: false } };
  const here = { ...gone, black: { ...gone.black, connected: true } };
  let { model } = run(init({ id: 'g1' }), { ...loaded(state(3, { clock })), at: 0 });
  assert.equal(claimIn(model, 0), null, 'Black is here');
  ({ model } = run(model, { type: 'server', msg: { type: 'presence', seats: gone, spectators: 0 }, at: 1000 }));
  assert.equal(claimIn(model, 1000), 30000);
  assert.equal(claimIn(model, 40000), 0, 'claimable now');
  ({ model } = run(model, { type: 'server', msg: { type: 'presence', seats: here, spectators: 0 }, at: 2000 }));
  assert.equal(claimIn(model, 40000), null, 'back again');
  // Not on your own turn, not in an untimed game, not for a spectator.
  const mine = run(init({ id: 'g1' }), { ...loaded(state(4, { clock: { ...clock, running: 'white' }, seats: gone })), at: 0 }).model;
  assert.equal(claimIn(mine, 40000), null);
  const untimed = run(init({ id: 'g1' }), { ...loaded(state(3, { seats: gone })), at: 0 }).model;
  assert.equal(claimIn(untimed, 40000), null);
  const watcher = run(init({ id: 'g1' }), { ...loaded(state(3, { clock, seats: gone }), []), at: 0 }).model;
  assert.equal(claimIn(watcher, 40000), null);
  const ended = { ...state(3, { clock }), status: 'finished', end_reason: 'abandoned_black', winner: 'white', result: '1-0' };
  assert.deepEqual(reason(ended), [{ key: 'end.abandoned', args: { side: 'ben' } }]);
});

test('low time is said once per turn, only to the player whose clock runs', () => {
  const clock = { control: { initial_s: 15, increment_s: 0 }, label: '15s+0', white_ms: 6000, black_ms: 15000, running: 'white', deadline: null, now: 0 };
  let { model } = run(init({ id: 'g1' }), loaded(state(2, { clock })));
  let out = update(model, { type: 'clockTick', at: 500 });
  assert.equal(out.model, model, 'above five seconds nothing is said');
  out = update(model, { type: 'clockTick', at: 1500 });
  assert.deepEqual(types(out.effects), ['announceLow']);
  assert.equal(update(out.model, { type: 'clockTick', at: 2000 }).effects.length, 0);
  const spectator = run(init({ id: 'g1' }), loaded(state(2, { clock }), [])).model;
  assert.equal(update(spectator, { type: 'clockTick', at: 1500 }).effects.length, 0);
});

test('a typed move is checked before it is played', () => {
  const { model } = run(init({ id: 'g1' }), loaded(state(2)));
  assert.equal(update(model, { type: 'typed', text: 'b1b4' }).model.notationError.key, 'game.notation.bad');
  assert.equal(update(model, { type: 'typed', text: 'a2-a5' }).model.notationError.key, 'game.notation.illegal');
  const played = update(model, { type: 'typed', text: ' C1-C3 ' });
  assert.deepEqual(types(played.effects), ['clearNotation', 'animate', 'send']);
  const theirs = run(init({ id: 'g1' }), loaded(state(3))).model;
  assert.equal(update(theirs, { type: 'typed', text: 'c1-c3' }).model.notationError.key, 'game.notation.notYourTurn');
});

test('looking back: one step forward rolls the marbles, the last move is the live view again', () => {
  let { model } = run(init({ id: 'g1' }), loaded(state(4)));
  ({ model } = run(model, { type: 'view', view: 1 }));
  assert.equal(model.view, 1);
  assert.equal(boardMoves(model), null, 'no pushes while looking back');
  const out = update(model, { type: 'step', by: 1 });
  assert.deepEqual(out.effects.map((e) => [e.type, e.purpose, e.count]), [['animate', 'view', 2]]);
  model = update(out.model, { type: 'animated', purpose: 'view', count: 2 }).model;
  assert.equal(run(model, { type: 'view', view: 4 }).model.view, null);
  assert.equal(run(init({ id: 'g1', replay: true }), loaded(state(4)), { type: 'view', view: 4 }).model.view, 4, 'a replay stays on its last move');
});

test('the clocks tick while one runs: the model asks for the timer and for its end', () => {
  const clock = { control: { initial_s: 60, increment_s: 0 }, label: '1+0', white_ms: 60000, black_ms: 60000, running: 'white', deadline: null, now: 0 };
  const { model, effects } = run(init({ id: 'g1' }), loaded(state(2, { clock })));
  assert.deepEqual(effects.filter((e) => e.type === 'ticking'), [{ type: 'ticking', on: true }]);
  assert.equal(update(model, { type: 'clockTick', at: 100 }).effects.length, 0, 'asked for once');
  const over = { ...state(3, { clock: { ...clock, running: null } }), status: 'finished', end_reason: 'resigned_black', winner: 'white', result: '1-0' };
  const ended = update(model, { type: 'server', msg: { type: 'end', state: over }, at: 200 });
  assert.ok(ended.effects.some((e) => e.type === 'ticking' && !e.on));
  assert.equal(ended.model.ticking, false);
});

test('a forced pass is played by itself once its timer fires, with the setting on', () => {
  const pass = { notation: 'pass', from: null, to: null, slides: [], position: AFTER };
  const forced = state(2, { must_pass: true, legal_moves: [pass] });
  const off = run(init({ id: 'g1' }), loaded(forced));
  assert.ok(!off.effects.some((e) => e.type === 'autoPassTimer'), 'not without the setting');
  let { model, effects } = run(off.model, { type: 'autoPass', on: true });
  assert.deepEqual(effects, [{ type: 'saveAutoPass', on: true }, { type: 'autoPassTimer', turn: '2|0', ms: AUTO_PASS_MS }]);
  ({ model, effects } = run(model, { type: 'preview', move: null }));
  assert.equal(effects.length, 0, 'scheduled once per turn');
  ({ model, effects } = run(model, { type: 'autoPassDue', turn: '2|0' }));
  assert.deepEqual(effects, [{ type: 'send', move: 'pass', number: 3 }]);
  assert.equal(model.pending, true);
});

test('a forced pass is not played when the turn has passed, or while the player looks back', () => {
  const pass = { notation: 'pass', from: null, to: null, slides: [], position: AFTER };
  const forced = state(2, { must_pass: true, legal_moves: [pass] });
  let { model } = run(init({ id: 'g1', autoPass: true }), loaded(forced));
  assert.equal(model.autoPassTurn, '2|0');
  // Looking back when the timer fires: nothing is played; back at the live view, it is scheduled anew.
  ({ model } = run(model, { type: 'view', view: 0 }));
  let out = update(model, { type: 'autoPassDue', turn: '2|0' });
  assert.ok(!out.effects.some((e) => e.type === 'send'));
  out = update(out.model, { type: 'view', view: null });
  assert.ok(out.effects.some((e) => e.type === 'autoPassTimer' && e.turn === '2|0'));
  // The setting turned off before the timer fires.
  out = run(out.model, { type: 'autoPass', on: false }, { type: 'autoPassDue', turn: '2|0' });
  assert.ok(!out.effects.some((e) => e.type === 'send'));
  // The turn moved on (the pass was played from another screen): the timer is called off.
  ({ model } = run(init({ id: 'g1', autoPass: true }), loaded(forced)));
  out = update(model, { type: 'server', msg: { type: 'move', state: state(3) }, at: 0 });
  assert.ok(out.effects.some((e) => e.type === 'autoPassTimer' && e.turn === null));
  assert.equal(update(out.model, { type: 'autoPassDue', turn: '2|0' }).effects.length, 0);
});

// ---- Playing together (issue 36) -------------------------------------------------------------

test('the answer to the final move, arriving after the ratings on the socket, does not hide them', () => {
  const ended = { status: 'finished', to_move: null, result: '1-0', winner: 'white', end_reason: 'no_moves', updated_at: 2000 };
  let { model } = run(init({ id: 'g1' }), loaded(state(4, { version: 4 })));
  // The socket brings the final move, then the ratings (one version later, same moves and time).
  const final = state(5, { ...ended, version: 5 });
  const diffs = { white: { name: 'ann', rating: 1500, provisional: true, rating_diff: 212 }, black: { name: 'ben', rating: 1500, provisional: true, rating_diff: -212 } };
  model = run(model,
    { type: 'server', msg: { type: 'end', state: final }, at: 1 },
    { type: 'server', msg: { type: 'update', reason: 'rated', state: { ...final, version: 6, players: diffs } }, at: 2 },
    // Then the HTTP answer to the move, made before the rating.
    { type: 'played', state: final, at: 3 }).model;
  assert.equal(model.state.version, 6);
  assert.equal(model.state.players.white.rating_diff, 212);
});

test('a premove chosen on the opponent’s turn is sent once their move has been shown, if legal then', () => {
  // Black's page, White to move: the board offers Black's edge marbles as premoves, no real move.
  let { model } = run(init({ id: 'g1' }), loaded(state(2), ['black']));
  assert.equal(boardMoves(model), null);
  const offered = premoveMoves(model);
  assert.ok(offered && offered.length > 0);
  assert.ok(offered.every((mv) => /^[a-h][18]-|^[ah][1-8]-/.test(mv.notation)), 'from edge spaces only');
  const choice = offered.find((mv) => mv.notation === 'c8-c7') || offered[0];
  let out = update(model, { type: 'play', move: choice });
  model = out.model;
  assert.equal(model.premove.notation, choice.notation);
  assert.ok(!types(out.effects).includes('send'), 'nothing is sent on the opponent’s turn');
  assert.ok(out.effects.some((e) => e.type === 'announce' && e.key === 'play.premoveSet'));
  assert.equal(premoveMoves(model), null, 'one premove at a time');
  // White's move arrives: it rolls in first; then the premove, legal now, is played.
  const legal = { notation: choice.notation, from: choice.from, to: choice.to, slides: [[choice.from, choice.to]], position: AFTER };
  out = update(model, { type: 'server', msg: { type: 'move', state: state(3, { legal_moves: [legal] }) }, at: 1 });
  model = out.model;
  assert.ok(model.animating);
  assert.ok(!types(out.effects).includes('send'));
  out = update(model, { type: 'animated', purpose: 'live', count: 3, epoch: 0 });
  assert.deepEqual(out.effects.find((e) => e.type === 'send'), { type: 'send', move: choice.notation, number: 4 });
  assert.equal(out.model.premove, null);
});

test('a premove that is not legal after the opponent’s move is dropped with a notice; Escape or a click cancels one', () => {
  let { model } = run(init({ id: 'g1' }), loaded(state(2), ['black']));
  const choice = premoveMoves(model)[0];
  model = update(model, { type: 'play', move: choice }).model;
  let out = update(model, { type: 'server', msg: { type: 'move', state: state(3) }, at: 1 });
  out = update(out.model, { type: 'animated', purpose: 'live', count: 3, epoch: 0 });
  assert.equal(out.model.premove, null);
  assert.ok(!types(out.effects).includes('send'));
  assert.ok(out.effects.some((e) => e.type === 'toast' && e.key === 'play.premoveDropped'));
  // Cancelled before the opponent moves: nothing is sent.
  ({ model } = run(init({ id: 'g1' }), loaded(state(2), ['black'])));
  model = update(model, { type: 'play', move: choice }).model;
  out = update(model, { type: 'cancelPremove' });
  assert.equal(out.model.premove, null);
  assert.ok(out.effects.some((e) => e.type === 'announce' && e.key === 'play.premoveCancelled'));
  // No premoves against the engine or at one screen, nor on one's own turn.
  const engine = state(2, { settings: { mode: 'engine', scoring: 'largest', engine: { color: 'white', level: 1 }, pair_half: null } });
  engine.seats.white.kind = 'engine';
  assert.equal(premoveMoves(run(init({ id: 'g1' }), loaded(engine, ['black'])).model), null);
  assert.equal(premoveMoves(run(init({ id: 'g1' }), loaded(state(2), ['white'])).model), null);
  assert.ok(premoveCandidates(state(0), 'white').length > 0);
});

test('draw offers and the abort are offered only where the server allows them', () => {
  const { model } = run(init({ id: 'g1' }), loaded(state(1), ['white']));
  assert.equal(canOfferDraw(model), true);
  assert.equal(canAbort(model), true, 'before each side has moved');
  assert.equal(canAbort(run(init({ id: 'g1' }), loaded(state(2))).model), false);
  // A tournament game has no abort button (issue 52): only a missed first move calls it off.
  const tournament = state(1, { settings: { mode: 'friend', scoring: 'largest', engine: null, pair_half: null, tournament: 't1' } });
  assert.equal(canAbort(run(init({ id: 'g1' }), loaded(tournament, ['white'])).model), false);
  const local = state(1, { settings: { mode: 'local', scoring: 'largest', engine: null, pair_half: null } });
  assert.equal(canOfferDraw(run(init({ id: 'g1' }), loaded(local, ['white', 'black'])).model), false);
  // A draw offered to us is said aloud.
  const out = update(model, { type: 'server', msg: { type: 'update', reason: 'draw_offered', state: state(1, { draw_offer: 'black', version: 9 }) }, at: 1 });
  assert.ok(out.effects.some((e) => e.type === 'announce' && e.key === 'play.drawOfferedToYou'));
  const agreed = state(2, { status: 'finished', to_move: null, result: '1/2-1/2', end_reason: 'draw_agreed' });
  assert.deepEqual(reason(agreed), [{ key: 'play.drawAgreed' }]);
});

test('sounds: a move, the lead taken, the end, and low time once a game', () => {
  const base = state(2);
  const scores = (w, b) => ({ largest: { white: w, black: b }, product: { white: w, black: b } });
  assert.equal(moveSound(state(2, { scores: scores(2, 2) }), state(3, { scores: scores(2, 2) })), 'move');
  // White's move (the third is White's) makes White's largest group the larger: the lead.
  assert.equal(moveSound(state(2, { scores: scores(2, 3) }), state(3, { scores: scores(4, 3) })), 'lead');
  assert.equal(moveSound(state(2, { scores: scores(5, 1) }), state(3, { scores: scores(6, 1) })), 'move', 'a lead kept is no lead taken');
  assert.equal(moveSound(base, base), null);
  let { model } = run(init({ id: 'g1' }), loaded(base));
  let out = update(model, { type: 'server', msg: { type: 'move', state: state(3) }, at: 1 });
  assert.deepEqual(out.effects.filter((e) => e.type === 'sound'), [{ type: 'sound', kind: 'move' }]);
  const ended = state(3, { status: 'finished', to_move: null, result: '1-0', winner: 'white', end_reason: 'no_moves' });
  out = update(model, { type: 'server', msg: { type: 'end', state: ended }, at: 1 });
  assert.deepEqual(out.effects.filter((e) => e.type === 'sound'), [{ type: 'sound', kind: 'end' }]);
  // A 5-minute clock: the sound under 10 seconds, once.
  const clock = { control: { initial_s: 300, increment_s: 0 }, label: '5+0', white_ms: 12000, black_ms: 15000, running: 'white', deadline: null, now: 0 };
  const lowSound = (effects) => effects.some((e) => (e.type === 'sound' && e.kind === 'low') || (e.type === 'announceLow' && e.sound));
  ({ model } = run(init({ id: 'g1' }), loaded(state(2, { clock }))));
  out = update(model, { type: 'clockTick', at: 1000 });
  assert.ok(!lowSound(out.effects), 'said (under 20 s) but not sounded at 11 s');
  out = update(out.model, { type: 'clockTick', at: 2500 });
  assert.deepEqual(out.effects, [{ type: 'sound', kind: 'low' }]);
  assert.ok(!lowSound(update(out.model, { type: 'clockTick', at: 3000 }).effects), 'once');
  // A 15-second clock: sounded with the low-time notice, at 5 seconds.
  const short = { ...clock, control: { initial_s: 15, increment_s: 0 }, label: '15s+0', white_ms: 6000 };
  ({ model } = run(init({ id: 'g1' }), loaded(state(2, { clock: short }))));
  assert.equal(update(model, { type: 'clockTick', at: 1500 }).effects.find((e) => e.type === 'announceLow').sound, true);
});

test('a live rated game asks the engine nothing until it is over (fair play)', () => {
  const live = state(2);
  assert.equal(engineKept(live), true);
  assert.equal(engineKept({ ...live, rated: false }), false);
  const { model, effects } = run(init({ id: 'g1' }), loaded(live));
  assert.ok(!types(effects).includes('estimateDeal'), 'no estimate of the deal while it is played');
  const over = { ...state(2), updated_at: 2000, status: 'finished', to_move: null, result: '1-0', winner: 'white', end_reason: 'resigned_black' };
  assert.equal(engineKept(over), false);
  const after = run(model, { type: 'server', msg: { type: 'end', result: '1-0', winner: 'white', reason: 'resigned_black', state: over }, at: 10 });
  assert.ok(types(after.effects).includes('estimateDeal'), 'the estimate once it is over');
  // A casual game asks at once.
  const casual = run(init({ id: 'g1' }), loaded({ ...live, rated: false }));
  assert.ok(types(casual.effects).includes('estimateDeal'));
});

test('a finished rated game asks for the accuracy until the server has it, and keeps it (issue 51)', () => {
  const over = { status: 'finished', to_move: null, result: '1-0', winner: 'white', end_reason: 'resigned_black' };
  const ann = { name: 'ann', rating: 1500, provisional: true, rating_diff: 9 };
  const ben = { name: 'ben', rating: 1500, provisional: true, rating_diff: -9 };
  const accuracy = { white: { percent: 87, moves: 31, kept: 27 }, black: { percent: 54, moves: 30, kept: 16 } };
  const analysed = state(4, { ...over, players: { white: { ...ann, accuracy: accuracy.white }, black: { ...ben, accuracy: accuracy.black } } });
  // Loaded before the analysis: asked for after the first wait; an answer without it asks again
  // later, up to the last wait.
  let { model, effects } = run(init({ id: 'g1' }), loaded(state(4, over)));
  assert.deepEqual(effects.filter((e) => e.type === 'fetchAccuracy'), [{ type: 'fetchAccuracy', ms: ACCURACY_WAITS[0] }]);
  ({ model, effects } = run(model, { type: 'accuracy', state: state(4, over) }, { type: 'accuracy', state: null }));
  assert.deepEqual(effects.map((e) => e.ms), ACCURACY_WAITS.slice(1, 3));
  assert.equal(model.accuracy, null);
  // Once there, it is kept, also when the socket sends a state without it.
  ({ model, effects } = run(model, { type: 'accuracy', state: analysed }));
  assert.deepEqual(model.accuracy, accuracy);
  assert.deepEqual(effects, []);
  ({ model } = run(model, { type: 'server', msg: { type: 'update', state: state(4, { ...over, updated_at: 2000 }) }, at: 1 }));
  assert.deepEqual(model.accuracy, accuracy);
  // Loaded after the analysis: shown at once, nothing asked; a game being played or a casual
  // game asks for none.
  ({ model, effects } = run(init({ id: 'g1' }), loaded(analysed)));
  assert.deepEqual(model.accuracy, accuracy);
  assert.ok(!types(effects).includes('fetchAccuracy'));
  for (const st of [state(4), state(4, { ...over, rated: false })]) {
    ({ model, effects } = run(init({ id: 'g1' }), loaded(st)));
    assert.equal(model.accuracy, null);
    assert.ok(!types(effects).includes('fetchAccuracy'));
  }
});
