// Playing together in the browser (issue 36): the final mover of a rated game sees both rating
// changes without reloading; a logged-in player's engine game is on their profile; a draw offered
// on one page and accepted on the other; the abort before the first moves; the one-click rematch
// of a lobby game; a premove played on the opponent's move; the sound switch; the game page on a
// phone held sideways (667x375) and upright.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, api, gameId, waitMoves, clickMove, state, pick } from './helpers.mjs';

let chrome;
const PASSWORD = 'marbles on the edge';
/** Names unique to this run, so the tests can run again on the same database. */
const run = Date.now().toString(36).slice(-5);

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

function noErrors(ctx) {
  assert.deepEqual(ctx.errors.filter((e) => !/status of 409/.test(e)), [], 'no console errors');
}

/** A browser context logged in as a new account `name` (signed up through the API it shares cookies with). */
async function player(name, options = {}) {
  const ctx = await chrome.context({ locale: 'en-US', ...options });
  const res = await ctx.request.post(`${BASE}/api/accounts`, { data: { name, password: PASSWORD } });
  assert.equal(res.status(), 201, await res.text());
  const { csrf } = await res.json();
  // The pages ask for the session only where this browser logged in (session.js).
  await ctx.addInitScript((n) => { try { localStorage.setItem('mabula:account', n); } catch { /* none */ } }, name);
  /** A write of this session. */
  ctx.post = async (path, body = {}) => {
    const r = await ctx.request.post(`${BASE}${path}`, { data: body, headers: { 'x-csrf-token': csrf } });
    const text = await r.text();
    if (!r.ok()) throw new Error(`POST ${path}: ${r.status()} ${text}`);
    return JSON.parse(text);
  };
  ctx.name = name;
  return ctx;
}

/** A lobby game of 5 minutes between two new accounts: `white` seeks, `black` accepts. */
async function lobbyGame(white, black, rated = true) {
  const seek = await white.post('/api/seeks', { scoring: 'largest', rated, clock: { initial_s: 300, increment_s: 0 }, color: 'white' });
  const started = await black.post(`/api/seeks/${seek.id}/accept`);
  return started.game_id;
}

/** Opens the game page of `id` in `ctx` and waits for its board and live connection. */
async function openGame(ctx, id) {
  const page = await ctx.newPage();
  await page.goto(`${BASE}/game/${id}`);
  await page.waitForSelector('main svg.board');
  await page.waitForSelector('.status-row .conn.online', { state: 'attached' });
  return page;
}

/**
 * The moves of a whole game from `start`, found by playing it out at one screen (a local game from
 * the same setup): the same deal, so the same moves are legal in the real game.
 */
async function wholeGame(start, scoring) {
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'local', setup: start, scoring } });
  let st = grant.state;
  const moves = [];
  while (st.status === 'playing') {
    const mv = pick(st, 3);
    moves.push(mv.notation);
    st = await api(`/api/games/${grant.game_id}/moves`, { method: 'POST', token: grant.token, body: { move: mv.notation, number: st.moves.length + 1 } });
  }
  return moves;
}

test('the final mover of a rated game sees both rating changes without reloading', async () => {
  const ann = await player(`Fa${run}`);
  const ben = await player(`Fb${run}`);
  const id = await lobbyGame(ann, ben);
  const first = await state(id);
  const moves = await wholeGame(first.start, first.settings.scoring);
  assert.ok(moves.length >= 2, 'a game of some moves');
  const lastSide = moves.length % 2 === 1 ? first.to_move : (first.to_move === 'white' ? 'black' : 'white');
  const mover = first.players[lastSide].name === ann.name ? ann : ben;
  const other = mover === ann ? ben : ann;
  const page = await openGame(mover, id);
  // Every move but the last through the API, each by its player's session.
  for (let i = 0; i < moves.length - 1; i++) {
    const st = await state(id);
    const who = first.players[st.to_move].name === ann.name ? ann : ben;
    await who.post(`/api/games/${id}/moves`, { move: moves[i], number: i + 1 });
  }
  await waitMoves(page, moves.length - 1, 30000);
  await page.waitForSelector('main svg.board .can-move');
  const last = (await state(id)).legal_moves.find((m) => m.notation === moves[moves.length - 1]);
  assert.ok(last && last.from, 'the final move is a push');
  await clickMove(page, last);
  // Both rating changes appear on the final mover's page, without a reload.
  await page.waitForFunction(() => document.querySelectorAll('.player .rating-diff').length === 2, null, { timeout: 15000 });
  const st = await state(id);
  assert.equal(st.status, 'finished');
  assert.notEqual(st.players.white.rating_diff, null);
  assert.notEqual(st.players.black.rating_diff, null);
  const shown = await page.locator(`.player[data-colour="${lastSide}"] .rating-diff`).innerText();
  assert.equal(Number(shown.replace('−', '-')), st.players[lastSide].rating_diff);
  await page.screenshot({ path: join(SHOTS, 'playing-final-mover-rated.png') });
  noErrors(mover);
  await mover.close();
  await other.close();
});

test('a logged-in player’s engine game names them and is on their profile', async () => {
  const name = `Eg${run}`;
  const ctx = await player(name);
  const page = await ctx.newPage();
  await page.goto(`${BASE}/`);
  await page.click('label.opponent:has(input[value="engine"])');
  await page.click('form.newgame button[type="submit"]');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('main svg.board .can-move');
  const id = gameId(page);
  const st = await state(id);
  const mine = st.players.white?.name === name ? 'white' : 'black';
  assert.equal(st.players[mine].name, name);
  assert.equal(st.rated, false);
  assert.equal(await page.locator(`.player[data-colour="${mine}"] .name`).innerText(), name);
  await clickMove(page, pick(st));
  await waitMoves(page, 1);
  await page.goto(`${BASE}/@/${name}`);
  await page.waitForSelector(`a.history-item[href="/game/${id}"]`);
  await page.screenshot({ path: join(SHOTS, 'playing-profile-engine-game.png') });
  noErrors(ctx);
  await ctx.close();
});

test('a draw offered on one page is announced on the other, declined, offered again and accepted; the rematch is one click', async () => {
  const ann = await player(`Da${run}`);
  const ben = await player(`Db${run}`);
  const id = await lobbyGame(ann, ben);
  const annPage = await openGame(ann, id);
  const benPage = await openGame(ben, id);
  // Two moves, one each, from the pages.
  for (const [n, page] of [[1, annPage], [2, benPage]]) {
    await page.waitForSelector('main svg.board .can-move');
    await clickMove(page, pick(await state(id)));
    await waitMoves(annPage, n);
    await waitMoves(benPage, n);
  }
  // Ann offers: Ben's page shows the offer and says it aloud.
  await annPage.click('.actions .draw-button');
  await annPage.waitForSelector('.actions .draw-button[disabled]');
  await benPage.waitForSelector('.draw-banner .draw-accept');
  await benPage.waitForFunction(() => /offers a draw/.test(document.getElementById('announcer')?.textContent || ''));
  await benPage.screenshot({ path: join(SHOTS, 'playing-draw-offered.png') });
  // Ben declines: Ann hears it, and may not offer again at once.
  await benPage.click('.draw-banner .draw-decline');
  await annPage.waitForSelector('.actions .draw-button:not([disabled])');
  await annPage.waitForFunction(() => /declined/.test(document.getElementById('announcer')?.textContent || ''));
  await benPage.waitForSelector('.draw-banner', { state: 'detached' });
  // Ben offers (his offer was never declined); Ann accepts on her page: a draw on both.
  await benPage.click('.actions .draw-button');
  await annPage.click('.draw-banner .draw-accept');
  for (const page of [annPage, benPage]) {
    await page.waitForSelector('dialog.end-dialog[open]');
    assert.match(await page.locator('dialog.end-dialog[open]').innerText(), /Draw/);
    assert.match(await page.locator('dialog.end-dialog[open]').innerText(), /agreed to a draw/);
  }
  const st = await state(id);
  assert.equal(st.end_reason, 'draw_agreed');
  // The rematch: one click from the end dialog, the other player joins from the banner.
  await benPage.locator('dialog.end-dialog[open] button:has-text("Rematch")').click();
  await benPage.waitForURL((url) => !url.pathname.endsWith(id));
  const second = gameId(benPage);
  await annPage.keyboard.press('Escape');
  await annPage.waitForSelector('.banner button:has-text("Accept the rematch")');
  await annPage.click('.banner button:has-text("Accept the rematch")');
  await annPage.waitForURL(`${BASE}/game/${second}`);
  const next = await state(second);
  assert.equal(next.rated, true);
  assert.equal(next.clock.label, '5+0');
  assert.equal(next.players.white.name, st.players.black.name, 'colours swapped');
  // Before both sides have moved, the rematch can be aborted from the page.
  await annPage.waitForSelector('.actions .abort-button');
  await annPage.screenshot({ path: join(SHOTS, 'playing-abort-button.png') });
  await annPage.click('.actions .abort-button');
  await benPage.waitForSelector('dialog.end-dialog[open]');
  assert.match(await benPage.locator('dialog.end-dialog[open]').innerText(), /aborted/i);
  assert.equal((await state(second)).end_reason, 'aborted');
  noErrors(ann);
  noErrors(ben);
  await ann.close();
  await ben.close();
});

/** Whether `mv` is a push up or down a file (from the first or last rank). */
const vertical = (mv) => mv.from && (mv.from[1] === '1' || mv.from[1] === '8') && mv.from[0] === mv.to[0];

test('a premove chosen on the opponent’s turn is played when their move arrives; Escape cancels one', async () => {
  const annCtx = await chrome.context({ locale: 'en-US' });
  const benCtx = await chrome.context({ locale: 'en-US' });
  const annPage = await annCtx.newPage();
  await annPage.goto(`${BASE}/`);
  await annPage.click('label.opponent:has(input[value="friend"])');
  await annPage.click('form.newgame button[type="submit"]');
  await annPage.waitForURL(/\/game\//);
  const id = gameId(annPage);
  const link = await annPage.locator('input.join-link').inputValue();
  const benPage = await benCtx.newPage();
  await benPage.goto(link);
  await benPage.waitForSelector('main svg.board');
  await annPage.waitForSelector('.status-row .conn.online', { state: 'attached' });
  const first = await state(id);
  const me = first.to_move;
  const annMoves = first.legal_moves.filter(vertical);
  // Ann's first move and her premove push up or down two different files: one does not touch the other.
  const a = annMoves[0];
  const b = annMoves.find((mv) => mv.from[0] !== a.from[0]);
  assert.ok(a && b, 'two pushes on different files');
  await annPage.waitForSelector('main svg.board .can-move');
  await clickMove(annPage, a);
  await waitMoves(benPage, 1);
  // On Ben's turn Ann's board offers premoves; one chosen, then cancelled with Escape.
  await annPage.waitForSelector('main svg.board .can-premove');
  assert.equal(await annPage.locator('main svg.board .can-move').count(), 0, 'no move of her own turn');
  const c = annMoves.find((mv) => mv.from[0] !== a.from[0] && mv.from !== b.from) || b;
  await clickMove(annPage, c);
  await annPage.waitForSelector('.preview-note:has-text("Premove")');
  await annPage.keyboard.press('Escape');
  await annPage.waitForFunction(() => /cancelled/.test(document.getElementById('announcer')?.textContent || ''));
  // The premove for real.
  await annPage.waitForSelector('main svg.board .can-premove');
  await clickMove(annPage, b);
  await annPage.waitForSelector(`.preview-note:has-text("Premove ${b.notation}")`);
  await annPage.screenshot({ path: join(SHOTS, 'playing-premove.png') });
  // Ben pushes up or down a third file: Ann's premove is still legal and goes at once.
  const now = await state(id);
  const benMove = now.legal_moves.filter(vertical).find((mv) => mv.from[0] !== b.from[0]);
  assert.ok(benMove, 'a push of Ben’s away from the premove’s file');
  await benPage.waitForSelector('main svg.board .can-move');
  await clickMove(benPage, benMove);
  await waitMoves(benPage, 3);
  const after = await state(id);
  assert.equal(after.moves[2].notation, b.notation);
  assert.equal(after.moves[2].side, me);
  noErrors(annCtx);
  noErrors(benCtx);
  await annCtx.close();
  await benCtx.close();
});

test('moves sound through Web Audio until the sound switch, reached by keyboard, mutes them; the choice is remembered', async () => {
  const ctx = await chrome.context({ locale: 'en-US' });
  // Counts the tones the page starts.
  await ctx.addInitScript(() => {
    /** @type {any} */ (window).tones = 0;
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function createOscillator() {
      /** @type {any} */ (window).tones += 1;
      return make.call(this);
    };
  });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/`);
  await page.click('label.opponent:has(input[value="engine"])');
  await page.click('form.newgame button[type="submit"]');
  await page.waitForURL(/\/game\//);
  const id = gameId(page);
  await page.waitForSelector('main svg.board .can-move');
  await clickMove(page, pick(await state(id)));
  await waitMoves(page, 2);
  await page.waitForFunction(() => /** @type {any} */ (window).tones >= 2);
  // The switch: a labelled checkbox, turned off with the keyboard.
  const box = page.getByRole('checkbox', { name: 'Sound' });
  assert.equal(await box.isChecked(), true);
  await box.focus();
  await page.keyboard.press('Space');
  assert.equal(await box.isChecked(), false);
  assert.equal(await page.evaluate(() => localStorage.getItem('mabula:sound')), '0');
  const before = await page.evaluate(() => /** @type {any} */ (window).tones);
  await page.waitForSelector('main svg.board .can-move');
  await clickMove(page, pick(await state(id)));
  await waitMoves(page, 4);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).tones), before, 'muted');
  await page.reload();
  await page.waitForSelector('main svg.board');
  assert.equal(await page.getByRole('checkbox', { name: 'Sound' }).isChecked(), false, 'remembered');
  noErrors(ctx);
  await ctx.close();
});

test('on a phone held sideways (667x375) and upright (375x667) the game page does not scroll sideways and shows the whole board', async () => {
  const ann = await player(`La${run}`);
  const ben = await player(`Lb${run}`);
  const id = await lobbyGame(ann, ben);
  for (const [width, height] of [[667, 375], [375, 667]]) {
    const phone = await player(`P${width}${run}`, { viewport: { width, height }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    // A player's page (the account's name in the top bar, clocks in the panel).
    await phone.addCookies((await ann.cookies()).map((c) => ({ ...c })));
    await phone.addInitScript((n) => { try { localStorage.setItem('mabula:account', n); } catch { /* none */ } }, ann.name);
    const page = await phone.newPage();
    await page.goto(`${BASE}/game/${id}`);
    await page.waitForSelector('main svg.board .can-move');
    await page.waitForSelector('.player .clock');
    const box = await page.evaluate(() => {
      const b = document.querySelector('main svg.board').getBoundingClientRect();
      return { sw: document.documentElement.scrollWidth, iw: innerWidth, ih: innerHeight, left: b.left, top: b.top, right: b.right, bottom: b.bottom };
    });
    assert.equal(box.iw, width, 'the page is not laid out wider than the screen');
    assert.ok(box.sw <= box.iw, `no sideways scrolling (${box.sw} > ${box.iw})`);
    assert.ok(box.left >= 0 && box.top >= 0 && box.right <= box.iw && box.bottom <= box.ih, `the whole board is in view: ${JSON.stringify(box)}`);
    assert.ok(box.right - box.left >= 250, `the board is not tiny: ${JSON.stringify(box)}`);
    await page.screenshot({ path: join(SHOTS, `playing-phone-${width}x${height}.png`) });
    if (height > width) {
      // The first move's countdown is in view with the board (issue 52: it was below the fold).
      const note = await page.evaluate(() => {
        const line = document.querySelector('.player.to-move .first-move');
        return line && /^First move: \d:\d\d$/.test(line.textContent || '') ? line.getBoundingClientRect().bottom : null;
      });
      assert.ok(note !== null && note <= box.ih, `the countdown is in view: ${note} of ${box.ih}`);
    }
    noErrors(phone);
    await phone.close();
  }
  await ann.close();
  await ben.close();
});

test('a player\'s games being played are on the home page and the top bar of a new device (issue 52)', async () => {
  // The home page's list was the browser's own: a new device said no game was being played.
  const ana = await player(`ana${run}`);
  const bob = await player(`bob${run}`);
  const live = await lobbyGame(ana, bob);
  const seek = await bob.post('/api/seeks', { scoring: 'product', rated: false, days: 2, color: 'white' });
  const letter = (await ana.post(`/api/seeks/${seek.id}/accept`)).game_id;

  const device = await chrome.context({ locale: 'en-US' });
  const page = await device.newPage();
  await page.goto(`${BASE}/login`);
  await page.waitForSelector('form.login-card');
  await page.fill('#login-name', ana.name);
  await page.fill('#login-password', PASSWORD);
  await page.click('form.login-card button[type="submit"]');
  await page.waitForSelector('#account-button');
  await page.goto(`${BASE}/`);
  // Her move first, then the game where her opponent is to move.
  await page.waitForFunction(() => document.querySelectorAll('.game-list.mine a.game-item[href^="/game/"]').length === 2);
  const items = await page.locator('.game-list.mine a.game-item').evaluateAll((links) => links.map((a) => ({ href: a.getAttribute('href'), text: a.textContent })));
  assert.equal(items[0].href, `/game/${live}`);
  assert.match(items[0].text, new RegExp(`against bob${run} \\(1500\\?\\).*Your move`));
  assert.equal(items[1].href, `/game/${letter}`);
  assert.match(items[1].text, /2 days.*Their move/);
  // The top bar counts the games waiting for her move and leads to the most urgent one.
  const count = page.locator('#turn-count');
  await count.waitFor();
  assert.equal(await count.textContent(), '1');
  assert.equal(await count.getAttribute('aria-label'), '1 game waits for your move');
  await page.screenshot({ path: join(SHOTS, 'home-playing.png') });
  await count.click();
  await page.waitForURL(`${BASE}/game/${live}`);
  await page.waitForSelector('main svg.board');
  noErrors(device);
  await device.close();
  await ana.close();
  await bob.close();
});

test('the end dialog shows both ratings and their changes whole beside long names (issue 52)', async () => {
  // A long name pushed the rating change out of its cell ("1189? ...").
  const ann = await player(`Longnamedplayer${run}`);
  const ben = await player(`Longnamedplayez${run}`);
  const id = await lobbyGame(ann, ben);
  for (let i = 0; i < 2; i++) {
    const st = await state(id);
    const who = st.players[st.to_move].name === ann.name ? ann : ben;
    await who.post(`/api/games/${id}/moves`, { move: pick(st).notation, number: i + 1 });
  }
  const page = await openGame(ann, id);
  await ben.post(`/api/games/${id}/resign`);
  await page.waitForFunction(() => document.querySelectorAll('.player .rating-diff').length === 2, null, { timeout: 15000 });
  // The dialog as it opens once the game is rated: the first one closed, and opened again.
  await page.waitForSelector('dialog.end-dialog[open]');
  await page.click('dialog.end-dialog[open] button:has-text("Close")');
  await page.waitForSelector('dialog.end-dialog[open]', { state: 'detached' });
  await page.click('.result-button');
  await page.waitForFunction(() => document.querySelectorAll('dialog.end-dialog[open] .rating-diff').length === 2);
  const cut = await page.$$eval('dialog.end-dialog[open] .score-table tbody th', (cells) => cells.map((th) => th.scrollWidth > th.clientWidth));
  assert.deepEqual(cut, [false, false], 'no cell cut');
  // The top bar no longer counts the finished game as waiting for her move.
  await page.waitForSelector('#turn-count', { state: 'hidden' });
  await page.screenshot({ path: join(SHOTS, 'playing-end-dialog-long-names.png') });
  noErrors(ann);
  await ann.close();
  await ben.close();
});
