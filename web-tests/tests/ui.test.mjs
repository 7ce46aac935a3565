// End-to-end tests of the browser UI against a running `mabula serve` (see run.sh).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  BASE, SHOTS, launch, api, gameId, movesShown, waitMoves, waitTurn, clickMove, state, pick,
  visibleTexts,
} from './helpers.mjs';

let chrome;
/** Every context made here, so that their console errors are checked at the end. */
const contexts = [];

async function context(options) {
  const ctx = await chrome.context(options);
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

// ---------------------------------------------------------------------------------------------

test('the home page offers the three kinds of game and shows no console error', async () => {
  const ctx = await context({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/`);
  await page.waitForSelector('form.newgame');
  for (const mode of ['engine', 'friend', 'local']) {
    assert.equal(await page.locator(`input[name="mode"][value="${mode}"]`).count(), 1);
  }
  // The engine's level is offered only against the engine.
  assert.ok(await page.locator('#level').isVisible());
  await page.click('label.opponent:has(input[value="local"])');
  assert.equal(await page.locator('#level').isVisible(), false);
  // A pasted position is previewed.
  await page.click('label:has(input[name="setup"][value="position"])');
  await page.fill('#setup-text', '1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w');
  await page.waitForSelector('.setup-preview svg.board');
  await page.fill('#setup-text', '1wbwbww1/b6b/b6w w');
  await page.waitForSelector('.setup-box .error-text:not(:empty)');
  await page.click('label:has(input[name="setup"][value="random"])');
  await page.click('label.opponent:has(input[value="engine"])');
  await page.screenshot({ path: join(SHOTS, 'home.png'), fullPage: true });
  noErrors(ctx);
  await ctx.close();
});

test('a game against the engine is played to the end by clicking', async () => {
  const ctx = await context({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/`);
  await page.click('label.opponent:has(input[value="engine"])');
  await page.locator('#level').fill('1');
  await page.click('label:has(input[name="color"][value="white"])');
  await page.click('label:has(input[name="first"][value="white"])');
  await page.click('label:has(input[name="scoring"][value="largest"])');
  await page.click('form.newgame button[type="submit"]');
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = gameId(page);

  let turns = 0;
  let tookBack = false;
  for (;;) {
    const what = await waitTurn(page);
    if (what === 'end') break;
    if (turns === 1 && !tookBack) {
      // Take back our first move and the engine's answer.
      tookBack = true;
      await page.click('.undo-button');
      await page.waitForFunction(() => document.querySelectorAll('.movelist button[data-number]:not([data-number="0"])').length === 0);
      continue;
    }
    const st = await state(id);
    assert.equal(st.to_move, 'white', 'the page offers a move only on our turn');
    const before = await movesShown(page);
    if (what === 'pass') {
      await page.click('.pass-button');
    } else {
      // On the fourth turn, the push that shoves the most marbles, for the screenshot.
      const shove = st.legal_moves.filter((m) => m.from).sort((x, y) => y.slides.length - x.slides.length)[0];
      const move = turns === 3 ? shove : pick(st);
      await clickMove(page, move, { screenshot: turns === 3 ? 'game-preview.png' : undefined });
    }
    await waitMoves(page, before + 1);
    turns += 1;
    assert.ok(turns < 40, 'a game has at most 24 pushes and a few passes');
  }
  const final = await state(id);
  assert.equal(final.status, 'finished');
  const dialog = page.locator('dialog.end-dialog[open]');
  const text = await dialog.innerText();
  assert.match(text, /You won!|You lost|Draw/);
  assert.match(text, /Largest group/);
  await page.screenshot({ path: join(SHOTS, 'end.png') });
  // Both live scores equal the server's.
  await dialog.locator('button', { hasText: 'Close' }).click();
  const scores = await page.locator('.player .score').allInnerTexts();
  assert.equal(parseInt(scores[0], 10), final.scores.largest.white);
  assert.equal(parseInt(scores[1], 10), final.scores.largest.black);
  // The record: copied to the clipboard, and offered as a download.
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  await page.click('button:has-text("Copy the record")');
  await page.waitForSelector('.toast:has-text("clipboard")');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /\[Result "(1-0|0-1|1\/2-1\/2)"\]/);
  const href = await page.locator('a:has-text("Download")').getAttribute('href');
  const res = await fetch(BASE + href);
  assert.match(res.headers.get('content-disposition') || '', /attachment/);
  // The move list matches the record, and a click on a move looks back.
  assert.equal(await movesShown(page), final.moves.length);
  await page.click('.movelist button[data-number="1"]');
  await page.waitForSelector('.view-bar .where');
  assert.match(await page.locator('.view-bar .where').innerText(), /Move 1 of/);
  // The replay of the finished game.
  await page.goto(`${BASE}/replay/${id}`);
  await page.waitForSelector('.replay-controls');
  assert.match(await page.locator('.view-bar .where').innerText(), /Move 0 of/);
  await page.click('.view-bar button[aria-label="Next move"]');
  await page.waitForFunction(() => /Move 1 of/.test(document.querySelector('.view-bar .where').textContent));
  noErrors(ctx);
  await ctx.close();
});

test('two friends play through the join link, a spectator watches, a reload restores the game', async () => {
  const alice = await context({ locale: 'en-US', reducedMotion: 'reduce' });
  const bob = await context({ locale: 'en-US', reducedMotion: 'reduce' });
  const carol = await context({ locale: 'en-US', reducedMotion: 'reduce' });
  const a = await alice.newPage();
  await a.goto(`${BASE}/`);
  await a.click('label.opponent:has(input[value="friend"])');
  await a.click('label:has(input[name="color"][value="white"])');
  await a.click('label:has(input[name="first"][value="white"])');
  await a.click('form.newgame button[type="submit"]');
  await a.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = gameId(a);
  const link = await a.locator('input.join-link').inputValue();
  assert.match(link, new RegExp(`/game/${id}#join=[0-9a-f]{32}$`));

  const b = await bob.newPage();
  await b.goto(link);
  await b.waitForSelector('main svg.board');
  await b.waitForFunction(() => !location.hash);
  // Alice sees her friend arrive, and the invitation goes away.
  await a.waitForSelector('input.join-link', { state: 'detached' });

  const c = await carol.newPage();
  await c.goto(`${BASE}/game/${id}`);
  await c.waitForSelector('main svg.board');
  assert.equal(await c.locator('.resign-button').count(), 0, 'a spectator has no seat actions');

  const pages = { white: a, black: b };
  const play = async (n) => {
    for (let i = 0; i < n; i++) {
      const st = await state(id);
      const page = pages[st.to_move];
      const otherPage = pages[st.to_move === 'white' ? 'black' : 'white'];
      const what = await waitTurn(page);
      const before = st.moves.length;
      if (what === 'pass') await page.click('.pass-button');
      else await clickMove(page, pick(st, 3));
      // The opponent and the spectator see it without reloading.
      await waitMoves(otherPage, before + 1);
      await waitMoves(c, before + 1);
    }
  };
  await play(4);
  const seen = await c.locator('.movelist').innerText();
  const st4 = await state(id);
  for (const m of st4.moves) assert.ok(seen.includes(m.notation === 'pass' ? 'pass' : m.notation));

  // A reload in the middle of the game restores it, seat included.
  await a.reload();
  await a.waitForSelector('main svg.board');
  await waitMoves(a, 4);
  assert.equal(await movesShown(a), 4);
  const position = await a.evaluate(() => [...document.querySelectorAll('main svg.board .marble')]
    .map((m) => `${m.dataset.square}${m.classList.contains('w') ? 'w' : 'b'}`).sort().join(' '));
  const expected = [];
  const ranks = st4.position.split(' ')[0].split('/');
  ranks.forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else { expected.push(`${'abcdefgh'[f]}${8 - i}${ch}`); f += 1; }
    }
  });
  assert.equal(position, expected.sort().join(' '));

  // A take-back between friends is asked for and allowed.
  const mover = st4.moves[st4.moves.length - 1].side;
  const asker = pages[mover];
  const answerer = pages[mover === 'white' ? 'black' : 'white'];
  await asker.click('.undo-button');
  await answerer.click('.banner button:has-text("Allow")');
  for (const page of [a, b, c]) {
    await page.waitForFunction(() => document.querySelectorAll('.movelist button[data-number]:not([data-number="0"])').length === 3);
  }
  await play(3);

  // Alice resigns; everyone sees the end.
  await a.click('.resign-button');
  await a.click('dialog.confirm button[value="yes"]');
  await a.waitForSelector('dialog.end-dialog[open]');
  await b.waitForSelector('dialog.end-dialog[open]');
  assert.match(await b.locator('dialog.end-dialog').innerText(), /You won!/);
  assert.match(await b.locator('dialog.end-dialog').innerText(), /White resigned/);
  await c.waitForFunction(() => /Black wins/.test(document.querySelector('.status').textContent));

  // Rematch: Alice asks, Bob accepts; both land in the same new game with colours swapped.
  await a.click('dialog.end-dialog .btn.primary');
  await a.waitForURL((u) => !u.pathname.endsWith(id));
  const rematchId = gameId(a);
  await b.click('dialog.end-dialog button:has-text("Close")');
  await b.waitForSelector('.banner button:has-text("Accept the rematch")');
  await b.click('.banner button:has-text("Accept the rematch")');
  await b.waitForURL((u) => u.pathname.endsWith(rematchId));
  const re = await api(`/api/games/${rematchId}`);
  assert.equal(re.seats.white.claimed && re.seats.black.claimed, true);

  for (const ctx of [alice, bob, carol]) noErrors(ctx);
  await Promise.all([alice.close(), bob.close(), carol.close()]);
});

test('a whole game at one screen is played with the keyboard only', async () => {
  const ctx = await context({ locale: 'en-US', reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/`);
  await page.waitForSelector('form.newgame');
  const focused = () => page.evaluate(() => {
    const el = document.activeElement;
    return { tag: el.tagName, name: el.getAttribute('name'), value: el.value, square: el.dataset?.square, id: el.id, type: el.getAttribute('type') };
  });
  const tabTo = async (test, limit = 60, key = 'Tab') => {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press(key);
      if (test(await focused())) return;
    }
    throw new Error('could not reach the element with the keyboard');
  };
  // Choose "same screen": the opponent radios are one tab stop, arrows pick.
  await tabTo((f) => f.name === 'mode');
  for (let i = 0; i < 3 && (await focused()).value !== 'local'; i++) await page.keyboard.press('ArrowRight');
  assert.equal((await focused()).value, 'local');
  await tabTo((f) => f.tag === 'BUTTON' && f.type === 'submit');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = gameId(page);
  await page.waitForSelector('main svg.board .can-move');

  const arrows = async (from, to) => {
    const [ff, fr] = ['abcdefgh'.indexOf(from[0]), Number(from.slice(1))];
    const [tf, tr] = ['abcdefgh'.indexOf(to[0]), Number(to.slice(1))];
    const path = [];
    // Move along files first, then ranks, stepping around the empty corners.
    let f = ff; let r = fr;
    const corner = (x, y) => (x === 0 || x === 7) && (y === 1 || y === 8);
    while (f !== tf || r !== tr) {
      const df = Math.sign(tf - f);
      const dr = Math.sign(tr - r);
      if (df && !corner(f + df, r)) { f += df; path.push(df > 0 ? 'ArrowRight' : 'ArrowLeft'); }
      else if (dr && !corner(f, r + dr)) { r += dr; path.push(dr > 0 ? 'ArrowUp' : 'ArrowDown'); }
      else if (df) { r += r === 1 ? 1 : -1; path.push(r === 2 ? 'ArrowUp' : 'ArrowDown'); }
      else { f += f === 0 ? 1 : -1; path.push(f === 1 ? 'ArrowRight' : 'ArrowLeft'); }
    }
    for (const key of path) await page.keyboard.press(key);
    assert.equal((await focused()).square, to);
  };

  // The page puts the focus on the board for the player to move.
  let current = (await focused()).square;
  assert.ok(current, 'the board has the focus');
  let count = 0;
  for (;;) {
    const st = await state(id);
    if (st.status === 'finished') break;
    const move = pick(st, 1);
    if (!move.from || count % 5 === 4) {
      // Passes, and every fifth move, typed into the notation box.
      await tabTo((f) => f.id === 'notation');
      await page.keyboard.type(move.notation);
      await page.keyboard.press('Enter');
      await waitMoves(page, count + 1);
      // Back to the board, unless that move ended the game.
      if ((await state(id)).status === 'playing') await tabTo((f) => Boolean(f.square), 80, 'Shift+Tab');
    } else {
      current = (await focused()).square;
      if (!current) {
        await tabTo((f) => Boolean(f.square), 80, 'Shift+Tab');
        current = (await focused()).square;
      }
      await arrows(current, move.from);
      await page.keyboard.press('Enter');
      // The focus jumps to the nearest stop, with its preview.
      await page.waitForSelector('main svg.board .marble.ghost');
      await arrows((await focused()).square, move.to);
      await page.keyboard.press('Enter');
      await waitMoves(page, count + 1);
    }
    count += 1;
    assert.ok(count < 60);
    const after = await state(id);
    if (after.status === 'finished') break;
    await page.waitForFunction(() => document.querySelector('main svg.board .can-move') || document.querySelector('.pass-button'));
  }
  await page.waitForSelector('dialog.end-dialog[open]');
  // The dialog takes the focus; Escape closes it.
  await page.keyboard.press('Escape');
  await page.waitForSelector('dialog.end-dialog', { state: 'detached' });
  // Screen readers heard the moves.
  const live = await page.locator('#announcer').innerText();
  assert.ok(live.length > 0);
  noErrors(ctx);
  await ctx.close();
});

test('the language menu switches every visible string', async () => {
  const ctx = await context({ locale: 'en-US', reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  // Strings that are the same in every language: the name, notation, numbers, ids.
  const neutral = (s) => /^(Mabula|API|[a-h][1-8]-[a-h][1-8]|[0-9 .:·…/()+-]+|[a-z0-9]{10}|1-0|0-1|1\/2-1\/2)$/.test(s)
    || /^(\d+\.(\.\.)?|…)$/.test(s) || /^[1-8a-h]$/.test(s);
  // `ready`: the selector of what the page draws once loaded (in a language, for a function).
  const check = async (path, lang, ready) => {
    const drawn = (l) => page.waitForSelector(typeof ready === 'function' ? ready(l) : ready);
    await page.goto(`${BASE}${path}`);
    await page.selectOption('#lang-menu', 'en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await drawn('en');
    const english = (await visibleTexts(page)).filter((s) => !neutral(s));
    await page.selectOption('#lang-menu', lang);
    // The page is drawn again in the same task that sets the document's language (the rules'
    // text comes after, in its own file).
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    await drawn(lang);
    const other = new Set(await visibleTexts(page));
    const same = english.filter((s) => other.has(s));
    assert.deepEqual(same, [], `${path} in ${lang}: strings left in English`);
    assert.ok(english.length > 5, `${path}: the page shows text`);
    return other;
  };
  await check('/', 'de', 'form.newgame');
  await check('/watch', 'fr', '#finished-games li:not([data-i18n="watch.loading"])');
  await check('/rules', 'it', (l) => `article.rules[lang="${l}"]`);
  // A game at one screen, created by the page.
  await page.goto(`${BASE}/`);
  await page.selectOption('#lang-menu', 'en');
  await page.click('label.opponent:has(input[value="local"])');
  await page.click('form.newgame button[type="submit"]');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('main svg.board .can-move');
  const id = gameId(page);
  const st = await state(id);
  await clickMove(page, pick(st));
  await waitMoves(page, 1);
  const path = new URL(page.url()).pathname;
  const moved = '.movelist button[data-number="1"]';
  await check(path, 'es', moved);
  await check(path, 'ro', moved);
  await check(`/replay/${id}`, 'de', moved);
  // The choice is remembered.
  await page.goto(`${BASE}/rules`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
  noErrors(ctx);
  await ctx.close();
});

test('the browser preference picks the language', async () => {
  const ctx = await context({ locale: 'fr-FR' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/rules`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
  assert.equal(await page.locator('#lang-menu').inputValue(), 'fr');
  noErrors(ctx);
  await ctx.close();
});

test('on a phone, the pages fit the screen and a tap previews before it plays', async () => {
  const ctx = await context({
    locale: 'en-US', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/`);
  await page.waitForSelector('form.newgame');
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  assert.equal(await overflow(), false, 'no sideways scrolling on the home page');
  await page.screenshot({ path: join(SHOTS, 'phone-home.png') });
  await page.tap('label.opponent:has(input[value="local"])');
  await page.tap('form.newgame button[type="submit"]');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('main svg.board .can-move');
  const id = gameId(page);
  const move = pick(await state(id));
  const board = 'main svg.board.interactive';
  await page.tap(`${board} .sq[data-square="${move.from}"]`);
  await page.tap(`${board} .sq[data-square="${move.to}"]`);
  await page.waitForSelector(`${board} .marble.ghost`);
  assert.equal(await movesShown(page), 0, 'the first tap on a stop only previews');
  await page.screenshot({ path: join(SHOTS, 'phone-game-preview.png') });
  await page.tap(`${board} .sq[data-square="${move.to}"]`);
  await waitMoves(page, 1);
  assert.equal(await overflow(), false, 'no sideways scrolling on the game page');
  // The marbles have rolled to their stops.
  await page.waitForFunction(() => document.querySelector('main svg.board')?.getAnimations({ subtree: true }).length === 0);
  await page.screenshot({ path: join(SHOTS, 'phone-game.png'), fullPage: true });
  noErrors(ctx);
  await ctx.close();
});

test('the other pages load without console errors, in the dark theme too', async () => {
  const ctx = await context({ locale: 'en-US', colorScheme: 'dark' });
  const page = await ctx.newPage();
  for (const [path, selector, shot] of [
    ['/watch', '#finished-games .game-item', 'watch-dark.png'],
    ['/rules', 'article.rules svg.board', 'rules-dark.png'],
    ['/no/such/page', '.notfound', null],
    ['/', 'form.newgame', 'home-dark.png'],
  ]) {
    await page.goto(`${BASE}${path}`);
    await page.waitForSelector(selector);
    if (shot) await page.screenshot({ path: join(SHOTS, shot), fullPage: path === '/rules' ? false : true });
  }
  // A game in the dark.
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'local', seed: '7' } });
  let st = grant.state;
  for (let i = 0; i < 17 && st.status === 'playing'; i++) {
    st = await api(`/api/games/${grant.game_id}/moves`, { method: 'POST', token: grant.token, body: { move: pick(st, 2).notation } });
  }
  await page.goto(`${BASE}/game/${grant.game_id}`);
  await page.waitForSelector('main svg.board .marble');
  await page.check('.toggles input[type="checkbox"]');
  await page.waitForSelector('main svg.board .group-blob circle');
  await page.screenshot({ path: join(SHOTS, 'game-dark-groups.png') });
  noErrors(ctx);
  await ctx.close();
});

test('no context saw a console error', () => {
  for (const ctx of contexts) noErrors(ctx);
});
