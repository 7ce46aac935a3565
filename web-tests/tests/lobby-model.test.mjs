// Unit tests of the lobby's state machine (assets/js/pages/lobby-model.js), in node without a
// browser or a server: messages in, the model and the effects out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  init, update, openSeeks, mySeeks, challengesToMe, quickWaiting, fits, seekBody, TURN_EVERY_MS,
} from '../../crates/mabula-server/assets/js/pages/lobby-model.js';
import { applyChanges } from '../../crates/mabula-server/assets/js/seeklist.js';

/** A seek as the server describes one. */
function seek(id, name, extra = {}) {
  return {
    id, name, rating: 1500, provisional: true, scoring: 'largest', rated: true, color: 'random',
    control: { initial_s: 180, increment_s: 2 }, speed: 'realtime', rating_min: null, rating_max: null, to: null,
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

const types = (effects) => effects.map((e) => e.type);
const player = () => run(init({ seeks: [] }), { type: 'session', me: 'Ann' }).model;

test('the page asks for its timer at the start, and a tick reads your turns unless the page is hidden', () => {
  const { effects } = run(init(), { type: 'start' });
  assert.deepEqual(effects, [{ type: 'every', ms: TURN_EVERY_MS }]);
  assert.deepEqual(types(update(player(), { type: 'tick', hidden: false }).effects), ['loadTurn']);
  assert.equal(update(player(), { type: 'tick', hidden: true }).effects.length, 0);
  assert.equal(update(init(), { type: 'tick', hidden: false }).effects.length, 0, 'a guest has no turns');
});

test('once the session is known a player\'s turns and ratings are read, and a challenge fills the form', () => {
  const { model, effects } = run(init(), { type: 'session', me: 'ann', challenge: 'ben' });
  assert.equal(model.me, 'ann');
  assert.deepEqual(effects, [{ type: 'loadTurn' }, { type: 'loadRatings', name: 'ann' }, { type: 'fillChallenge', name: 'ben' }]);
  assert.equal(update(init(), { type: 'session', me: null }).effects.length, 0);
});

test('a seek list from the server sorts others\' seeks, yours and the challenges to you apart', () => {
  const list = [
    seek('s1', 'ben', { control: { initial_s: 600, increment_s: 5 } }),
    seek('s2', 'cid', { control: { initial_s: 60, increment_s: 1 } }),
    seek('s3', 'ANN'),
    seek('s4', 'dan', { to: 'ann' }),
    seek('s5', 'eve', { control: { days: 2 }, speed: 'correspondence' }),
  ];
  const { model } = run(player(), { type: 'seeks', seeks: list });
  assert.deepEqual(openSeeks(model).map((s) => s.id), ['s2', 's1', 's5'], 'shortest clock first');
  assert.deepEqual(mySeeks(model).map((s) => s.id), ['s3'], 'names ignore case');
  assert.deepEqual(challengesToMe(model).map((s) => s.id), ['s4']);
  assert.equal(quickWaiting(model, [180, 2]).id, 's3');
});

test('a seek of yours that leaves the list was taken and is no longer withdrawn when you leave', () => {
  let { model } = run(player(), { type: 'opened', seek: seek('s1', 'ann'), quiet: true }, { type: 'opened', seek: seek('s2', 'ann', { control: { initial_s: 60, increment_s: 1 } }), quiet: true });
  assert.deepEqual(model.openedHere, ['s1', 's2']);
  ({ model } = run(model, { type: 'seeks', seeks: [seek('s2', 'ann', { control: { initial_s: 60, increment_s: 1 } })] }));
  assert.deepEqual(model.openedHere, ['s2']);
  const out = update(model, { type: 'leave' });
  assert.deepEqual(out.effects, [{ type: 'stopTimer' }, { type: 'withdrawStill', ids: ['s2'] }]);
  assert.deepEqual(out.model.openedHere, []);
});

test('others\' seeks come as you would look for a game: those you may take, settled ratings, nearest yours', () => {
  const list = [
    seek('flood1', 'new1', { rating: 1500 }),
    seek('far', 'ben', { rating: 2100, provisional: false }),
    seek('near', 'cid', { rating: 1450, provisional: false, control: { initial_s: 600, increment_s: 5 } }),
    seek('out', 'dan', { rating: 1500, provisional: false, rating_min: 1800 }),
    seek('flood2', 'new2', { rating: 1500, control: { initial_s: 60, increment_s: 1 } }),
  ];
  let { model } = run(player(), { type: 'seeks', seeks: list });
  assert.deepEqual(openSeeks(model).map((s) => s.id), ['near', 'far', 'flood2', 'flood1', 'out']);
  ({ model } = run(model, { type: 'ratings', ratings: [{ scoring: 'largest', speed: 'realtime', rating: 2000, deviation: 60, provisional: false, games: 40 }] }));
  assert.deepEqual(openSeeks(model).map((s) => s.id), ['far', 'out', 'near', 'flood2', 'flood1'], 'from 2000');
});

test('a reconnect shows the status, then the fresh list replaces the old one', () => {
  let { model } = run(player(), { type: 'seeks', seeks: [seek('s1', 'ben')] }, { type: 'status', status: 'reconnecting' });
  assert.equal(model.conn, 'reconnecting');
  ({ model } = run(model, { type: 'status', status: 'online' }, { type: 'seeks', seeks: [seek('s9', 'cid')] }));
  assert.equal(model.conn, 'online');
  assert.deepEqual(openSeeks(model).map((s) => s.id), ['s9']);
  assert.equal(update(model, { type: 'status', status: 'online' }).model, model, 'nothing new, nothing to draw');
});

test('accepting a seek someone else took says it is gone and drops it', () => {
  const { model } = run(player(), { type: 'seeks', seeks: [seek('s1', 'ben')] });
  let out = update(model, { type: 'accept', id: 's1' });
  assert.deepEqual(out.effects, [{ type: 'accept', id: 's1' }]);
  out = update(model, { type: 'acceptFailed', id: 's1', error: { code: 'seek_not_found' } });
  assert.deepEqual(out.effects, [{ type: 'toast', key: 'lobby.gone', kind: 'error' }]);
  assert.deepEqual(openSeeks(out.model), []);
  assert.deepEqual(types(update(model, { type: 'accepted', gameId: 'g7' }).effects), ['goToGame']);
});

test('quick pairing tries the matching seeks in turn, then opens one of its own', () => {
  const list = [
    seek('s1', 'ben'),
    seek('s2', 'cid'),
    seek('s3', 'dan', { rated: false }),
    seek('s4', 'eve', { rating_min: 1800 }),
    seek('s5', 'fay', { scoring: 'product' }),
  ];
  let { model, effects } = run(player(), { type: 'seeks', seeks: list }, { type: 'quick', preset: [180, 2] });
  assert.deepEqual(effects, [{ type: 'accept', id: 's1' }], 'only rated seeks of this clock and scoring, in your range');
  ({ model, effects } = run(model, { type: 'acceptFailed', id: 's1', error: { code: 'seek_not_found' } }));
  assert.deepEqual(effects, [{ type: 'accept', id: 's2' }]);
  ({ model, effects } = run(model, { type: 'acceptFailed', id: 's2', error: { code: 'seek_not_for_you' } }));
  assert.deepEqual(types(effects), ['open']);
  assert.deepEqual(effects[0].body, { scoring: 'largest', rated: true, clock: { initial_s: 180, increment_s: 2 }, color: 'random' });
  ({ model, effects } = run(model, { type: 'opened', seek: seek('s6', 'ann'), quiet: true }));
  assert.deepEqual(effects, [{ type: 'announce', key: 'lobby.seekOpened' }]);
  assert.equal(model.quick, null);
  assert.deepEqual(types(update(model, { type: 'quick', preset: [180, 2] }).effects), ['cancel'], 'a second click withdraws it');
  assert.deepEqual(update(init(), { type: 'quick', preset: [180, 2] }).effects, [{ type: 'toast', key: 'lobby.loginFirst', kind: 'error' }]);
});

test('a withdrawn or declined seek leaves the list once the server agrees', () => {
  const { model } = run(player(), { type: 'seeks', seeks: [seek('s1', 'ben', { to: 'ann' })] });
  let out = update(model, { type: 'decline', id: 's1', name: 'ben' });
  assert.deepEqual(out.effects, [{ type: 'cancel', id: 's1', said: { key: 'lobby.declined', args: { name: 'ben' } } }]);
  assert.equal(out.model, model);
  out = update(model, { type: 'cancelled', id: 's1', said: { key: 'lobby.declined', args: { name: 'ben' } } });
  assert.deepEqual(challengesToMe(out.model), []);
  assert.deepEqual(types(out.effects), ['announce']);
});

test('your rating decides which seeks you may accept', () => {
  const narrow = seek('s1', 'ben', { rating_min: 1400, rating_max: 1600 });
  assert.equal(fits(player(), narrow), true, 'no rating yet counts as 1500');
  const strong = run(player(), { type: 'ratings', ratings: [{ scoring: 'largest', speed: 'realtime', rating: 1700 }] }).model;
  assert.equal(fits(strong, narrow), false);
});

test('the seek form is checked before anything is sent', () => {
  const v = { time: '180+2', initial: 300, increment: 3, days: 2, scoring: 'largest', rated: 'rated', color: 'white', min: '', max: '', to: '' };
  assert.deepEqual(seekBody(player(), v).body, { scoring: 'largest', rated: true, color: 'white', clock: { initial_s: 180, increment_s: 2 } });
  assert.deepEqual(seekBody(player(), { ...v, time: 'days', min: '1400', to: 'ben' }).body, { scoring: 'largest', rated: true, color: 'white', days: 2, rating_min: 1400, to: 'ben' });
  assert.equal(seekBody(player(), { ...v, min: '1600', max: '1400' }).error, 'lobby.rangeOrder');
  assert.equal(seekBody(player(), { ...v, min: '15.5' }).error, 'lobby.rangeBad');
  assert.deepEqual(seekBody(player(), { ...v, to: 'ANN' }), { error: 'lobby.notYourself', field: 'to' });
  assert.equal(seekBody(init(), v).error, 'lobby.loginFirst');
  const { effects } = run(player(), { type: 'submit', values: { ...v, time: 'custom' } });
  assert.deepEqual(effects, [{ type: 'open', body: { scoring: 'largest', rated: true, color: 'white', clock: { initial_s: 300, increment_s: 3 } }, quiet: false }]);
  const refused = run(player(), { type: 'openFailed', error: { code: 'player_not_found' }, quiet: false });
  assert.deepEqual(refused.effects, [{ type: 'formError', error: { code: 'player_not_found' } }]);
});

test('the changes the socket sends are applied to the list it sent first, oldest first', () => {
  const list = [seek('s1', 'ben', { created_at: 1 }), seek('s2', 'cid', { created_at: 2 })];
  const next = applyChanges(list, [seek('s3', 'dan', { created_at: 3 }), seek('s0', 'eve', { created_at: 0 })], ['s1']);
  assert.deepEqual(next.map((s) => s.id), ['s0', 's2', 's3']);
  // A seek added twice (a change heard twice) is listed once; removing what is gone is harmless.
  assert.deepEqual(applyChanges(next, [next[0]], ['s9']).map((s) => s.id), ['s0', 's2', 's3']);
  assert.deepEqual(list.map((s) => s.id), ['s1', 's2'], 'the list given is left as it was');
});
