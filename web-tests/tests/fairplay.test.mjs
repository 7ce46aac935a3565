// Fair play in the browser (issue 51): during a live rated game, its players' page shows no
// "Analyse" link and a spectator's page neither shows the link nor asks the engine anything; once
// the game is over, both pages show the link (and the deal's estimate comes back). Once a finished
// rated game has been analysed, its page shows each player's accuracy.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, signUp } from './helpers.mjs';

let chrome;
const run = Date.now().toString(36).slice(-5);

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

/** A request of the account's session from node: the status and the JSON answer. */
async function as(account, method, path, body) {
  const res = await fetch(BASE + path, {
    method,
    headers: { 'content-type': 'application/json', cookie: account.cookie, 'x-csrf-token': account.csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Two new accounts named `${a}…` and `${b}…` and a rated correspondence game between them, the first White. */
async function ratedGame(a, b) {
  const ann = `${a}${run}`;
  const ben = `${b}${run}`;
  const annAccount = await signUp(ann);
  const benAccount = await signUp(ben);
  const seek = await as(annAccount, 'POST', '/api/seeks', { scoring: 'largest', rated: true, days: 3, color: 'white', to: ben });
  assert.equal(seek.status, 201, JSON.stringify(seek.body));
  const accepted = await as(benAccount, 'POST', `/api/seeks/${seek.body.id}/accept`, {});
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  return { ann, ben, annAccount, benAccount, id: accepted.body.game_id };
}

test('no analysis link nor engine request during a live rated game; the link returns after it', async () => {
  const { ann, annAccount, benAccount, id } = await ratedGame('Fa', 'Fb');

  // Ann's own page, by her session.
  const annCtx = await chrome.context({ locale: 'en-US' });
  await annCtx.addCookies([{ name: 'mabula_session', value: annAccount.value, url: BASE }]);
  const player = await annCtx.newPage();
  // A guest watching.
  const watchCtx = await chrome.context({ locale: 'en-US' });
  const watcher = await watchCtx.newPage();
  /** @type {string[]} */
  const engineAsked = [];
  watcher.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/analysis')) engineAsked.push(r.url());
  });

  for (const page of [player, watcher]) {
    await page.goto(`${BASE}/game/${id}`);
    await page.waitForSelector('main svg.board');
    await page.waitForSelector(`.player[data-colour="white"]:has-text("${ann}")`);
    // The live channel is up: the page holds the whole current state.
    await page.waitForSelector('.record-row');
    await page.waitForSelector('.conn.online', { state: 'attached' });
  }
  // Ann plays as White: the page knows her seat.
  await player.waitForSelector('main svg.board .can-move');
  for (const page of [player, watcher]) {
    assert.equal(await page.locator('.analyse-link').isVisible(), false, 'no analysis link during the game');
    assert.equal(await page.locator('.deal-note').isVisible(), false, 'no estimate of the deal during the game');
  }
  const direct = await fetch(`${BASE}/api/analysis?position=${encodeURIComponent((await (await fetch(`${BASE}/api/games/${id}`)).json()).position)}`);
  assert.equal(direct.status, 403);
  assert.equal((await direct.json()).code, 'live_game_position');

  assert.deepEqual(engineAsked, [], 'the watcher asks the engine nothing');

  // Ben resigns: the pages show the link again, and the watcher's page asks for the estimate.
  const estimate = watcher.waitForRequest((r) => new URL(r.url()).pathname === '/api/analysis');
  const resigned = await as(benAccount, 'POST', `/api/games/${id}/resign`, {});
  assert.equal(resigned.status, 200, JSON.stringify(resigned.body));
  for (const page of [player, watcher]) {
    await page.waitForSelector('.analyse-link', { state: 'visible' });
    assert.equal(await page.locator('.analyse-link').getAttribute('href'), `/analysis?game=${id}`);
  }
  await estimate;
  await player.reload();
  await player.waitForSelector('.analyse-link', { state: 'visible' });
  assert.deepEqual(annCtx.errors, []);
  assert.deepEqual(watchCtx.errors, []);
  await annCtx.close();
  await watchCtx.close();
});

test('a finished rated game shows each player\'s accuracy under their name (issue 51)', async () => {
  const { annAccount, benAccount, id } = await ratedGame('Aa', 'Ab');
  // Eight moves, each side's first legal one, then Ben resigns.
  for (let number = 1; number <= 8; number++) {
    const st = await (await fetch(`${BASE}/api/games/${id}`)).json();
    const mover = st.to_move === 'white' ? annAccount : benAccount;
    const played = await as(mover, 'POST', `/api/games/${id}/moves`, { move: st.legal_moves[0].notation, number });
    assert.equal(played.status, 200, JSON.stringify(played.body));
  }
  const ctx = await chrome.context({ locale: 'en-US' });
  await ctx.addCookies([{ name: 'mabula_session', value: annAccount.value, url: BASE }]);
  const page = await ctx.newPage();
  await page.goto(`${BASE}/game/${id}`);
  await page.waitForSelector('.record-row');
  assert.equal(await page.locator('.player .accuracy').count(), 0, 'no accuracy during the game');
  const resigned = await as(benAccount, 'POST', `/api/games/${id}/resign`, {});
  assert.equal(resigned.status, 200, JSON.stringify(resigned.body));
  // The page asks for it a few seconds after the end, and again until the analysis is done.
  await page.waitForSelector('.player[data-colour="white"] .accuracy', { timeout: 30000 });
  for (const colour of ['white', 'black']) {
    const text = await page.locator(`.player[data-colour="${colour}"] .accuracy`).textContent();
    assert.match(text ?? '', /^accuracy \d{1,3}% \(\d+ moves?\)$/, text ?? '');
  }
  const end = page.locator('dialog[open]');
  if (await end.count()) await page.keyboard.press('Escape');
  await page.screenshot({ path: join(SHOTS, 'game-accuracy.png') });
  // Reloaded, it is there at once.
  await page.reload();
  await page.waitForSelector('.player[data-colour="black"] .accuracy', { timeout: 5000 });
  assert.deepEqual(ctx.errors, []);
  await ctx.close();
});
