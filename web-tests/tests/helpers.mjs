// Shared by the browser tests: the browser, contexts that record console errors, the server's API
// from node, and the moves of a game played by clicking or by the keyboard.

import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BASE = (process.env.MABULA_URL || 'http://127.0.0.1:8080/').replace(/\/$/, '');
export const SHOTS = process.env.SCREENSHOTS || new URL('../screenshots', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * Chromium from Debian. `chromium.launch` gives it a fresh temporary profile directory (its
 * `--user-data-dir`), removed when the browser closes; each context is isolated on top of that.
 */
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ARGS,
    headless: true,
  });
  return {
    browser,
    /** A fresh, isolated context (own storage) that records console errors. */
    async context(options = {}) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
      ctx.errors = [];
      ctx.on('page', (page) => watchConsole(page, ctx.errors));
      return ctx;
    },
    close: () => browser.close(),
  };
}

function watchConsole(page, errors) {
  page.on('console', (msg) => {
    if (msg.type() === 'error' || (msg.type() === 'warning' && /translation/.test(msg.text()))) {
      errors.push(`${page.url()}: console ${msg.type()}: ${msg.text()}`);
    }
  });
  page.on('pageerror', (err) => errors.push(`${page.url()}: page error: ${err.message}`));
}

/**
 * Moves the server's clock on by `ms` (run.sh starts it with `--clock-file`): what would happen
 * that much later happens now. The offset is written beside and renamed over the file, so that
 * the server never reads half a number.
 */
export function advanceClock(ms) {
  const file = process.env.MABULA_CLOCK_FILE;
  if (!file) throw new Error('MABULA_CLOCK_FILE is not set: the server\'s clock cannot be moved');
  let offset = 0;
  try { offset = Number(readFileSync(file, 'utf8').trim()) || 0; } catch { /* none yet */ }
  writeFileSync(`${file}.next`, String(offset + ms));
  renameSync(`${file}.next`, file);
}

/** Calls the server's API from node. */
export async function api(path, { method = 'GET', body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers['x-mabula-token'] = token;
  let res;
  try {
    res = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new Error(`${method} ${path}: ${err.message} (${err.cause?.code || err.cause?.message || 'no cause'})`);
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  try { return JSON.parse(text); } catch { return text; }
}

/**
 * Waits until `predicate(arg)`, an async function run in the page, answers true: asked again at
 * each of the page's frames (`page.waitForFunction` takes only synchronous ones, and the caches
 * the service worker fills answer only by promises). Gives up, saying `what`, after `timeout` ms.
 */
export async function untilTrue(page, predicate, arg, what, timeout = 20000) {
  const end = Date.now() + timeout;
  while (!(await page.evaluate(predicate, arg))) {
    if (Date.now() > end) throw new Error(`${what}: not so after ${timeout} ms`);
    await page.evaluate(() => new Promise((resolve) => { requestAnimationFrame(() => resolve()); }));
  }
}

/** The game id of a page at /game/{id}. */
export function gameId(page) {
  const m = new URL(page.url()).pathname.match(/\/(?:game|replay)\/([a-z0-9]+)/);
  if (!m) throw new Error(`not a game page: ${page.url()}`);
  return m[1];
}

/** How many moves the page's move list shows. */
export function movesShown(page) {
  return page.locator('.movelist button[data-number]:not([data-number="0"])').count();
}

/** Waits until the page's move list has at least `n` moves. */
export async function waitMoves(page, n, timeout = 20000) {
  await page.waitForFunction(
    (k) => document.querySelectorAll('.movelist button[data-number]:not([data-number="0"])').length >= k,
    n, { timeout },
  );
}

/**
 * Waits until the page lets its player act: 'move' (marbles to push), 'pass' (the pass button),
 * or 'end' (the end-of-game dialog is open).
 */
export async function waitTurn(page, timeout = 30000) {
  const handle = await page.waitForFunction(() => {
    if (document.querySelector('dialog.end-dialog[open]')) return 'end';
    if (document.querySelector('.pass-button')) return 'pass';
    if (document.querySelector('svg.board .can-move')) return 'move';
    return false;
  }, null, { timeout });
  return handle.jsonValue();
}

/**
 * Plays `move` by pointing: the marble, then the stop (preview shown), then a click. `board`: the
 * board's selector (the page's first board by default).
 */
export async function clickMove(page, move, { screenshot, board = 'main svg.board.interactive' } = {}) {
  await page.click(`${board} .sq[data-square="${move.from}"]`);
  await page.waitForSelector(`${board} .stop`);
  await page.hover(`${board} .sq[data-square="${move.to}"]`);
  await page.waitForSelector(`${board} .marble.ghost`);
  if (screenshot) await page.screenshot({ path: join(SHOTS, screenshot) });
  await page.click(`${board} .sq[data-square="${move.to}"]`);
}

/** The state of a game as a spectator sees it. */
export function state(id) {
  return api(`/api/games/${id}`);
}

/** A legal push (or 'pass') for the side to move, picked by a small deterministic rule. */
export function pick(st, salt = 0) {
  const pushes = st.legal_moves.filter((m) => m.from);
  if (!pushes.length) return st.legal_moves[0];
  return pushes[(st.moves.length * 7 + salt) % pushes.length];
}

/** Every visible text on the page (text nodes, placeholders), trimmed, language menu excluded. */
export function visibleTexts(page) {
  return page.evaluate(() => {
    const out = new Set();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent.replace(/\s+/g, ' ').trim();
      const el = node.parentElement;
      // <code> holds notation (b1-b4, pass), the same in every language.
      if (!text || !el || el.closest('#lang-menu, .paints, script, style, noscript, code')) continue;
      if (/^[,.;:!?]$/.test(text)) continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (el.closest('.sr-only')) continue;
      out.add(text);
    }
    for (const el of document.querySelectorAll('[placeholder]')) {
      if (el.checkVisibility()) out.add(el.getAttribute('placeholder').replace(/\s+/g, ' ').trim());
    }
    return [...out];
  });
}

/** The password of the accounts the tests make. */
export const PASSWORD = 'marbles on the edge';

/** A new account, logged in from node: its session cookie, its value and its CSRF token. */
export async function signUp(name) {
  const res = await fetch(`${BASE}/api/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: PASSWORD }),
  });
  if (res.status !== 201) throw new Error(`sign-up of ${name}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('mabula_session='));
  if (!cookie) throw new Error('no session cookie');
  const body = await res.json();
  return { cookie, csrf: body.csrf, value: cookie.slice('mabula_session='.length) };
}
