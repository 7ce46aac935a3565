// A player who leaves a game on a real-time clock: the other player's page says so at once, counts
// down the 30 seconds, then offers to claim the win; the claim ends the game, won.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, state } from './helpers.mjs';

let chrome;
const PASSWORD = 'marbles on the edge';
const run = Date.now().toString(36).slice(-5);

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

/** A context logged in as a new account `name`, with a way to write with its CSRF token. */
async function account(name) {
  const ctx = await chrome.context({ locale: 'en-US' });
  const res = await ctx.request.post(`${BASE}/api/accounts`, { data: { name, password: PASSWORD } });
  assert.equal(res.status(), 201, await res.text());
  const { csrf } = await res.json();
  // What the log-in form leaves in the browser: the page then reads its session at load.
  await ctx.addInitScript((n) => { if (location.origin !== 'null') localStorage.setItem('mabula:account', n); }, name);
  ctx.post = async (path, data = {}) => {
    const r = await ctx.request.post(BASE + path, { data, headers: { 'x-csrf-token': csrf } });
    assert.ok(r.ok(), `${path}: ${r.status()} ${await r.text()}`);
    return r.json();
  };
  return ctx;
}

/** Plays the first legal move of game `id` for the player of `ctx`. */
async function playFirst(ctx, id) {
  const st = await state(id);
  await ctx.post(`/api/games/${id}/moves`, { move: st.legal_moves[0].notation, number: st.moves.length + 1 });
}

test('an opponent who leaves on their turn is claimed against after 30 seconds', async () => {
  const fay = await account(`Fay${run}`);
  const gus = await account(`Gus${run}`);
  const seek = await fay.post('/api/seeks', { scoring: 'largest', rated: true, clock: { initial_s: 300, increment_s: 0 }, color: 'white' });
  const { game_id: id } = await gus.post(`/api/seeks/${seek.id}/accept`);

  const fayPage = await fay.newPage();
  await fayPage.goto(`${BASE}/game/${id}`);
  const gusPage = await gus.newPage();
  await gusPage.goto(`${BASE}/game/${id}`);
  await playFirst(fay, id);
  await playFirst(gus, id);
  await playFirst(fay, id);
  // Gus's page may still be connecting its socket: once it is, Fay's page has nothing to claim.
  const note = fayPage.locator('.claim-note');
  await note.waitFor({ state: 'hidden', timeout: 10000 });

  // Gus closes his page on his turn: Fay is told at once and sees the wait counted down.
  await gusPage.close();
  await note.waitFor({ state: 'visible', timeout: 10000 });
  const waiting = await note.innerText();
  assert.match(waiting, /Your opponent has left\. If they do not come back, you can claim the win in \d+ s\./);
  assert.equal(await fayPage.locator('.claim-note button').isVisible(), false, 'no claim yet');
  await fayPage.screenshot({ path: join(SHOTS, 'claim-wait.png') });

  // After 30 seconds the button comes; the claim ends the game, won by Fay.
  const button = fayPage.locator('.claim-note button');
  await button.waitFor({ state: 'visible', timeout: 40000 });
  await fayPage.screenshot({ path: join(SHOTS, 'claim-offer.png') });
  await button.click();
  await fayPage.waitForSelector('dialog[open]', { timeout: 10000 });
  const dialog = await fayPage.locator('dialog[open]').innerText();
  assert.match(dialog, /You won!/);
  assert.match(dialog, /left the game, and the win was claimed/);
  await fayPage.screenshot({ path: join(SHOTS, 'claim-won.png') });
  const end = await state(id);
  assert.equal(end.end_reason, 'abandoned_black');
  assert.equal(end.winner, 'white');
  assert.deepEqual(fay.errors, []);
  assert.deepEqual(gus.errors, []);
});
