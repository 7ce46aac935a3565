// End-to-end test of a duplicate pair: the same deal twice, colours swapped, and the combined
// result, started from the home page's checkbox.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, gameId, waitMoves, clickMove, state, pick } from './helpers.mjs';

const SETUP = '1wbwbww1/b6b/b6w/w6b/b6w/w6b/b6w/1wbwbwb1 w';

let chrome;
/** The second game of the pair played by the first test. */
let pairSecond = null;

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

/** Resigns for the side to move (a game at one screen) and waits for the end dialog. */
async function resign(page) {
  await page.click('.resign-button');
  await page.click('dialog.confirm button[value="yes"]');
  await page.waitForSelector('dialog.end-dialog[open]');
}

test('a duplicate pair at one screen replays the deal and shows the combined result', async () => {
  const ctx = await chrome.context({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/`);
  await page.waitForSelector('form.newgame');
  await page.click('label.opponent:has(input[value="local"])');
  await page.click('label:has(input[name="setup"][value="position"])');
  await page.fill('#setup-text', SETUP);
  await page.waitForSelector('.setup-preview svg.board');
  // The checkbox is reachable by its label.
  await page.getByLabel('Duplicate pair: the same deal twice, colours swapped').check();
  await page.click('button[type="submit"]');
  await page.waitForSelector('main svg.board.interactive');
  const first = gameId(page);
  const st1 = await state(first);
  assert.equal(st1.settings.pair_half, 'first');
  assert.match(await page.locator('.pair-banner').innerText(), /First game of a duplicate pair/);

  // Game 1: White resigns at once (0-1).
  await resign(page);
  const dialog = page.locator('dialog.end-dialog[open]');
  await dialog.locator('.btn.primary', { hasText: 'Play the other side of this deal' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith(first));
  await page.waitForSelector('main svg.board.interactive');
  const second = gameId(page);
  const st2 = await state(second);
  assert.equal(st2.start, st1.start, 'the same deal');
  assert.equal(st2.settings.pair_half, 'second');
  assert.match(await page.locator('.pair-banner').innerText(), /Second game of a duplicate pair/);

  // Game 2: White pushes, then Black resigns (1-0): whoever had Black first wins both.
  await clickMove(page, pick(st2));
  await waitMoves(page, 1);
  await resign(page);
  const result = page.locator('dialog.end-dialog[open] .pair-result');
  await result.waitFor();
  const text = await result.innerText();
  assert.match(text, /Duplicate pair/);
  assert.match(text, /Black first, then White\s+2/);
  assert.match(text, /White first, then Black\s+0/);
  assert.match(text, /Game 1: 0-1 · game 2: 1-0/);
  const done = await state(second);
  assert.deepEqual(done.pair.points, { white_then_black: 0, black_then_white: 2 });
  await page.screenshot({ path: join(SHOTS, 'duplicate-result.png'), fullPage: true });

  // The page keeps the result once the dialog is closed.
  await page.click('dialog.end-dialog button:has-text("Close")');
  assert.match(await page.locator('.pair-banner').innerText(), /Black first, then White/);
  assert.deepEqual(ctx.errors, [], 'no console errors');
  await ctx.close();
  pairSecond = second;
});

test('the pair result fits a phone in the dark theme, in German', async () => {
  assert.ok(pairSecond, 'the first test played a pair');
  const ctx = await chrome.context({
    locale: 'en-US', colorScheme: 'dark', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true,
  });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/game/${pairSecond}`);
  await page.waitForSelector('.pair-banner .pair-result');
  await page.selectOption('#lang-menu', 'de');
  await page.waitForFunction(() => document.querySelector('.pair-banner')?.innerText.includes('Duplikat-Paar'));
  assert.match(await page.locator('.pair-banner').innerText(), /Erst Schwarz, dann Weiß\s+2/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px too wide)`);
  // In one step inside the page: the banner can be drawn again between finding and scrolling.
  await page.evaluate(() => document.querySelector('.pair-banner')?.scrollIntoView({ block: 'nearest' }));
  await page.screenshot({ path: join(SHOTS, 'duplicate-result-phone-dark-de.png') });
  await page.selectOption('#lang-menu', 'en');
  assert.deepEqual(ctx.errors, [], 'no console errors');
  await ctx.close();
});
