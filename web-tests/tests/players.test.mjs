// Players in the browser: accounts, the lobby, a rated game on a clock flagged by the server, and
// the profiles afterwards. Two people sign up in two browser contexts (one first takes a guest
// game into the new account), one opens a seek with a 15-second clock, the other sees it arrive
// live and accepts it; both land on the game with names, ratings and ticking clocks; after three
// moves the player to move waits, the server flags them, and both see the result and their new
// ratings on their profiles. Also: a challenge by name arriving live (with a notification), the
// account menu, log out everywhere, and the new pages in other languages and on a phone.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, api, gameId, waitMoves, clickMove, state, pick, visibleTexts } from './helpers.mjs';

let chrome;
const contexts = [];
const PASSWORD = 'marbles on the edge';
/** Names unique to this run, so the tests can run again on the same database. */
const run = Date.now().toString(36).slice(-5);
const ANN = `Ann${run}`;
const BEN = `Ben${run}`;

async function context(options) {
  const ctx = await chrome.context({ locale: 'en-US', ...options });
  contexts.push(ctx);
  return ctx;
}

function noErrors(ctx) {
  assert.deepEqual(ctx.errors, [], 'no console errors');
}

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

/** Signs up on the page's own form; answers when the lobby (or the claim offer) shows. */
async function signUp(page, name) {
  await page.goto(`${BASE}/signup`);
  await page.waitForSelector('form.login-card');
  await page.fill('#login-name', name);
  await page.fill('#login-password', PASSWORD);
  await page.click('form.login-card button[type="submit"]');
}

/** The text of a clock on a game page. */
function clockText(page, colour) {
  return page.locator(`.player[data-colour="${colour}"] .clock .clock-time`).innerText();
}

/** Seconds on a clock text such as `0:14` or `0:09.4`. */
function seconds(text) {
  const m = text.match(/^(\d+):(\d\d)(?:[.,](\d))?$/);
  assert.ok(m, `a clock reads m:ss, not ${text}`);
  return Number(m[1]) * 60 + Number(m[2]) + (m[3] ? Number(m[3]) / 10 : 0);
}

let phoneCtx;
let gameWithClock;
let annPage;
let benPage;
let annCtx;
let benCtx;

test('two people sign up, one takes a guest game into the account, the nav shows the names', async () => {
  annCtx = await context();
  annPage = await annCtx.newPage();
  // Ann first plays as a guest: a game at one screen, whose token this browser keeps.
  await annPage.goto(`${BASE}/`);
  await annPage.click('label.opponent:has(input[value="local"])');
  await annPage.click('form.newgame button[type="submit"]');
  await annPage.waitForURL(/\/game\//);
  await annPage.waitForSelector('main svg.board .can-move');
  const guestGame = gameId(annPage);
  await clickMove(annPage, pick(await state(guestGame)));
  await waitMoves(annPage, 1);
  assert.equal(await annPage.locator('#account .login-link').innerText(), 'Log in');

  await signUp(annPage, ANN);
  // The offer to take the guest game along.
  await annPage.waitForSelector('.claim-card');
  assert.match(await annPage.locator('.claim-card').innerText(), /holds 1 game you played as a guest/);
  await annPage.click('.claim-card button:has-text("Take them into my account")');
  await annPage.waitForSelector('.claim-card [role="status"]:has-text("1 game is now in your account")');
  await annPage.click('.claim-card a:has-text("Continue")');
  await annPage.waitForURL(/\/lobby$/);
  assert.equal(await annPage.locator('#account-button .account-name').innerText(), ANN);
  // The claimed game is on Ann's profile.
  const games = await api(`/api/players/${ANN}/games`);
  assert.deepEqual(games.games.map((g) => g.id), [guestGame]);

  benCtx = await context();
  benPage = await benCtx.newPage();
  await signUp(benPage, BEN);
  await benPage.waitForURL(/\/lobby$/);
  assert.equal(await benPage.locator('#account-button .account-name').innerText(), BEN);
  noErrors(annCtx);
  noErrors(benCtx);
});

test('a seek opened by one appears live in the other’s lobby; accepting it starts a game with names, ratings and ticking clocks', async () => {
  await benPage.waitForSelector('#seeks .empty-note, #seeks .seek');
  // Ann opens a rated seek with a 15-second clock: the custom clock at its shortest, by keyboard.
  await annPage.click('.seek-form label:has(input[name="time"][value="custom"])');
  await annPage.focus('#seek-initial');
  await annPage.keyboard.press('Home');
  await annPage.focus('#seek-increment');
  await annPage.keyboard.press('Home');
  assert.equal(await annPage.locator('#seek-initial-out').innerText(), '15 s');
  assert.equal(await annPage.locator('#seek-increment-out').innerText(), '0 s');
  await annPage.click('.seek-form label:has(input[name="rated"][value="rated"])');
  await annPage.click('.seek-form button[type="submit"]');
  await annPage.waitForSelector(`#my-seeks .seek:has-text("15s+0")`);

  // Ben sees it arrive without reloading.
  const seek = benPage.locator('#seeks .seek', { hasText: ANN });
  await seek.waitFor();
  const text = await seek.innerText();
  assert.match(text, /15s\+0/);
  assert.match(text, /Rated/);
  assert.match(text, /1500\?/);
  assert.match(text, /Largest group|Product of groups/);
  await benPage.screenshot({ path: join(SHOTS, 'lobby.png'), fullPage: true });

  await seek.locator('button.accept-button').click();
  await benPage.waitForURL(/\/game\/[a-z0-9]+$/);
  // Ann is taken to the game by the lobby's socket.
  await annPage.waitForURL(/\/game\/[a-z0-9]+$/);
  assert.equal(gameId(annPage), gameId(benPage));
  const id = gameId(benPage);
  gameWithClock = id;
  const st = await state(id);
  assert.equal(st.rated, true);
  assert.equal(st.clock.control.initial_s, 15);
  const colourOf = { [st.players.white.name]: 'white', [st.players.black.name]: 'black' };
  assert.deepEqual(Object.keys(colourOf).sort(), [ANN, BEN].sort());

  for (const page of [annPage, benPage]) {
    await page.waitForSelector('.player .clock');
    for (const colour of ['white', 'black']) {
      const row = page.locator(`.player[data-colour="${colour}"]`);
      assert.equal(await row.locator('.name').innerText().then((s) => s.replace(/ \(You\)$/, '')), st.players[colour].name);
      assert.match(await row.locator('.rating').innerText(), /^1500\?$/);
      assert.equal(await clockText(page, colour), '0:15');
    }
    assert.match(await page.locator('#game-title').textContent(), /Rated · 15s\+0/);
  }
  // Before the first moves the clocks stand, and the page says how long the first move may wait.
  await annPage.waitForSelector('.abort-note:not([hidden])');
  // A spectator on a phone sees the same names and clocks.
  phoneCtx = await context({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const phone = await phoneCtx.newPage();
  await phone.goto(`${BASE}/game/${id}`);
  await phone.waitForSelector('.player .clock');
  assert.equal(await phone.locator('.player[data-colour="white"] .name').innerText(), st.players.white.name);

  // The first two moves are not timed.
  const byColour = { white: colourOf[ANN] === 'white' ? annPage : benPage, black: colourOf[ANN] === 'black' ? annPage : benPage };
  let now = st;
  for (let n = 1; n <= 2; n++) {
    const mover = byColour[now.to_move];
    await mover.waitForSelector('main svg.board .can-move');
    await clickMove(mover, pick(now));
    await waitMoves(annPage, n);
    await waitMoves(benPage, n);
    now = await state(id);
  }
  assert.equal(now.clock.running, now.to_move, 'from the third move on the clock runs');
  // The clock of the side to move ticks down on both pages, the other stands.
  const side = now.to_move;
  const otherSide = side === 'white' ? 'black' : 'white';
  const before1 = seconds(await clockText(annPage, side));
  // The page's clock runs down by itself, with no news from the server.
  await annPage.waitForFunction(({ colour, limit }) => {
    const m = document.querySelector(`.player[data-colour="${colour}"] .clock .clock-time`)?.textContent?.match(/^(\d+):(\d\d)(?:[.,](\d))?$/);
    return m && Number(m[1]) * 60 + Number(m[2]) + (m[3] ? Number(m[3]) / 10 : 0) < limit;
  }, { colour: side, limit: before1 - 0.5 });
  const after1 = seconds(await clockText(annPage, side));
  assert.ok(after1 < before1 - 0.5, `the running clock ticks (${before1} then ${after1})`);
  assert.equal(await clockText(annPage, otherSide), '0:15');
  assert.ok(await annPage.locator(`.player[data-colour="${side}"] .clock.running`).count() === 1);
  assert.ok(seconds(await clockText(benPage, side)) < 14.5, 'it ticks on the other page too');
  await byColour[side].screenshot({ path: join(SHOTS, 'game-clocks.png') });
  await phone.waitForFunction((c) => document.querySelector(`.player[data-colour="${c}"] .clock.running`), side);
  assert.ok(seconds(await clockText(phone, side)) < 14.5, 'the spectator’s clock ticks');
  assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1), false, 'no sideways scrolling');
  await phone.screenshot({ path: join(SHOTS, 'phone-game-clocks.png') });

  // The third move; then the other player lets their time run out.
  await clickMove(byColour[side], pick(now));
  await waitMoves(annPage, 3);
  await waitMoves(benPage, 3);
  const flagged = otherSide;
  const winner = side;
  const loserName = st.players[flagged].name;
  const winnerName = st.players[winner].name;
  // Low time shows before the flag falls (a 15-second clock is low from 5 seconds).
  await byColour[flagged].waitForSelector(`.player[data-colour="${flagged}"] .clock.low.running`, { timeout: 20000 });
  await byColour[flagged].screenshot({ path: join(SHOTS, 'game-clock-low.png') });

  for (const page of [annPage, benPage]) {
    await page.waitForFunction(() => /ran out of time/.test(document.querySelector('.status')?.textContent || ''), null, { timeout: 30000 });
    const status = await page.locator('.status').innerText();
    assert.match(status, new RegExp(`${loserName} ran out of time`));
  }
  assert.match(await byColour[winner].locator('.status').innerText(), /You won!/);
  assert.match(await byColour[flagged].locator('.status').innerText(), /You lost/);
  // The store's record of the game (the players' history) has the server's flag.
  const history = await api(`/api/players/${winnerName}/games`);
  const record = history.games.find((g) => g.id === id);
  assert.equal(record.end_reason, `timeout_${flagged}`);
  assert.equal(record.outcome, 'win');
  // The result dialog names the players; the pages show the rating changes.
  for (const page of [annPage, benPage]) {
    const dialog = page.locator('dialog.end-dialog[open]');
    await dialog.waitFor();
    const text = await dialog.innerText();
    assert.match(text, new RegExp(winnerName));
    assert.match(text, /ran out of time/);
    await page.waitForSelector('.player .rating-diff');
  }
  await byColour[winner].screenshot({ path: join(SHOTS, 'game-flagged.png') });
  for (const page of [annPage, benPage]) await page.locator('dialog.end-dialog[open] button:has-text("Close")').click();
  const up = await byColour[winner].locator(`.player[data-colour="${winner}"] .rating-diff`).innerText();
  const down = await byColour[winner].locator(`.player[data-colour="${flagged}"] .rating-diff`).innerText();
  assert.match(up, /^\+\d+$/);
  assert.match(down, /^−\d+$/);

  // Both profiles show the new ratings.
  for (const [page, name, won] of [[byColour[winner], winnerName, true], [byColour[flagged], loserName, false]]) {
    await page.click('#account-button');
    await page.click('#account-menu a:has-text("Your profile")');
    await page.waitForURL(new RegExp(`/@/${name}$`));
    const tile = page.locator('.rating-tile:not(.none)');
    await tile.waitFor();
    const rating = Number((await tile.locator('.tile-value').innerText()).replace('?', ''));
    if (won) assert.ok(rating > 1500, `the winner's rating rose: ${rating}`);
    else assert.ok(rating < 1500, `the loser's rating fell: ${rating}`);
    assert.match(await tile.innerText(), /1 rated game/);
    await page.waitForSelector('svg.rating-graph .graph-point');
    const row = page.locator('#history li', { hasText: won ? loserName : winnerName });
    await row.waitFor();
    assert.match(await row.innerText(), won ? /Won/ : /Lost/);
    assert.match(await row.innerText(), /on time/);
    const results = await page.locator('.results-table tr.total').innerText();
    assert.match(results, won ? /1\s+0\s+0/ : /0\s+0\s+1/);
  }
  await byColour[winner].screenshot({ path: join(SHOTS, 'profile.png'), fullPage: true });
  // The same profile on a phone, seen by a guest.
  const phone2 = await phoneCtx.newPage();
  await phone2.goto(`${BASE}/@/${winnerName.toLowerCase()}`);
  await phone2.waitForSelector('svg.rating-graph .graph-point');
  assert.equal(await phone2.locator('.profile-name h1').innerText(), winnerName, 'the address may use any case');
  assert.equal(await phone2.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1), false, 'no sideways scrolling');
  await phone2.screenshot({ path: join(SHOTS, 'phone-profile.png'), fullPage: true });
  await phone2.goto(`${BASE}/lobby`);
  await phone2.waitForSelector('.lobby-guest:not([hidden])');
  await phone2.waitForSelector('#seeks .empty-note, #seeks .seek');
  assert.equal(await phone2.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1), false, 'no sideways scrolling');
  await phone2.screenshot({ path: join(SHOTS, 'phone-lobby.png'), fullPage: true });
  noErrors(annCtx);
  noErrors(benCtx);
  noErrors(phoneCtx);
});

test('a challenge by name arrives live with a notification; one is declined, a correspondence one accepted, and the turn is announced', async () => {
  // Ben allowed notifications; the page is not in front, so they are shown (recorded here).
  await benCtx.addInitScript(() => {
    window.__notes = [];
    window.Notification = class {
      static permission = 'granted';
      static requestPermission() { return Promise.resolve('granted'); }
      constructor(title, options) { window.__notes.push({ title, body: options?.body }); }
      close() {}
    };
    document.hasFocus = () => false;
  });
  await benPage.goto(`${BASE}/@/${BEN}`);
  await benPage.waitForSelector('.profile-head');
  assert.equal(await benPage.locator('.challenge-button').count(), 0, 'no challenge button on your own profile');

  // Ann challenges Ben from his profile.
  await annPage.goto(`${BASE}/@/${BEN}`);
  await annPage.click('.challenge-button');
  await annPage.waitForURL(/\/lobby\?challenge=/);
  await annPage.waitForFunction((name) => document.activeElement?.id === 'seek-to' && document.activeElement.value === name, BEN);
  assert.equal(await annPage.locator('.seek-form button[type="submit"]').innerText(), 'Send the challenge');
  await annPage.click('.seek-form label:has(input[name="time"][value="days"])');
  await annPage.click('.seek-form label:has(input[name="days"][value="2"])');
  await annPage.click('.seek-form label:has(input[name="rated"][value="casual"])');
  await annPage.click('.seek-form button[type="submit"]');
  await annPage.waitForSelector(`#my-seeks .challenge-sent:has-text("${BEN}")`);

  // Ben hears of it on his profile page: a toast, and a notification.
  await benPage.waitForSelector(`.toast:has-text("${ANN} challenges you")`);
  const notes = await benPage.evaluate(() => window.__notes);
  assert.ok(notes.some((n) => n.title === `${ANN} challenges you` && /2 days per move/.test(n.body)), JSON.stringify(notes));
  await benPage.click('.mainnav a[data-nav="lobby"]');
  const challenge = benPage.locator('#challenges .challenge', { hasText: ANN });
  await challenge.waitFor();
  assert.match(await challenge.innerText(), /challenges you/);
  assert.match(await challenge.innerText(), /Casual/);
  await benPage.screenshot({ path: join(SHOTS, 'lobby-challenge.png'), fullPage: true });
  await challenge.locator('.decline-button').click();
  await annPage.waitForSelector('#my-seeks .challenge-sent', { state: 'detached' });

  // Again; this time Ben accepts, and both go to the game.
  await annPage.fill('#seek-to', BEN);
  await annPage.click('.seek-form button[type="submit"]');
  await benPage.locator('#challenges .challenge .accept-button').click();
  await benPage.waitForURL(/\/game\/[a-z0-9]+$/);
  await annPage.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = gameId(annPage);
  const st = await state(id);
  assert.equal(st.rated, false);
  assert.deepEqual(st.clock.control, { days: 2 });
  assert.match(await annPage.locator('.player .clock').first().innerText(), /2 d 0 h/);
  assert.match(await annPage.locator('#game-title').textContent(), /Casual · 2 days per move/);
  // The one to move plays; the other waits in the lobby and hears that it is their turn.
  const ann = st.players.white.name === ANN ? 'white' : 'black';
  const [mover, waiter] = st.to_move === ann ? [annPage, benPage] : [benPage, annPage];
  await waiter.click('.mainnav a[data-nav="lobby"]');
  await waiter.waitForSelector('#seeks .empty-note, #seeks .seek');
  await mover.waitForSelector('main svg.board .can-move');
  await clickMove(mover, pick(st));
  await waiter.waitForSelector('.toast:has-text("Your turn in a correspondence game")');
  await waiter.waitForSelector(`#your-turn a[href="/game/${id}"]`);
  noErrors(annCtx);
  noErrors(benCtx);
});

test('logging in, a wrong password, logging out, and out everywhere', async () => {
  const ctx = await context();
  ctx.allow401 = true;
  const page = await ctx.newPage();
  await page.goto(`${BASE}/lobby`);
  await page.click('#account .login-link');
  await page.waitForURL(/\/login\?next=%2Flobby$/);
  await page.fill('#login-name', ANN);
  await page.fill('#login-password', 'not the password');
  await page.click('form.login-card button[type="submit"]');
  await page.waitForSelector('#login-error:has-text("The name and password do not match.")');
  await page.fill('#login-password', PASSWORD);
  await page.press('#login-password', 'Enter');
  await page.waitForURL(/\/lobby$/);
  assert.equal(await page.locator('#account-button .account-name').innerText(), ANN);
  // The account menu works with the keyboard: open, move, Escape closes and gives focus back.
  await page.focus('#account-button');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#account-button').getAttribute('aria-expanded'), 'true');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#account-button').getAttribute('aria-expanded'), 'false');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'account-button');
  await page.screenshot({ path: join(SHOTS, 'lobby-logged-in.png') });

  // Ben logs out here only.
  await benPage.click('#account-button');
  await benPage.click('#account-menu .logout');
  await benPage.waitForSelector('#account .login-link');
  assert.equal((await benCtx.request.get(`${BASE}/api/session`)).status(), 401);

  // Ann logs out everywhere: the other browser's session ends too.
  assert.equal((await ctx.request.get(`${BASE}/api/session`)).status(), 200);
  await annPage.click('#account-button');
  await annPage.click('#account-menu .logout-everywhere');
  await annPage.click('dialog.confirm button[value="yes"]');
  await annPage.waitForSelector('#account .login-link');
  assert.equal((await ctx.request.get(`${BASE}/api/session`)).status(), 401);
  // A refused log-in is logged by the browser itself as a failed request: that is expected here.
  assert.deepEqual(ctx.errors.filter((e) => !/status of 401/.test(e)), []);
  noErrors(annCtx);
  noErrors(benCtx);
  await ctx.close();
});

test('a login page sent on to another site stays on this one', async () => {
  const ctx = await context();
  const page = await ctx.newPage();
  // Browsers read `/\evil.example` as `//evil.example`: another site.
  await page.goto(`${BASE}/login?next=${encodeURIComponent('/\\evil.example/x')}`);
  await page.waitForSelector('form.login-card');
  await page.fill('#login-name', ANN);
  await page.fill('#login-password', PASSWORD);
  await page.press('#login-password', 'Enter');
  await page.waitForURL(/\/lobby$/);
  assert.equal(new URL(page.url()).origin, new URL(BASE).origin);
  noErrors(ctx);
  await ctx.close();
});

test('the new pages switch every visible string with the language menu', async () => {
  const ctx = await context({ reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  const neutral = (s) => s === ANN || s === BEN || /^(Mabula|API|Bullet|Blitz|[A-Z]|[1-8a-h]|[a-h][1-8]-[a-h][1-8]|\d+\.(\.\.)?)$/.test(s)
    || /^[0-9 .:,·…/()+\-–−±?sd—]+$/.test(s) || /^\d+s\+\d+$/.test(s) || /^[a-z0-9]{10}$/.test(s);
  const check = async (path, lang, ready) => {
    await page.goto(`${BASE}${path}`);
    await page.waitForSelector(ready);
    await page.selectOption('#lang-menu', 'en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    const english = (await visibleTexts(page)).filter((s) => !neutral(s));
    await page.selectOption('#lang-menu', lang);
    // The page is drawn again in the same task that sets the document's language.
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    const other = new Set(await visibleTexts(page));
    const same = english.filter((s) => other.has(s));
    assert.deepEqual(same, [], `${path} in ${lang}: strings left in English`);
    assert.ok(english.length > 5, `${path}: the page shows text`);
  };
  await check('/login', 'de', 'form.login-card');
  await check('/signup', 'it', 'form.login-card');
  await check('/lobby', 'fr', '#seeks .empty-note, #seeks .seek');
  await check(`/@/${ANN}`, 'es', '.history-item');
  await check(`/@/${BEN}`, 'ro', '.history-item');
  await check(`/game/${gameWithClock}`, 'de', '.player .clock');
  await page.selectOption('#lang-menu', 'en');
  noErrors(ctx);
  await ctx.close();
});

// Rating a game reloads it from the store: the reload must keep the timeout (it once forgot it,
// and the flagged game read as being played again).
test('a flagged game still reads as finished once it is rated', async () => {
  await new Promise((r) => setTimeout(r, 1500));
  const st = await state(gameWithClock);
  assert.equal(st.status, 'finished');
  assert.match(st.end_reason || '', /^timeout_/);
});

test('no context saw a console error', () => {
  for (const ctx of contexts.filter((c) => !c.allow401)) noErrors(ctx);
});
