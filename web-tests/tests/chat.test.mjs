// The chat of a game in the browser (issue 36): two friends in a game chat in the players' room
// (a line sent by one appears at the other, as plain text); a guest spectator reads the
// spectators' room, not the players', and cannot write; a spectator with an account writes there
// and the guest sees it arrive; the replay shows the spectators' lines read-only; the panel on a
// phone in both orientations.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, gameId, api } from './helpers.mjs';

let chrome;
const PASSWORD = 'marbles on the edge';
const run = Date.now().toString(36).slice(-5);

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

/** The texts of the chat lines shown on a page. */
function lineTexts(page) {
  return page.locator('.chat-log .chat-text').allInnerTexts();
}

/** Waits until a chat line with exactly `text` shows on the page. */
async function waitLine(page, text) {
  await page.waitForFunction(
    (want) => [...document.querySelectorAll('.chat-log .chat-text')].some((e) => e.textContent === want),
    text);
}

/** Says `text` in the chat panel by the keyboard (Enter sends). */
async function say(page, text) {
  await page.focus('.chat-input');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('.chat-input')).value === '');
}

test('two friends chat in the players\' room, a guest spectator reads the spectators\' room only and cannot write', async () => {
  const contexts = [];
  const context = async (options = {}) => {
    const ctx = await chrome.context({ locale: 'en-US', reducedMotion: 'reduce', ...options });
    contexts.push(ctx);
    return ctx;
  };
  const a = await (await context()).newPage();
  await a.goto(`${BASE}/`);
  await a.click('label.opponent:has(input[value="friend"])');
  await a.click('label:has(input[name="color"][value="white"])');
  await a.click('form.newgame button[type="submit"]');
  await a.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = gameId(a);
  const link = await a.locator('input.join-link').inputValue();

  const b = await (await context()).newPage();
  await b.goto(link);
  await b.waitForSelector('main svg.board');
  await b.waitForFunction(() => !location.hash);
  await a.waitForSelector('input.join-link', { state: 'detached' });

  // The players' room: a line sent by one appears at the other, markup shown as text.
  await a.waitForSelector('.chat-form:not([hidden])');
  // On a laptop's screen (1280x800) the chat is in view beside the board, and typing in it keeps
  // the whole board in view (issue 52: it was below the fold, and typing scrolled the board away).
  await a.setViewportSize({ width: 1280, height: 800 });
  const inView = (sel) => a.evaluate((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  }, sel);
  assert.ok(await inView('.chat-input'), 'the chat is in view');
  await a.focus('.chat-input');
  await a.keyboard.type('…');
  assert.ok(await inView('main svg.board'), 'the board is in view while typing');
  await a.screenshot({ path: join(SHOTS, 'chat-laptop.png') });
  await a.fill('.chat-input', '');
  assert.equal(await a.locator('.chat-log').getAttribute('role'), 'log');
  assert.equal(await a.locator('.chat-log').getAttribute('aria-live'), 'polite');
  await say(a, 'Good luck <b>friend</b>');
  await waitLine(b, 'Good luck <b>friend</b>');
  assert.equal(await b.locator('.chat-log .chat-text b').count(), 0, 'no markup from a chat line');
  await b.waitForSelector('.chat-form:not([hidden])');
  await say(b, 'Thanks, you too');
  await waitLine(a, 'Thanks, you too');
  assert.deepEqual(await lineTexts(a), ['Good luck <b>friend</b>', 'Thanks, you too']);
  // Guests in the seats have no names: the lines say which side wrote.
  assert.deepEqual(await a.locator('.chat-log .chat-name').allInnerTexts(), ['White', 'Black']);
  // An empty line is not sent; an over-long one is refused with a sentence.
  await a.fill('.chat-input', 'x'.repeat(141));
  await a.keyboard.press('Enter');
  await a.waitForFunction(() => /140/.test(document.querySelector('.chat-error')?.textContent || ''));
  await a.fill('.chat-input', '');
  await a.screenshot({ path: join(SHOTS, 'chat-players.png'), fullPage: true });

  // A guest spectator: the spectators' room only (empty), and no form but a note to log in.
  const c = await (await context()).newPage();
  await c.goto(`${BASE}/game/${id}`);
  await c.waitForSelector('main svg.board');
  await c.waitForSelector('.chat-guest:not([hidden])');
  assert.ok(await c.locator('.chat-form').isHidden(), 'a guest spectator has no chat form');
  assert.deepEqual(await lineTexts(c), [], 'the players\' room is the players\'');

  // A spectator with an account writes in the spectators' room; the guest sees it, the players
  // only once the game is over (fair play, issue 51).
  const d = await (await context()).newPage();
  await d.goto(`${BASE}/signup`);
  await d.waitForSelector('form.login-card');
  await d.fill('#login-name', `Dan${run}`);
  await d.fill('#login-password', PASSWORD);
  await d.click('form.login-card button[type="submit"]');
  await d.waitForURL((u) => !u.pathname.startsWith('/signup'));
  await d.goto(`${BASE}/game/${id}`);
  await d.waitForSelector('.chat-form:not([hidden])');
  assert.ok(await d.locator('.chat-room').isHidden(), 'one room to write in: no choice shown');
  await say(d, 'What an opening');
  await waitLine(c, 'What an opening');
  assert.deepEqual(await lineTexts(c), ['What an opening']);
  await b.reload();
  await waitLine(b, 'Thanks, you too');
  assert.deepEqual(await lineTexts(b), ['Good luck <b>friend</b>', 'Thanks, you too'], 'not to the players while they play');
  assert.deepEqual(await lineTexts(a), ['Good luck <b>friend</b>', 'Thanks, you too']);
  await a.click('.resign-button');
  await a.click('dialog.confirm button[value="yes"]');
  await a.waitForSelector('dialog.end-dialog[open]');
  await waitLine(a, 'What an opening');
  assert.deepEqual(await c.locator('.chat-log .chat-name').allInnerTexts(), [`Dan${run}`]);
  // A logged-in reader can report another account's line.
  assert.equal(await a.locator('.chat-report').count(), 0, 'a guest reports nothing');
  await c.screenshot({ path: join(SHOTS, 'chat-spectator.png'), fullPage: true });

  // The replay shows the spectators' lines, read-only.
  const r = await (await context()).newPage();
  await r.goto(`${BASE}/replay/${id}`);
  await waitLine(r, 'What an opening');
  assert.ok(await r.locator('.chat-form').isHidden(), 'no chat form in a replay');

  // On a phone, both ways up: the panel fits the width.
  const phone = await context({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const p = await phone.newPage();
  await p.goto(`${BASE}/game/${id}`);
  await waitLine(p, 'What an opening');
  const fits = () => p.evaluate(() => {
    const box = document.querySelector('.chat')?.getBoundingClientRect();
    return Boolean(box) && box.right <= window.innerWidth + 1 && document.documentElement.scrollWidth <= window.innerWidth + 1;
  });
  assert.ok(await fits(), 'the chat fits a phone held upright');
  await p.locator('.chat').scrollIntoViewIfNeeded();
  await p.screenshot({ path: join(SHOTS, 'chat-phone-portrait.png') });
  await p.setViewportSize({ width: 844, height: 390 });
  assert.ok(await fits(), 'the chat fits a phone held sideways');
  await p.locator('.chat').scrollIntoViewIfNeeded();
  await p.screenshot({ path: join(SHOTS, 'chat-phone-landscape.png') });

  for (const ctx of contexts) assert.deepEqual(ctx.errors, [], 'no console errors');
  for (const ctx of contexts) await ctx.close();
});

test('a profile has Report and Block for another player, a report is sent from it, and /moderation is for moderators', async () => {
  const ctx = await chrome.context({ locale: 'en-US', reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  const other = `Eve${run}`;
  await api('/api/accounts', { method: 'POST', body: { name: other, password: PASSWORD } });
  await page.goto(`${BASE}/signup`);
  await page.waitForSelector('form.login-card');
  await page.fill('#login-name', `Fay${run}`);
  await page.fill('#login-password', PASSWORD);
  await page.click('form.login-card button[type="submit"]');
  await page.waitForURL((u) => !u.pathname.startsWith('/signup'));

  await page.goto(`${BASE}/@/${other}`);
  await page.waitForSelector('.block-button[aria-pressed="false"]');
  await page.click('.block-button');
  await page.waitForSelector('.block-button[aria-pressed="true"]');
  assert.equal(await page.locator('.block-button').innerText(), 'Unblock');
  await page.click('.block-button');
  await page.waitForSelector('.block-button[aria-pressed="false"]');

  await page.click('.report-button');
  await page.waitForSelector('dialog.report-dialog[open]');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'report-reason', 'the form takes the focus');
  await page.selectOption('#report-reason', 'spam');
  await page.fill('#report-text', 'challenges me every minute');
  await page.screenshot({ path: join(SHOTS, 'chat-report-dialog.png') });
  await page.click('dialog.report-dialog button[type="submit"]');
  await page.waitForSelector('dialog.report-dialog', { state: 'detached' });

  await page.goto(`${BASE}/moderation`);
  await page.waitForFunction(() => /moderators/.test(document.querySelector('.moderation [role="status"]')?.textContent || ''));
  assert.equal(await page.locator('.moderation-link').count(), 0);
  assert.deepEqual(ctx.errors.filter((e) => !/403/.test(e)), [], 'no console errors but the refused queue');
  await ctx.close();
});
