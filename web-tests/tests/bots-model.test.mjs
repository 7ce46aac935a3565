// Unit tests (no browser, no server) of the pure parts of issue 38's pages: the lobby's
// "no bots" choice becomes `SeekRequest.bots = false`, and only then.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, seekBody } from '../../crates/mabula-server/assets/js/pages/lobby-model.js';

const me = () => init({ me: 'ada', seeks: [], conn: 'online', quickScoring: 'largest' });
const values = { time: '180+2', initial: 300, increment: 3, days: 2, scoring: 'largest', rated: 'rated', color: 'random', min: '', max: '', to: '' };

test('a seek that refuses bots says bots: false, and one that does not leaves the field out', () => {
  assert.equal(seekBody(me(), { ...values, noBots: true }).body.bots, false);
  assert.ok(!('bots' in seekBody(me(), { ...values, noBots: false }).body));
  assert.ok(!('bots' in seekBody(me(), values).body), 'old saved choices without noBots still work');
});

test('a challenge to a named bot is an ordinary challenge with a target', () => {
  assert.deepEqual(seekBody(me(), { ...values, to: 'house-level-5' }).body,
    { scoring: 'largest', rated: true, color: 'random', clock: { initial_s: 180, increment_s: 2 }, to: 'house-level-5' });
});
