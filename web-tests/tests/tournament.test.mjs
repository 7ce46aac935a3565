// Tournaments in the browser (issue 37): two players sign up in two contexts; one creates a
// one-round Swiss of single games from the /tournaments form (its own check of the name first),
// both join from the tournament's page and see the countdown and each other in the standings,
// the creator starts it, each is taken to their paired game (or opens it from the page), the
// game links back to its tournament, White pushes a marble through the board, Black resigns, the
// end dialog leads back to the tournament, and both see the standings change and the winner.
// Screenshots: the page on a desktop and a phone (390x844) both ways up, and the list.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, waitTurn, clickMove, pick, state, gameId, advanceClock } from './helpers.mjs';

let chrome;
const PASSWORD = 'marbles on the edge';
const run = Date.now().toString(36).slice(-5);
const ALICE = `Tia${run}`;
const BORIS = `Tib${run}`;
const contexts = [];

before(async () => {
  chrome = await launch();
});

after(async () => {
  for (const ctx of contexts) await ctx.close().catch(() => {});
  await chrome?.close();
});

/** Signs up in a new context; answers the page once the account shows. */
async function signedUp(name, options = {}) {
  const ctx = await chrome.context({ locale: 'en-US', reducedMotion: 'reduce', ...options });
  contexts.push(ctx);
  const page = await ctx.newPage();
  await page.goto(`${BASE}/signup`);
  await page.waitForSelector('form.login-card');
  await page.fill('#login-name', name);
  await page.fill('#login-password', PASSWORD);
  await page.click('form.login-card button[type="submit"]');
  await page.waitForURL(/\/lobby/);
  await page.waitForSelector('#account-button');
  return { ctx, page };
}

/** The standings as the page shows them: `{ name, points }` by row. */
function standings(page) {
  return page.$$eval('.standings-table tbody tr[data-name]', (rows) => rows.map((r) => ({
    name: /** @type {HTMLElement} */ (r).dataset.name,
    points: r.querySelector('.points')?.textContent,
  })));
}

/** Waits until `name`'s row in the standings shows `points`. */
function waitPoints(page, name, points) {
  return page.waitForFunction(([n, p]) => document.querySelector(`.standings-table tr[data-name="${n}"] .points`)?.textContent === p, [name, points]);
}

/** From the tournament page to the player's game: the socket takes them, or the page's button. */
async function toMyGame(page) {
  const where = await page.waitForFunction(() => (location.pathname.startsWith('/game/') ? 'game' : document.querySelector('a.play-now') ? 'button' : false));
  // Clicked in the page, at once: the socket may take the player there meanwhile (the button
  // then goes, and nothing is clicked).
  if (await where.jsonValue() === 'button') await page.evaluate(() => document.querySelector('a.play-now')?.click());
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  await page.waitForSelector('main svg.board');
  return gameId(page);
}

test('two players join a tournament, see the countdown, play their game from it and see the standings change', async () => {
  const a = await signedUp(ALICE);
  const b = await signedUp(BORIS);

  // The list, reached from the top bar; the form checks the name before the server sees it.
  await a.page.click('nav.mainnav a[href="/tournaments"]');
  await a.page.waitForSelector('form.tour-form');
  assert.equal(await a.page.locator('nav.mainnav a[href="/tournaments"]').getAttribute('aria-current'), 'page');
  await a.page.fill('#tour-name', 'ab');
  await a.page.click('form.tour-form button[type="submit"]');
  await a.page.waitForSelector('#tour-name-error:not(:empty)');
  assert.equal(await a.page.locator('#tour-name').getAttribute('aria-invalid'), 'true');
  assert.equal(await a.page.evaluate(() => document.activeElement?.id), 'tour-name', 'the field at fault has the focus');

  const name = `Cup ${run}`;
  await a.page.fill('#tour-name', name);
  await a.page.click('label:has(input[name="format"][value="swiss"])');
  await a.page.fill('#tour-rounds', '1');
  await a.page.locator('input[name="duplicate"]').uncheck();
  await a.page.selectOption('#tour-clock', '60+1');
  await a.page.selectOption('#tour-start', '10');
  await a.page.click('form.tour-form button[type="submit"]');
  await a.page.waitForURL(/\/tournament\/[A-Za-z0-9_-]+$/);
  const id = new URL(a.page.url()).pathname.split('/').pop();
  await a.page.waitForSelector('.tour-name');
  assert.equal(await a.page.locator('.tour-name').textContent(), name);
  assert.match(await a.page.locator('.tour-settings').textContent(), /Swiss · 1 round · 1\+1/);

  // The countdown runs before the start.
  await a.page.waitForFunction(() => /^Starts in \d+:\d\d$/.test(document.querySelector('.tour-countdown')?.textContent || ''));
  const first = await a.page.locator('.tour-countdown').textContent();
  await a.page.waitForFunction((was) => document.querySelector('.tour-countdown')?.textContent !== was, first);
  await a.page.waitForSelector('.conn.online');

  // Both join from the page; each sees the other arrive through the socket.
  await a.page.click('.join-button');
  await a.page.waitForSelector(`.standings-table tr[data-name="${ALICE}"]`);
  await a.page.waitForSelector('.withdraw-button');
  await b.page.goto(`${BASE}/tournament/${id}`);
  await b.page.waitForSelector('.conn.online');
  assert.match(await b.page.locator('.tour-countdown').textContent(), /^Starts in \d+:\d\d$/);
  assert.equal(await b.page.locator('.start-button').count(), 0, 'only the creator may start it');
  // Bob joins by the keyboard: Tab reaches the button (with a visible focus ring), Enter presses it.
  let tabs = 0;
  while (!(await b.page.evaluate(() => document.activeElement?.classList.contains('join-button')))) {
    assert.ok(++tabs < 40, 'the Join button is reachable by Tab');
    await b.page.keyboard.press('Tab');
  }
  assert.notEqual(await b.page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle), 'none', 'a visible focus');
  await b.page.keyboard.press('Enter');
  await b.page.waitForSelector(`.standings-table tr[data-name="${BORIS}"]`);
  await a.page.waitForSelector(`.standings-table tr[data-name="${BORIS}"]`);
  assert.equal(await a.page.locator('.standings-table thead th[scope="col"]').count() >= 5, true, 'column headers');
  await a.page.screenshot({ path: join(SHOTS, 'tournament-before.png'), fullPage: true });

  // The creator starts it; each player is taken to their game.
  await a.page.click('.start-button');
  const [ga, gb] = await Promise.all([toMyGame(a.page), toMyGame(b.page)]);
  assert.equal(ga, gb, 'the two players are paired in one game');
  for (const p of [a.page, b.page]) {
    await p.waitForSelector('a.tour-back:not([hidden])');
    assert.equal(await p.locator('a.tour-back').getAttribute('href'), `/tournament/${id}`);
  }
  // A tournament game offers no abort, and says what a missed first move brings (issue 52).
  await a.page.waitForSelector('.abort-note:not(.claim-note):not([hidden])');
  for (const p of [a.page, b.page]) {
    assert.equal(await p.locator('.abort-button').count(), 0, 'no abort in a tournament game');
    assert.match(await p.textContent('.abort-note:not(.claim-note)') ?? '', /called off and counts as missed/);
  }

  // White pushes a marble through the board; Black resigns.
  const st = await state(ga);
  const white = st.players?.white?.name;
  assert.ok(white === ALICE || white === BORIS, `White is a player (${white})`);
  const [wp, bp] = white === ALICE ? [a.page, b.page] : [b.page, a.page];
  const blackName = white === ALICE ? BORIS : ALICE;
  assert.equal(await waitTurn(wp), 'move');
  await clickMove(wp, pick(st));
  await bp.waitForFunction(() => document.querySelectorAll('.movelist button[data-number]:not([data-number="0"])').length >= 1);
  await bp.waitForSelector('.resign-button');
  await wp.screenshot({ path: join(SHOTS, 'tournament-game.png') });
  await bp.click('.resign-button');
  await bp.click('dialog.confirm button[value="yes"]');

  // The end dialog leads back to the tournament; both see the result in the standings.
  for (const p of [wp, bp]) {
    await p.waitForSelector('dialog.end-dialog[open]');
    await p.click('dialog.end-dialog[open] a[href^="/tournament/"]');
    await p.waitForURL(new RegExp(`/tournament/${id}$`));
    await waitPoints(p, white, '1');
    await waitPoints(p, blackName, '0');
  }
  await wp.waitForSelector('.podium:not([hidden])');
  assert.match(await wp.locator('.tour-phase').textContent(), /Finished/);
  assert.equal(await wp.locator('.podium .place-1 a').textContent(), white);
  assert.deepEqual((await standings(bp)).map((r) => r.name), [white, blackName]);
  // The round lists the game with its result, linked to its replay.
  const link = bp.locator(`.pairings a.game-link[data-game="${ga}"]`);
  assert.equal(await link.textContent(), '1–0');
  assert.equal(await link.getAttribute('href'), `/replay/${ga}`);
  assert.equal(await wp.locator('a.download-games').getAttribute('href'), `/api/tournaments/${id}/games`);
  await wp.screenshot({ path: join(SHOTS, 'tournament.png'), fullPage: true });

  // The record file of the tournament's games.
  const record = await fetch(`${BASE}/api/tournaments/${id}/games`);
  assert.equal(record.status, 200);
  assert.ok((await record.text()).length > 0, 'a record file');

  // Profiles list the tournament.
  await wp.goto(`${BASE}/@/${white}`);
  await wp.waitForSelector(`#profile-tournaments a[href="/tournament/${id}"]`);

  // A phone, both ways up, and the list.
  const phone = await chrome.context({ locale: 'en-US', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  contexts.push(phone);
  const pp = await phone.newPage();
  await pp.goto(`${BASE}/tournament/${id}`);
  await pp.waitForSelector('.podium:not([hidden])');
  assert.ok(await pp.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling on a phone');
  await pp.screenshot({ path: join(SHOTS, 'tournament-phone.png'), fullPage: true });
  await pp.setViewportSize({ width: 844, height: 390 });
  await pp.waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth);
  await pp.screenshot({ path: join(SHOTS, 'tournament-phone-landscape.png') });
  await pp.setViewportSize({ width: 390, height: 844 });
  await pp.goto(`${BASE}/tournaments`);
  await pp.waitForSelector(`#tour-finished a[href="/tournament/${id}"]`);
  await pp.screenshot({ path: join(SHOTS, 'tournaments-phone.png'), fullPage: true });
  await a.page.goto(`${BASE}/tournaments`);
  await a.page.waitForSelector(`#tour-finished a[href="/tournament/${id}"]`);
  assert.match(await a.page.locator(`#tour-finished li[data-id="${id}"]`).textContent(), new RegExp(`Won by ${white}`));
  await a.page.screenshot({ path: join(SHOTS, 'tournaments.png'), fullPage: true });

  for (const ctx of [a.ctx, b.ctx, phone]) {
    assert.deepEqual(ctx.errors.filter((e) => !/status of 4\d\d/.test(e)), [], 'no console errors');
  }
});

test('a duplicate pair played at once shows both boards on one page, calls for each move, and is played to its end', async () => {
  const a = await signedUp(`Tic${run}`);
  // The second player is on an upright phone.
  const b = await signedUp(`Tid${run}`, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  // A one-round Swiss of duplicate pairs, played at once (the form's default).
  await a.page.goto(`${BASE}/tournaments`);
  await a.page.waitForSelector('form.tour-form');
  await a.page.fill('#tour-name', `Pair ${run}`);
  await a.page.click('label:has(input[name="format"][value="swiss"])');
  await a.page.fill('#tour-rounds', '1');
  assert.ok(await a.page.locator('input[name="duplicate"]').isChecked(), 'duplicate pairs by default');
  assert.equal(await a.page.locator('input[name="sequential"]').isChecked(), false, 'played at once by default');
  await a.page.selectOption('#tour-clock', '60+1');
  await a.page.click('form.tour-form button[type="submit"]');
  await a.page.waitForURL(/\/tournament\/[A-Za-z0-9_-]+$/);
  const id = new URL(a.page.url()).pathname.split('/').pop();
  await a.page.waitForSelector('.conn.online');
  await a.page.click('.join-button');
  await a.page.waitForSelector('.withdraw-button');
  await b.page.goto(`${BASE}/tournament/${id}`);
  await b.page.waitForSelector('.conn.online');
  await b.page.click('.join-button');
  await a.page.waitForSelector(`.standings-table tr[data-name="Tid${run}"]`);

  // Each player lands on one game of the pair and sees the other one beside it.
  await a.page.click('.start-button');
  const toPair = async (page) => {
    await toMyGame(page);
    await page.waitForSelector('.twin-box .twin-game svg.board');
    return { main: gameId(page), twin: await page.getAttribute('.twin-box', 'data-game') };
  };
  const [pa, pb] = await Promise.all([toPair(a.page), toPair(b.page)]);
  assert.notEqual(pa.main, pa.twin);
  assert.deepEqual(new Set([pa.main, pa.twin]), new Set([pb.main, pb.twin]), 'both see the same two games');
  for (const p of [a.page, b.page]) {
    assert.equal(await p.locator('main svg.board').count(), 2, 'two boards on the page');
    assert.match(await p.textContent('.twin-head'), /^Your other board: you play (White|Black)$/);
    const note = await p.textContent('.pair-banner');
    assert.match(note, /played at once/);
    assert.doesNotMatch(note, /played again/, 'no promise of a later game');
  }

  // Who plays what: each person is White in one game and Black in the other.
  // The first game of the pair, then the second.
  const games = (await state(pa.main)).settings.pair_half === 'first' ? [pa.main, pa.twin] : [pa.twin, pa.main];
  const pages = { [`Tic${run}`]: a, [`Tid${run}`]: b };
  /** The page of `colour` in game `g`, and the selector of that game's board and actions there. */
  const seat = async (g, colour) => {
    const name = (await state(g)).players[colour].name;
    const who = pages[name];
    const onMain = gameId(who.page) === g;
    return { who, name, scope: onMain ? 'main section.game > .board-col' : '.twin-box', actions: onMain ? 'main section.game > .actions' : '.twin-box .actions',
      status: onMain ? 'main section.game > .status-row .status' : '.twin-box .status' };
  };

  // Two moves on each board: White's, then Black's. Each waits for the page to offer the move.
  for (const colour of ['white', 'black']) {
    for (const g of games) {
      const s = await seat(g, colour);
      if (s.who === b && s.scope === '.twin-box') {
        // On the phone the other board is below the fold: the page calls, and shows it.
        await b.page.evaluate(() => window.scrollTo(0, 0));
        await b.page.waitForSelector('.pair-call:not([hidden])');
        assert.equal(await b.page.textContent('.pair-call span'), 'Your move on your other board.');
        await b.page.click('.pair-call button');
        // The other board is in sight now: the call is gone, or calls for the first board.
        await b.page.waitForFunction(() => {
          const call = document.querySelector('.pair-call');
          return call?.hidden || call?.textContent?.includes('first board');
        });
      }
      await s.who.page.waitForSelector(`${s.scope} svg.board .can-move`);
      await clickMove(s.who.page, pick(await state(g)), { board: `${s.scope} svg.board.interactive` });
      await s.who.page.waitForSelector(`${s.status}:not(.yours)`);
    }
  }
  await a.page.screenshot({ path: join(SHOTS, 'tournament-pair.png') });
  await b.page.evaluate(() => window.scrollTo(0, 0));
  await b.page.screenshot({ path: join(SHOTS, 'tournament-pair-phone.png'), fullPage: true });
  assert.ok(await b.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling on a phone');

  // The first game ends: no end dialog yet, the other board is still played.
  const [g1, g2] = games;
  const black1 = await seat(g1, 'black');
  await black1.who.page.click(`${black1.actions} .resign-button`);
  await black1.who.page.click('dialog.confirm button[value="yes"]');
  for (const p of [a.page, b.page]) {
    await p.waitForFunction((g) => {
      const box = document.querySelector('.twin-box');
      const mainGame = location.pathname.endsWith(g) ? document.querySelector('main section.game > .status-row') : box?.querySelector('.status-row');
      return /resign/i.test(mainGame?.textContent || '');
    }, g1);
    assert.equal(await p.locator('dialog.end-dialog[open]').count(), 0, 'no end dialog while the pair goes on');
  }
  // The second ends the other way: White resigns. The end dialog then gives the pair's result.
  const white2 = await seat(g2, 'white');
  await white2.who.page.click(`${white2.actions} .resign-button`);
  await white2.who.page.click('dialog.confirm button[value="yes"]');
  const winner = (await state(g1)).players.white.name;
  for (const [name, { page: p }] of Object.entries(pages)) {
    await p.waitForSelector('dialog.end-dialog[open] .pair-result');
    const you = name === winner ? 2 : 0;
    assert.match(await p.textContent('dialog.end-dialog[open] .pair-result'), new RegExp(`You\\s*${you}\\s*Your opponent\\s*${2 - you}\\s*Game 1: 1-0 · game 2: 0-1`));
  }
  await a.page.click('dialog.end-dialog[open] a[href^="/tournament/"]');
  await a.page.waitForURL(new RegExp(`/tournament/${id}$`));
  await a.page.waitForSelector('.podium:not([hidden])');
  assert.equal(await a.page.locator('.podium .place-1 a').textContent(), winner, 'who won both games wins');
  for (const ctx of [a.ctx, b.ctx]) {
    assert.deepEqual(ctx.errors.filter((e) => !/status of 4\d\d/.test(e)), [], 'no console errors');
  }
});

test('an arena of two: a game that begins elsewhere is called, never taken to; a missed start pauses; one leaves; it ends', async () => {
  const a = await signedUp(`Tia${run}x`);
  const b = await signedUp(`Tib${run}x`);
  const [nameA, nameB] = [`Tia${run}x`, `Tib${run}x`];
  await a.page.goto(`${BASE}/tournaments`);
  await a.page.waitForSelector('form.tour-form');
  await a.page.fill('#tour-name', `Arena ${run}`);
  await a.page.click('label:has(input[name="format"][value="arena"])');
  await a.page.fill('#tour-minutes', '10');
  await a.page.selectOption('#tour-clock', '60+1');
  await a.page.click('form.tour-form button[type="submit"]');
  await a.page.waitForURL(/\/tournament\/[A-Za-z0-9_-]+$/);
  const id = new URL(a.page.url()).pathname.split('/').pop();
  for (const p of [a.page, b.page]) {
    if (p === b.page) await p.goto(`${BASE}/tournament/${id}`);
    await p.waitForSelector('.conn.online');
    await p.click('.join-button');
    await p.waitForSelector('.pause-button');
  }
  await a.page.waitForSelector(`.standings-table tr[data-name="${nameB}"]`);

  // The first game: both are on the tournament's page, which takes them there. Black resigns.
  await a.page.click('.start-button');
  const [g1] = await Promise.all([toMyGame(a.page), toMyGame(b.page)]);
  const st1 = await state(g1);
  const [w1, b1] = st1.players.white.name === nameA ? [a, b] : [b, a];
  assert.equal(await waitTurn(w1.page), 'move');
  await clickMove(w1.page, pick(st1));
  await b1.page.waitForSelector('.resign-button');
  await b1.page.click('.resign-button');
  await b1.page.click('dialog.confirm button[value="yes"]');

  // The next game begins while both are on the first game's page: each is called to it, with the
  // time left for the first move, and stays where they are.
  for (const p of [a.page, b.page]) {
    await p.waitForSelector('dialog.end-dialog[open]');
    await p.keyboard.press('Escape');
    await p.waitForSelector('.tour-call-float .call-left:not(:empty)');
    assert.match(await p.textContent('.tour-call-float'), new RegExp(`Your tournament game against (${nameA}|${nameB}) has begun\\.\\s*First move within 0:[0-3]\\d\\.`));
    assert.equal(gameId(p), g1, 'not taken to the new game');
  }
  await a.page.screenshot({ path: join(SHOTS, 'arena-call.png') });
  // Bob leaves for the puzzles; the call goes with him, and his clicks there stay his own.
  await b.page.click('nav.mainnav a[href="/puzzles"]');
  await b.page.waitForURL(/\/puzzles/);
  await b.page.waitForSelector('main svg.board');
  assert.equal(await b.page.locator('.tour-call-float').count(), 1, 'still called');
  const g2 = (await b.page.getAttribute('.tour-call-float a.btn.primary', 'href')).split('/').pop();
  assert.notEqual(g2, g1);
  // Ann goes to the new game. If she is White she moves; either way Bob misses his first move.
  await a.page.click('.tour-call-float a.btn.primary');
  await a.page.waitForURL(new RegExp(`/game/${g2}$`));
  await a.page.waitForSelector('main svg.board');
  const st2 = await state(g2);
  if (st2.players.white.name === nameA) {
    assert.equal(await waitTurn(a.page), 'move');
    await clickMove(a.page, pick(st2));
    // The server has the move before its clock moves on (else Bob's deadline is counted from it).
    while ((await state(g2)).moves.length < 1) await new Promise((resolve) => { setImmediate(resolve); });
  }
  advanceClock(31_000);
  // Called off, not lost: no result, no rating change, and Bob is paused.
  await a.page.waitForFunction(() => /called off|aborted/i.test(document.querySelector('main section.game > .status-row .status')?.textContent || ''));
  assert.equal((await state(g2)).end_reason, 'aborted');
  await b.page.waitForSelector('.tour-call-float .call-left:text("Its first move was missed.")');
  assert.match(new URL(b.page.url()).pathname, /^\/puzzles/, 'Bob was never taken away from his puzzle');
  await a.page.goto(`${BASE}/tournament/${id}`);
  await a.page.waitForSelector(`.standings-table tr[data-name="${nameB}"] .paused-mark`);
  await a.page.waitForSelector(`.pairings a.game-link[data-game="${g2}"]:text("called off")`);

  // Bob comes back from the tournament's page and is paired with Ann again. He leaves the arena
  // (in another tab: the game under way stands), then resigns it.
  await b.page.click('.tour-call-float button');
  await b.page.goto(`${BASE}/tournament/${id}`);
  await b.page.waitForSelector('.paused-note');
  await b.page.screenshot({ path: join(SHOTS, 'arena-paused.png'), fullPage: true });
  await b.page.click('.join-button');
  const [g3, g3b] = await Promise.all([toMyGame(a.page), toMyGame(b.page)]);
  assert.equal(g3, g3b);
  assert.notEqual(g3, g2);
  const tab = await b.ctx.newPage();
  await tab.goto(`${BASE}/tournament/${id}`);
  await tab.waitForSelector('.withdraw-button');
  await tab.click('.withdraw-button');
  await tab.waitForSelector(`.standings-table tr[data-name="${nameB}"] .withdrawn-mark`);
  await tab.close();
  await b.page.waitForSelector('.resign-button');
  await b.page.click('.resign-button');
  await b.page.click('dialog.confirm button[value="yes"]');
  await b.page.waitForSelector('dialog.end-dialog[open]');
  await b.page.click('dialog.end-dialog[open] a[href^="/tournament/"]');
  await b.page.waitForSelector(`.standings-table tr[data-name="${nameB}"] .withdrawn-mark`);

  // Ann alone is paired with nobody; the arena's ten minutes pass, and it ends with her first.
  await a.page.goto(`${BASE}/tournament/${id}`);
  await a.page.waitForSelector(`.standings-table tr[data-name="${nameA}"]`);
  advanceClock(10 * 60_000);
  for (const p of [a.page, b.page]) {
    await p.waitForSelector('.podium:not([hidden])');
    assert.match(await p.locator('.tour-phase').textContent(), /Finished/);
    assert.equal(await p.locator('.podium .place-1 a').textContent(), nameA);
  }
  const view = await (await fetch(`${BASE}/api/tournaments/${id}`)).json();
  assert.equal(view.rounds.flatMap((r) => r.pairings).length, 3, 'three games: none while Bob was paused or gone');
  await a.page.screenshot({ path: join(SHOTS, 'arena-finished.png'), fullPage: true });
  for (const ctx of [a.ctx, b.ctx]) {
    assert.deepEqual(ctx.errors.filter((e) => !/status of 4\d\d/.test(e)), [], 'no console errors');
  }
});
