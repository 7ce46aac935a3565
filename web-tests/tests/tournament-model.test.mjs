// Unit tests of the tournament page's state machine (assets/js/pages/tournament-model.js), in node
// without a browser or a server: messages in, the model and the effects out; and the creation
// form's checks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  init, update, countdown, countdownText, phase, joined, canJoin, canStart, myGames, myPairing, podium,
  roundsLatestFirst, changes, createBody, errorField, tiebreakText,
} from '../../crates/mabula-server/assets/js/pages/tournament-model.js';

const NOW = 1_800_000_000_000;

/** A tournament as `GET /api/tournaments/{id}` describes one. */
function tour(extra = {}) {
  return {
    id: 't1', name: 'Sunday Swiss', status: 'created',
    settings: { format: 'swiss', scoring: 'largest', clock: { initial_s: 180, increment_s: 2 }, label: '3+2', rounds: 2, minutes: null, duplicate: true, sequential: false, rated: true, min_rating: null, password: false },
    starts_at: NOW + 90_000, ends_at: null, created_by: 'alice', round: 0, standings: [], rounds: [], version: 1,
    ...extra,
  };
}

const standing = (rank, name, points, extra = {}) => ({ rank, name, rating: 1500, points, tiebreaks: [0, 0], played: 0, streak: false, withdrawn: false, ...extra });

/** Applies messages one after another; answers the last model and every effect. */
function run(model, ...msgs) {
  const effects = [];
  for (const msg of msgs) {
    const out = update(model, msg);
    model = out.model;
    effects.push(...out.effects);
  }
  return { model, effects };
}

test('the page starts by reading the tournament, opening its socket and a one-second timer', () => {
  const { effects } = run(init({ id: 't1', me: 'bob', now: NOW }), { type: 'start' });
  assert.deepEqual(effects.map((e) => e.type), ['load', 'connect', 'every']);
  assert.equal(effects[2].ms, 1000);
});

test('before the start: the countdown runs, a player may join, the creator may start', () => {
  const bob = run(init({ id: 't1', me: 'bob', now: NOW }), { type: 'tournament', tournament: tour() }).model;
  assert.deepEqual(countdown(bob), { key: 'tour.startsIn', ms: 90_000 });
  assert.equal(countdownText(90_000), '1:30');
  assert.equal(countdownText(3_723_000), '1:02:03');
  assert.equal(countdownText(90_061_000), '1 d 01:01:01');
  assert.deepEqual(phase(bob), { key: 'tour.upcoming' });
  assert.ok(canJoin(bob));
  assert.ok(!canStart(bob));
  const alice = run(init({ id: 't1', me: 'Alice', now: NOW }), { type: 'tournament', tournament: tour() }).model;
  assert.ok(canStart(alice), 'names are compared ignoring case');
  // The timer moves the countdown; a passed start says it is starting.
  const later = run(bob, { type: 'tick', now: NOW + 30_000 }).model;
  assert.equal(countdown(later).ms, 60_000);
  assert.deepEqual(phase(run(bob, { type: 'tick', now: NOW + 100_000 }).model), { key: 'tour.startingNow' });
  // A guest may not join: the page asks for a log-in.
  const guest = run(init({ id: 't1', now: NOW }), { type: 'tournament', tournament: tour() });
  assert.ok(!canJoin(guest.model));
  assert.deepEqual(run(guest.model, { type: 'join' }).effects, [{ type: 'login' }]);
});

test('join, withdraw and start: one request at a time, a refusal kept for its button', () => {
  let m = run(init({ id: 't1', me: 'bob', now: NOW }), { type: 'tournament', tournament: tour() }).model;
  let out = run(m, { type: 'join', password: 'secret' });
  assert.deepEqual(out.effects, [{ type: 'join', password: 'secret' }]);
  assert.equal(out.model.busy, 'join');
  assert.deepEqual(run(out.model, { type: 'withdraw' }).effects, [], 'a second click waits for the first');
  const refused = run(out.model, { type: 'refused', action: 'join', error: { code: 'wrong_password' } }).model;
  assert.equal(refused.busy, null);
  assert.deepEqual(refused.refused, { action: 'join', error: { code: 'wrong_password' } });
  // Success: the answer's tournament is fed back, or the tournament read again.
  out = run(out.model, { type: 'done', action: 'join', tournament: null });
  assert.deepEqual(out.effects, [{ type: 'announce', key: 'tour.said.join' }, { type: 'load' }]);
  m = run(out.model, { type: 'tournament', tournament: tour({ version: 2, standings: [standing(1, 'bob', 0)] }) }).model;
  assert.ok(joined(m));
  assert.ok(!canJoin(m));
  // Withdrawn players are listed, marked, and may join again.
  m = run(m, { type: 'tournament', tournament: tour({ version: 3, standings: [standing(1, 'bob', 0, { withdrawn: true })] }) }).model;
  assert.ok(!joined(m));
  assert.ok(canJoin(m));
});

test('the newest version wins: an older state (a late answer) is dropped', () => {
  const m = run(init({ id: 't1', me: 'bob', now: NOW }), { type: 'tournament', tournament: tour({ version: 5, name: 'new' }) }).model;
  const out = update(m, { type: 'tournament', tournament: tour({ version: 4, name: 'old' }) });
  assert.equal(out.model, m, 'unchanged model, nothing to redraw');
  assert.equal(update(m, { type: 'tournament', tournament: tour({ version: 5 }) }).model, m);
});

const running = () => tour({
  status: 'running', round: 1, version: 10,
  standings: [standing(1, 'alice', 0), standing(1, 'bob', 0), standing(1, 'carol', 0)],
  rounds: [{ number: 1, pairings: [
    { white: 'alice', black: 'bob', points: null, games: [
      { id: 'g1', white: 'alice', black: 'bob', result: '*' },
      { id: 'g2', white: 'bob', black: 'alice', result: '*' },
    ] },
    { white: 'carol', black: null, points: [1, 0], games: [] },
  ] }],
});

test('running: the round, your games at the top, a bye', () => {
  const bob = run(init({ id: 't1', me: 'bob', now: NOW }), { type: 'tournament', tournament: running() }).model;
  assert.deepEqual(phase(bob), { key: 'tour.roundOf', args: { n: 1, of: 2 } });
  assert.equal(countdown(bob), null, 'a Swiss tournament has no clock of its own');
  assert.deepEqual(myGames(bob).map((g) => g.id), ['g1', 'g2'], 'a duplicate match played at once: two games');
  const carol = run(init({ id: 't1', me: 'carol', now: NOW }), { type: 'tournament', tournament: running() }).model;
  assert.deepEqual(myGames(carol), []);
  assert.equal(myPairing(carol).black, null, 'carol has the bye');
  const guest = run(init({ id: 't1', now: NOW }), { type: 'tournament', tournament: running() }).model;
  assert.deepEqual(myGames(guest), [], 'a spectator plays nothing');
  // A tick does not redraw a page without a countdown.
  assert.equal(update(bob, { type: 'tick', now: NOW + 1000 }).model, bob);
});

test('an arena shows its time left and marks streaks', () => {
  const arena = tour({ status: 'running', version: 2, ends_at: NOW + 600_000, settings: { ...tour().settings, format: 'arena', rounds: null, minutes: 30, duplicate: false } });
  const m = run(init({ id: 't1', me: 'bob', now: NOW }), { type: 'tournament', tournament: arena }).model;
  assert.deepEqual(countdown(m), { key: 'tour.timeLeft', ms: 600_000 });
  assert.deepEqual(phase(m), { key: 'tour.running' });
  assert.notEqual(update(m, { type: 'tick', now: NOW + 1000 }).model, m, 'the time left is drawn each second');
});

test('the socket says your game began: the page goes to it and says so', () => {
  const m = run(init({ id: 't1', me: 'bob', now: NOW }), { type: 'tournament', tournament: running() }).model;
  const out = update(m, { type: 'game', id: 'g9' });
  assert.deepEqual(out.effects, [{ type: 'announce', key: 'tour.saidGameBegan' }, { type: 'goToGame', id: 'g9' }]);
  assert.equal(out.model.called, 'g9');
});

test('standings changes are announced: start, your rank, a new leader, your next game, the winner', () => {
  const before = running();
  assert.deepEqual(changes(tour(), before, 'bob').map((s) => s.key), ['tour.saidStarted', 'tour.saidNextGame']);
  const after = {
    ...before, version: 11,
    standings: [standing(1, 'bob', 1), standing(2, 'carol', 1), standing(3, 'alice', 0)],
    rounds: [...before.rounds, { number: 2, pairings: [{ white: 'carol', black: 'bob', points: null, games: [{ id: 'g3', white: 'carol', black: 'bob', result: '*' }] }] }],
  };
  assert.deepEqual(changes(before, after, 'bob'), [
    { key: 'tour.saidLeader', args: { name: 'bob', points: 1 } },
    { key: 'tour.saidMine', args: { rank: 1, points: 1 } },
    { key: 'tour.saidNextGame', args: { name: 'carol' } },
  ]);
  const { effects } = run(run(init({ id: 't1', me: 'bob', now: NOW }), { type: 'tournament', tournament: before }).model, { type: 'tournament', tournament: after });
  assert.deepEqual(effects.filter((e) => e.type === 'announce').map((e) => e.key), ['tour.saidLeader', 'tour.saidMine', 'tour.saidNextGame']);
  const finished = { ...after, status: 'finished', version: 12 };
  assert.deepEqual(changes(after, finished, null), [{ key: 'tour.saidFinished', args: { name: 'bob' } }]);
  assert.deepEqual(changes(null, after, 'bob'), [], 'the first state is not news');
});

test('finished: the podium of the first three, the rounds latest first', () => {
  const t = tour({ status: 'finished', version: 20, standings: [standing(1, 'a', 2), standing(2, 'b', 1), standing(2, 'c', 1), standing(4, 'd', 0)],
    rounds: [{ number: 1, pairings: [] }, { number: 2, pairings: [] }] });
  const m = run(init({ id: 't1', now: NOW }), { type: 'tournament', tournament: t }).model;
  assert.deepEqual(podium(m).map((s) => s.name), ['a', 'b', 'c']);
  assert.deepEqual(roundsLatestFirst(m).map((r) => r.number), [2, 1]);
  assert.equal(countdown(m), null);
  assert.ok(!canJoin(run(init({ id: 't1', me: 'x', now: NOW }), { type: 'tournament', tournament: t }).model));
});

test('the creation form: a body for the server, or the field at fault', () => {
  const v = { name: ' Friday duplicate ', format: 'swiss', scoring: 'product', initial: 180, increment: 2, rounds: '2', minutes: '30', duplicate: true, sequential: true, rated: false, when: 'in', startsIn: '10', minRating: '', password: '' };
  assert.deepEqual(createBody(v, NOW), { body: {
    name: 'Friday duplicate', format: 'swiss', scoring: 'product', clock: { initial_s: 180, increment_s: 2 },
    duplicate: true, rated: false, rounds: 2, sequential: true, starts_at: NOW + 600_000,
  } });
  const arena = createBody({ ...v, format: 'arena', duplicate: false, minutes: '45', minRating: '1600', password: 'pw' }, NOW).body;
  assert.equal(arena.minutes, 45);
  assert.equal(arena.rounds, undefined);
  assert.equal(arena.sequential, undefined, 'sequential is for duplicate Swiss only');
  assert.equal(arena.min_rating, 1600);
  assert.equal(arena.password, 'pw');
  assert.deepEqual(createBody({ ...v, name: 'ab' }, NOW), { error: 'tour.bad.name', field: 'name' });
  assert.deepEqual(createBody({ ...v, rounds: '16' }, NOW), { error: 'tour.bad.rounds', field: 'rounds' });
  assert.deepEqual(createBody({ ...v, format: 'arena', minutes: '5' }, NOW), { error: 'tour.bad.minutes', field: 'minutes' });
  assert.deepEqual(createBody({ ...v, startsIn: '0' }, NOW), { error: 'tour.bad.start', field: 'start' });
  assert.deepEqual(createBody({ ...v, minRating: 'x' }, NOW), { error: 'tour.bad.minRating', field: 'minRating' });
  // The server's refusals are placed by what their message names.
  assert.equal(errorField({ code: 'invalid_settings', message: 'rounds must be 1 to 15' }), 'rounds');
  assert.equal(errorField({ code: 'invalid_settings', message: 'starts_at must be at least a minute ahead' }), 'start');
  assert.equal(errorField({ code: 'invalid_settings', message: 'the name is 3 to 40 characters' }), 'name');
  assert.equal(errorField({ code: 'rate_limited', message: 'slow down' }), null);
});

test('an arena performance is written as a rating; Swiss tiebreaks as points (issue 52)', () => {
  const points = (/** @type {number} */ x) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(x);
  assert.equal(tiebreakText(1610.67, true, points), '1611');
  assert.equal(tiebreakText(2.5, false, points), '2.5');
  assert.equal(tiebreakText(1234.5, false, points), '1,234.5');
});
