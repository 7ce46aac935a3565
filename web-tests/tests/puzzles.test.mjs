// Puzzles in the browser (issue 39): a new player signs up, opens /puzzles, solves the puzzle
// shown by pushing its marbles on the board (the opponent's replies played by the page), sees both
// rating changes (theirs up, the puzzle's down), takes the next puzzle, plays a wrong move, sees
// the right one and both rating changes the other way; the profile shows the puzzle rating. The
// solutions come from the shipped file, as the server reads them. Screenshots: solved, failed
// (desktop), a phone held upright and sideways, and a guest's hint.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { BASE, SHOTS, launch, api, clickMove } from './helpers.mjs';

let chrome;
const PASSWORD = 'marbles on the edge';
const run = Date.now().toString(36).slice(-5);
const NAME = `Puz${run}`;
const contexts = [];

/** The shipped puzzles' solutions (both sides) by id. */
const SOLUTIONS = new Map(readFileSync(new URL('../../crates/mabula-engine/data/puzzles.tsv', import.meta.url), 'utf8')
  .split('\n').filter((l) => l.includes('\t')).map((l) => {
    const f = l.split('\t');
    return [f[0], f[3].split(' ')];
  }));

before(async () => {
  chrome = await launch();
});

after(async () => {
  for (const ctx of contexts) await ctx.close().catch(() => {});
  await chrome?.close();
});

/** Waits for the puzzle page's phase (`playing`, `solved`, `failed`). */
function phase(page, name) {
  return page.waitForSelector(`#puz-status[data-phase="${name}"]`);
}

/** The id of the puzzle shown, once a new one (not `previous`) is ready to play. */
async function shownPuzzle(page, previous = null) {
  await page.waitForFunction((prev) => {
    const id = document.getElementById('puzzles')?.dataset.puzzle;
    return id && id !== prev && document.querySelector('#puz-status[data-phase="playing"]');
  }, previous);
  return page.$eval('#puzzles', (el) => /** @type {HTMLElement} */ (el).dataset.puzzle);
}

const asMove = (/** @type {string} */ n) => ({ from: n.split('-')[0], to: n.split('-')[1] });

test('a new player solves a puzzle, fails the next, and sees both rating changes', async () => {
  const ctx = await chrome.context({ locale: 'en-US', reducedMotion: 'reduce' });
  contexts.push(ctx);
  const page = await ctx.newPage();
  await page.goto(`${BASE}/signup`);
  await page.waitForSelector('form.login-card');
  await page.fill('#login-name', NAME);
  await page.fill('#login-password', PASSWORD);
  await page.click('form.login-card button[type="submit"]');
  await page.waitForURL(/\/lobby/);
  await page.waitForSelector('#account-button');

  // The top bar's link.
  await page.click('nav.mainnav a[href="/puzzles"]');
  const first = await shownPuzzle(page);
  const line = SOLUTIONS.get(first);
  assert.ok(line, `the puzzle ${first} is a shipped one`);
  for (let i = 0; i < line.length; i += 2) {
    await clickMove(page, asMove(line[i]));
    if (i + 2 < line.length) {
      // The page plays the opponent's reply, then it is the player's turn again.
      await page.waitForSelector(`#puzzles[data-found="${i / 2 + 1}"] #puz-status[data-phase="playing"]`);
    }
  }
  await phase(page, 'solved');
  const up = await page.textContent('#puz-change');
  const puzzleDown = await page.textContent('#puz-puzzle-change');
  assert.match(up, /\+\d+/, up);
  assert.match(puzzleDown, /−\d+/, puzzleDown);
  assert.equal(await page.$$eval('#puz-line li', (li) => li.length), line.length);
  await page.screenshot({ path: join(SHOTS, 'puzzle-solved.png') });

  // The next one, failed with a legal move that is not the solution's.
  await page.click('#puz-next');
  const second = await shownPuzzle(page, first);
  const right = SOLUTIONS.get(second)[0];
  const position = await api(`/api/puzzles/${second}`);
  const legal = await api(`/api/analysis/moves?position=${encodeURIComponent(position.position)}`);
  const wrong = legal.legal_moves.find((m) => m.from && m.notation !== right);
  await clickMove(page, wrong);
  await phase(page, 'failed');
  const down = await page.textContent('#puz-change');
  const puzzleUp = await page.textContent('#puz-puzzle-change');
  assert.match(down, /−\d+/, down);
  assert.match(puzzleUp, /\+\d+/, puzzleUp);
  const why = await page.textContent('#puz-result');
  assert.ok(why.includes(right) && why.includes(wrong.notation), why);
  // And the exact result after the wrong move, proven by the solver.
  const proven = await page.textContent('#puz-why');
  assert.match(proven, /draw|loss by \d+/, proven);
  // The right move is drawn as an arrow, the wrong one crossed.
  await page.waitForSelector('svg.board .note-arrow.best', { state: 'attached' });
  await page.waitForSelector('svg.board .note-cross', { state: 'attached' });
  await page.screenshot({ path: join(SHOTS, 'puzzle-failed.png') });

  // Phones, both ways up.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SHOTS, 'puzzle-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 844, height: 390 });
  await page.screenshot({ path: join(SHOTS, 'puzzle-phone-landscape.png') });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The profile shows the puzzle rating and both attempts.
  await page.goto(`${BASE}/@/${NAME}`);
  await page.waitForSelector('#profile-puzzles li a[href^="/puzzles/"]');
  assert.equal(await page.$$eval('#profile-puzzles li', (li) => li.length), 2);
  assert.match(await page.textContent('#profile-puzzle-rating'), /1 solved of 2/);
  await page.screenshot({ path: join(SHOTS, 'puzzle-profile.png'), fullPage: true });
  assert.deepEqual(ctx.errors, []);
});

test('a guest asks for a hint on the puzzle of the day, then solves a long puzzle move by move, unrated', async () => {
  const ctx = await chrome.context({ locale: 'de-DE', reducedMotion: 'reduce' });
  contexts.push(ctx);
  const page = await ctx.newPage();
  await page.goto(`${BASE}/puzzles/daily`);
  const id = await shownPuzzle(page);
  const daily = await api('/api/puzzles/daily');
  assert.equal(id, daily.id);
  await page.focus('#puz-hint');
  await page.keyboard.press('Enter');
  await page.waitForSelector('svg.board .note-ring');
  await page.screenshot({ path: join(SHOTS, 'puzzle-hint.png') });
  // The hint names (to screen readers) and rings the solution's first marble.
  const from = SOLUTIONS.get(id)[0].split('-')[0];
  await page.waitForFunction((sq) => document.getElementById('announcer')?.textContent?.includes(sq), from);

  // A puzzle of three moves to find, by its address: the page plays the replies between them.
  const [long] = [...SOLUTIONS].find(([, line]) => line.length === 5);
  await page.goto(`${BASE}/puzzles/${long}`);
  await shownPuzzle(page);
  const line = SOLUTIONS.get(long);
  for (let i = 0; i < line.length; i += 2) {
    await clickMove(page, asMove(line[i]));
    if (i + 2 < line.length) await page.waitForSelector(`#puzzles[data-found="${i / 2 + 1}"] #puz-status[data-phase="playing"]`);
  }
  await phase(page, 'solved');
  await page.waitForSelector('#puz-unrated');
  assert.deepEqual(ctx.errors, []);
});

test('a logged-in player is no guest on a freshly loaded daily puzzle, and the first theme chosen there holds (issue 52)', async () => {
  // The page asked who was there before the session was read, and said "You play as a guest";
  // choosing a theme on the daily puzzle went to /puzzles and forgot it.
  const name = `Puy${run}`;
  const ctx = await chrome.context({ locale: 'en-US', reducedMotion: 'reduce' });
  contexts.push(ctx);
  const res = await ctx.request.post(`${BASE}/api/accounts`, { data: { name, password: PASSWORD } });
  assert.equal(res.status(), 201, await res.text());
  await ctx.addInitScript((n) => { try { localStorage.setItem('mabula:account', n); } catch { /* none */ } }, name);
  const page = await ctx.newPage();
  await page.goto(`${BASE}/puzzles/daily`);
  await shownPuzzle(page);
  await page.waitForFunction(() => /Your puzzle rating/.test(document.getElementById('puz-me')?.textContent || ''));

  await page.selectOption('#puz-theme', 'forced_pass');
  await page.waitForURL(`${BASE}/puzzles?theme=forced_pass`);
  const id = await shownPuzzle(page);
  assert.equal(await page.inputValue('#puz-theme'), 'forced_pass');
  const shown = await api(`/api/puzzles/${id}`);
  assert.ok(shown.themes.includes('forced_pass'), JSON.stringify(shown));
  assert.deepEqual(ctx.errors, []);
});

test('a logged-in player\'s best streak is kept in the account: a new device shows it (issue 52)', async () => {
  const name = `Str${run}`;
  const login = async () => {
    const ctx = await chrome.context({ locale: 'en-US', reducedMotion: 'reduce' });
    contexts.push(ctx);
    const page = await ctx.newPage();
    await page.goto(`${BASE}/login`);
    return { ctx, page };
  };
  const { ctx, page } = await login();
  await page.goto(`${BASE}/signup`);
  await page.waitForSelector('form.login-card');
  await page.fill('#login-name', name);
  await page.fill('#login-password', PASSWORD);
  await page.click('form.login-card button[type="submit"]');
  await page.waitForURL(/\/lobby/);
  await page.goto(`${BASE}/puzzles`);
  let shown = await shownPuzzle(page);
  await page.click('#puz-streak');
  // Two solved in a row, then one missed.
  for (let n = 1; n <= 2; n++) {
    shown = await shownPuzzle(page, shown);
    const line = SOLUTIONS.get(shown);
    for (let i = 0; i < line.length; i += 2) {
      await clickMove(page, asMove(line[i]));
      if (i + 2 < line.length) await page.waitForSelector(`#puzzles[data-found="${i / 2 + 1}"] #puz-status[data-phase="playing"]`);
    }
    await phase(page, 'solved');
    await page.waitForFunction((k) => document.getElementById('puz-streak-line')?.textContent?.includes(String(k)), n);
    await page.click('#puz-next');
  }
  shown = await shownPuzzle(page, shown);
  const position = await api(`/api/puzzles/${shown}`);
  const legal = await api(`/api/analysis/moves?position=${encodeURIComponent(position.position)}`);
  await clickMove(page, legal.legal_moves.find((m) => m.from && m.notation !== SOLUTIONS.get(shown)[0]));
  await phase(page, 'failed');

  // Another browser, logged in: the account's best streak, not this browser's (none).
  const other = await login();
  await other.page.waitForSelector('form.login-card');
  await other.page.fill('#login-name', name);
  await other.page.fill('#login-password', PASSWORD);
  await other.page.click('form.login-card button[type="submit"]');
  await other.page.waitForSelector('#account-button');
  await other.page.goto(`${BASE}/puzzles`);
  await other.page.waitForFunction(() => /^Your best streak: 2$/.test(document.getElementById('puz-streak-line')?.textContent || ''));
  assert.deepEqual(ctx.errors, []);
  assert.deepEqual(other.ctx.errors, []);
});
