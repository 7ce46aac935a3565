// The pages in every corner (issue 25): the analysis board of a game Black began (its numbers,
// its point of view, the value beside the arrow, the board turned for Black), focus, numbers as
// each language writes them, the end dialog's table, the join toast, the French move box on a
// phone, finished games and replays without "Live" and "away", the graph's axes, expected
// refusals without console errors, the automatic forced pass, and sockets that drop and come back.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, api, pick, state, waitMoves } from './helpers.mjs';

let chrome;
const contexts = [];

async function context(options = {}) {
  const ctx = await chrome.context(options);
  contexts.push(ctx);
  return ctx;
}

function noErrors(ctx) {
  assert.deepEqual(ctx.errors, [], 'no console errors');
}

/** Puts seat grants into a context's storage, as if this browser had started those games. */
async function holdSeats(ctx, grants) {
  const seats = {};
  for (const g of grants) seats[g.game_id] = { token: g.token, seats: g.seats, mode: g.state?.settings?.mode, join: g.join_path || null, created: Date.now() };
  await ctx.addInitScript((text) => {
    try {
      if (!localStorage.getItem('mabula:seats')) localStorage.setItem('mabula:seats', text);
    } catch { /* about:blank has no storage */ }
  }, JSON.stringify(seats));
}

/** A local game played to its end through the API. */
async function finishedGame(settings) {
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'local', ...settings } });
  let st = grant.state;
  while (st.status === 'playing') {
    st = await api(`/api/games/${grant.game_id}/moves`, { method: 'POST', token: grant.token, body: { move: pick(st, 3).notation } });
  }
  return { grant, id: grant.game_id, st };
}

/** Whether two boxes overlap (by more than a pixel). */
function overlap(a, b) {
  return a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;
}

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

test('the analysis board numbers a game Black began as its record does, in the tree and the notes', async () => {
  const { id, st } = await finishedGame({ seed: '31', first: 'black' });
  assert.equal(st.moves[0].side, 'black');
  const ctx = await context({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/analysis?game=${id}`);
  await page.waitForSelector(`.movetree .tree-move[data-ply="${st.moves.length}"]`);
  // The record: 1... g1-g2 2. d1-d4 d8-d6 3. ...
  const texts = await page.locator('.movetree > .tree-move[data-ply]:not([data-ply="0"])').allTextContents();
  const labels = await page.locator('.movetree > .tree-move[data-ply]:not([data-ply="0"])').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  st.moves.forEach((mv, i) => {
    const num = parseInt(mv.record_number, 10);
    const shown = i === 0 ? `${num}... ${mv.notation}` : mv.side === 'white' ? `${num}. ${mv.notation}` : mv.notation;
    assert.equal(texts[i].replace(/[?]+$/, ''), shown, `ply ${i + 1}`);
    assert.match(labels[i], new RegExp(`^Move ${num} ${mv.side === 'white' ? 'White' : 'Black'}: ${mv.notation}`), `ply ${i + 1}`);
  });
  // The notes under the graph name moves by the record's numbers too.
  await page.waitForFunction(() => document.querySelector('.graph-counts')?.textContent.length > 0, null, { timeout: 60000 });
  for (const text of await page.locator('.graph-marks button').allTextContents()) {
    const [, num, side, move] = text.match(/^Move (\d+) (White|Black): (\S+):/);
    const mv = st.moves.find((m) => m.notation === move && m.side === side.toLowerCase() && parseInt(m.record_number, 10) === Number(num));
    assert.ok(mv, `the note "${text}" names a move of the record`);
  }
  noErrors(ctx);
  await ctx.close();
});

test('the analysis board speaks for the side to move, keeps its value off the marbles and turns for Black', async () => {
  // A game against the engine in which this browser had Black, played to its end.
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'local', seed: '32', first: 'black' } });
  let st = grant.state;
  while (st.status === 'playing') st = await api(`/api/games/${grant.game_id}/moves`, { method: 'POST', token: grant.token, body: { move: pick(st, 1).notation } });
  const engine = await api('/api/games', { method: 'POST', body: { mode: 'engine', seed: '33', color: 'black', engine_level: 1 } });
  const ctx = await context({ locale: 'en-US' });
  await holdSeats(ctx, [engine]);
  const page = await ctx.newPage();

  // Black moves first: the headline and the list are both Black's chances, and say so.
  await page.goto(`${BASE}/analysis?game=${grant.game_id}`);
  await page.waitForSelector('.engine-lines li');
  await page.waitForFunction(() => /^Black to move · Black’s chances: \d+\.\d%$/.test(document.querySelector('.eval-line')?.textContent || ''), null, { timeout: 20000 });
  assert.equal(await page.textContent('.lines-head'), 'Values for Black, the side to move');
  // The best move's value stands on the rim beyond its marble, over no marble.
  await page.waitForSelector('main svg.board .note-pill', { state: 'attached', timeout: 20000 });
  const pill = await page.locator('main svg.board .note-pill').boundingBox();
  const marbles = await page.locator('main svg.board .layer-marbles > g').evaluateAll((els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height, square: e.dataset.square };
  }));
  for (const m of marbles) assert.ok(!overlap(pill, m), `the value covers the marble on ${m.square}`);
  await page.screenshot({ path: join(SHOTS, 'analysis-black-first.png'), fullPage: true });
  // A game where this browser had Black: the board is turned, b1 at the top right.
  await page.goto(`${BASE}/analysis?game=${engine.game_id}`);
  // The game loaded: the move tree and the board are drawn from it in one go.
  await page.waitForSelector('.movetree .tree-move[data-ply="0"]');
  const box = (sq) => page.locator(`main svg.board .sq[data-square="${sq}"]`).boundingBox();
  const b1 = await box('b1');
  const g8 = await box('g8');
  assert.ok(b1.x > g8.x && b1.y < g8.y, 'the board is seen from Black’s side');
  // And it turns back on request.
  await page.click('.flip-button');
  const b1b = await box('b1');
  const g8b = await box('g8');
  assert.ok(b1b.x < g8b.x && b1b.y > g8b.y, 'turned back');
  noErrors(ctx);
  await ctx.close();
});

test('the evaluation graph has its axes labelled', async () => {
  const { id } = await finishedGame({ seed: '34' });
  for (const lang of ['en-US', 'de-DE']) {
    const ctx = await context({ locale: lang });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/analysis?game=${id}`);
    await page.waitForSelector('svg.eval-graph polyline.graph-line', { timeout: 60000 });
    const ys = (await page.locator('svg.eval-graph text.graph-axis.y').allTextContents()).map((y) => y.replace(/[\u00a0\u202f]/g, ' '));
    const xs = await page.locator('svg.eval-graph text.graph-axis.x').allTextContents();
    assert.deepEqual(ys, lang === 'en-US' ? ['0%', '50%', '100%'] : ['0 %', '50 %', '100 %']);
    assert.ok(xs.length >= 3 && xs[0] === '1', `move numbers below: ${xs.join(' ')}`);
    assert.ok(await page.locator('svg.eval-graph text.graph-axis.caption').count() === 1);
    if (lang === 'de-DE') {
      await page.locator('svg.eval-graph').scrollIntoViewIfNeeded();
      await page.locator('.graph-card').screenshot({ path: join(SHOTS, 'analysis-graph-de.png') });
    }
    noErrors(ctx);
    await ctx.close();
  }
});

test('German and French write chances with a decimal comma', async () => {
  const { id } = await finishedGame({ seed: '35' });
  const expected = { 'de-DE': /Weiß hat laut Computer \d+,\d[\u00a0\u202f]% Chancen/, 'fr-FR': /Blanc a \d+,\d[\u00a0\u202f]% de chances/ };
  for (const [locale, re] of Object.entries(expected)) {
    const ctx = await context({ locale });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/game/${id}`);
    await page.waitForSelector('.deal-note:not([hidden])', { timeout: 20000 });
    assert.match(await page.textContent('.deal-note'), re);
    await page.goto(`${BASE}/analysis?game=${id}`);
    await page.waitForSelector('.engine-lines li', { timeout: 20000 });
    await page.waitForFunction(() => /\d,\d\s?%/.test(document.querySelector('.eval-line')?.textContent || '') || /\d/.test(document.querySelector('.eval-line')?.textContent || '') === false);
    const values = await page.locator('.engine-lines .line-value').allTextContents();
    for (const v of values) assert.doesNotMatch(v, /\d\.\d/, `${locale}: ${v}`);
    noErrors(ctx);
    await ctx.close();
  }
});

test('the board is one tab stop on a square, and nothing is focused before the keyboard is used', async () => {
  const ctx = await context({ locale: 'en-US' });
  const page = await ctx.newPage();
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'local', seed: '36' } });
  await holdSeats(ctx, [grant]);
  await page.goto(`${BASE}/game/${grant.game_id}`);
  await page.waitForSelector('svg.board .can-move');
  // Loaded (or reloaded) without the keyboard: no square has focus, so no ring shows.
  const ring = () => page.evaluate(() => ({
    square: document.activeElement?.dataset?.square || null,
    visible: document.querySelectorAll('svg.board .sq:focus-visible').length,
  }));
  assert.deepEqual(await ring(), { square: null, visible: 0 });
  await page.reload();
  // The board's movable marbles are drawn by the update that asks for its focus (or aim).
  await page.waitForSelector('svg.board .can-move');
  assert.deepEqual(await ring(), { square: null, visible: 0 });
  // Tabbing into the board lands on a square, the first movable marble, and arrows move from it.
  let inBoard = null;
  for (let i = 0; i < 40 && !inBoard; i++) {
    await page.keyboard.press('Tab');
    inBoard = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || !el.closest('svg.board, .board-wrap')) return null;
      return { tag: el.tagName, cls: el.getAttribute('class'), square: el.dataset.square || null };
    });
  }
  assert.ok(inBoard, 'Tab reaches the board');
  assert.ok(inBoard.square, `the board's first tab stop is a square, not ${inBoard.tag}.${inBoard.cls}`);
  await page.keyboard.press('ArrowUp');
  const after = await page.evaluate(() => document.activeElement?.dataset?.square || null);
  assert.ok(after, 'arrow keys move between squares');
  noErrors(ctx);
  await ctx.close();
});

test('the end dialog keeps each marble beside its name and each heading on one line', async () => {
  const { id } = await finishedGame({ seed: '37', scoring: 'product' });
  for (const [locale, viewport] of [['en-US', { width: 1280, height: 900 }], ['de-DE', { width: 390, height: 844 }], ['fr-FR', { width: 1024, height: 768 }]]) {
    const ctx = await context({ locale, viewport });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/game/${id}`);
    await page.click('.result-button');
    await page.waitForSelector('dialog.end-dialog[open] .score-table');
    const lines = await page.evaluate(() => {
      const out = [];
      for (const th of document.querySelectorAll('dialog.end-dialog .score-table th')) {
        const range = document.createRange();
        range.selectNodeContents(th);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top / 4)));
        const dot = th.querySelector('.dot');
        const text = [...th.childNodes].find((n) => n.nodeType === 3);
        let apart = 0;
        if (dot && text) {
          const t = document.createRange();
          t.selectNodeContents(text);
          const a = dot.getBoundingClientRect();
          const b = t.getBoundingClientRect();
          apart = Math.abs((a.top + a.bottom) / 2 - (b.top + b.bottom) / 2);
        }
        out.push({ text: th.textContent, lines: tops.size, apart });
      }
      return out;
    });
    for (const l of lines) {
      assert.ok(l.lines <= 1 || l.apart < 12, `${locale}: "${l.text}" wraps`);
      assert.ok(l.apart < 12, `${locale}: the marble of "${l.text}" is not beside its name`);
    }
    const fits = await page.evaluate(() => {
      const d = document.querySelector('dialog.end-dialog');
      return { scroll: d.scrollWidth, client: d.clientWidth, right: d.getBoundingClientRect().right, width: innerWidth };
    });
    assert.ok(fits.scroll <= fits.client + 1 && fits.right <= fits.width, `${locale}: the dialog overflows (${JSON.stringify(fits)})`);
    const heights = await page.locator('dialog.end-dialog .score-table thead th').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    assert.ok(Math.max(...heights) < 40, `${locale}: a column name takes two lines (${heights.join(', ')})`);
    await page.screenshot({ path: join(SHOTS, `end-table-${locale}.png`) });
    noErrors(ctx);
    await ctx.close();
  }
});

test('the join toast covers none of the page’s controls, on a desktop and a phone', async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const grant = await api('/api/games', { method: 'POST', body: { mode: 'friend', seed: '38' } });
    const ctx = await context({ locale: 'en-US', viewport, hasTouch: viewport.width < 500 });
    const page = await ctx.newPage();
    await page.goto(`${BASE}${grant.join_path}`);
    await page.waitForSelector('.toast');
    await page.waitForSelector('svg.board');
    const covered = await page.evaluate(() => {
      const t = document.querySelector('.toast').getBoundingClientRect();
      const hits = [];
      for (const el of document.querySelectorAll('main button, main a, main input, main select, main .sq')) {
        if (!el.checkVisibility()) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.bottom < 0 || r.top > innerHeight) continue;
        if (t.left < r.right - 1 && r.left < t.right - 1 && t.top < r.bottom - 1 && r.top < t.bottom - 1) hits.push(el.outerHTML.slice(0, 80));
      }
      return hits;
    });
    await page.screenshot({ path: join(SHOTS, `join-toast-${viewport.width}.png`) });
    assert.deepEqual(covered, [], 'controls under the toast');
    noErrors(ctx);
    await ctx.close();
  }
});

test('the move box shows its whole hint on a phone, in every language', async () => {
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'local', seed: '39' } });
  for (const locale of ['fr-FR', 'en-US', 'de-DE', 'es-ES', 'it-IT', 'ro-RO']) {
    const ctx = await context({ locale, viewport: { width: 360, height: 740 }, hasTouch: true });
    await holdSeats(ctx, [grant]);
    const page = await ctx.newPage();
    await page.goto(`${BASE}/game/${grant.game_id}`);
    await page.waitForSelector('#notation');
    const fit = await page.evaluate(() => {
      const input = document.getElementById('notation');
      const style = getComputedStyle(input, '::placeholder');
      const ctx2d = document.createElement('canvas').getContext('2d');
      ctx2d.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const own = getComputedStyle(input);
      const room = input.clientWidth - parseFloat(own.paddingLeft) - parseFloat(own.paddingRight);
      return { text: input.placeholder, need: ctx2d.measureText(input.placeholder).width, room };
    });
    assert.ok(fit.need <= fit.room, `${locale}: "${fit.text}" needs ${fit.need.toFixed(0)}px, has ${fit.room}px`);
    if (locale === 'fr-FR') await page.locator('.notation-box').screenshot({ path: join(SHOTS, 'phone-notation-fr.png') });
    noErrors(ctx);
    await ctx.close();
  }
});

test('a finished game and a replay say neither "Live" nor "away"', async () => {
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'friend', seed: '40' } });
  const other = await api(`/api/games/${grant.game_id}/join`, { method: 'POST', body: { code: new URL(`${BASE}${grant.join_path}`).hash.split('=')[1] } });
  await api(`/api/games/${grant.game_id}/resign`, { method: 'POST', token: other.token, body: {} });
  const ctx = await context({ locale: 'en-US' });
  await holdSeats(ctx, [grant]);
  const page = await ctx.newPage();
  for (const path of [`/game/${grant.game_id}`, `/replay/${grant.game_id}`]) {
    await page.goto(`${BASE}${path}`);
    await page.waitForSelector('.players .player');
    // The game page's socket has said everything (a replay has none): its status is on the
    // hidden indicator.
    if (path.startsWith('/game/')) await page.waitForSelector('.conn.online', { state: 'attached' });
    const conn = await page.locator('.conn').evaluate((e) => (e.hidden || !e.checkVisibility() ? '' : e.textContent));
    assert.equal(conn, '', `${path} shows "${conn}"`);
    const subs = (await page.locator('.players .sub').allTextContents()).join(' | ');
    assert.doesNotMatch(subs, /away|online/, `${path}: ${subs}`);
  }
  await page.screenshot({ path: join(SHOTS, 'replay-finished.png') });
  noErrors(ctx);
  await ctx.close();
});

test('a used invitation and an unknown game are explained without console errors', async () => {
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'friend', seed: '41' } });
  const code = new URL(`${BASE}${grant.join_path}`).hash.split('=')[1];
  await api(`/api/games/${grant.game_id}/join`, { method: 'POST', body: { code } });
  const ctx = await context({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}${grant.join_path}`);
  await page.waitForSelector('.toast');
  await page.waitForSelector('svg.board');
  assert.match(await page.textContent('.toast'), /taken|used/i);
  noErrors(ctx);
  // An unknown game: the page asks once, and says so. The browser itself reports any answer of
  // 404 in its console ("Failed to load resource"), which no page can prevent; nothing else is
  // logged, and the question is asked only once per page.
  for (const path of ['/game/nosuchgame0', '/replay/nosuchgame1', '/analysis?game=nosuchgame2']) {
    await page.goto(`${BASE}${path}`);
    await page.waitForSelector('.notfound');
  }
  const notFound = ctx.errors.filter((e) => /Failed to load resource: the server responded with a status of 404/.test(e));
  assert.deepEqual(ctx.errors.filter((e) => !notFound.includes(e)), [], 'nothing but the browser’s own network lines');
  assert.equal(notFound.length, 3, notFound.join('\n'));
  await ctx.close();
});

test('a forced pass is played by itself when the setting is on, and waits for a click when off', async () => {
  // Two games at one screen, played through the API up to a forced pass (seeds found by trying).
  const forced = async (seed) => {
    const g = await api('/api/games', { method: 'POST', body: { mode: 'local', seed: String(seed) } });
    let st = g.state;
    while (st.status === 'playing' && !st.must_pass) st = await api(`/api/games/${g.game_id}/moves`, { method: 'POST', token: g.token, body: { move: pick(st, seed).notation } });
    assert.ok(st.must_pass, `seed ${seed} reaches a forced pass`);
    return { ...g, before: st.moves.length };
  };
  const first = await forced(102);
  const second = await forced(107);
  const ctx = await context({ locale: 'en-US' });
  await holdSeats(ctx, [first, second]);
  const page = await ctx.newPage();
  await page.goto(`${BASE}/game/${first.game_id}`);
  // The setting shows once the game is loaded, when a pass would have been scheduled if on
  // (game-model.test.mjs: no timer without the setting).
  await page.waitForSelector('.auto-pass-toggle');
  assert.equal(await page.isChecked('.auto-pass-toggle'), false);
  assert.equal((await state(first.game_id)).moves.length, first.before, 'no pass without the setting');
  await page.check('.auto-pass-toggle');
  await page.waitForFunction(() => document.querySelectorAll('.movelist button.pass').length === 1, null, { timeout: 5000 });
  assert.equal((await state(first.game_id)).moves[first.before].notation, 'pass');
  // The setting is kept: the next game passes by itself.
  await page.goto(`${BASE}/game/${second.game_id}`);
  await page.waitForFunction(() => document.querySelectorAll('.movelist button.pass').length === 1, null, { timeout: 5000 });
  assert.ok(await page.isChecked('.auto-pass-toggle'));
  await page.screenshot({ path: join(SHOTS, 'auto-pass.png') });
  noErrors(ctx);
  await ctx.close();
});

test('a dropped socket says so, connects again by itself and catches up (a game, the lobby)', async () => {
  // A friend game whose moves are made through the API while the page's socket is down.
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'friend', seed: '43' } });
  const other = await api(`/api/games/${grant.game_id}/join`, { method: 'POST', body: { code: new URL(`${BASE}${grant.join_path}`).hash.split('=')[1] } });
  const ctx = await context({ locale: 'en-US' });
  await holdSeats(ctx, [grant]);
  // The page's sockets are kept where the test can close them; while `down` is set, a new one
  // asks for no socket's address and is refused, as when the network is away.
  await ctx.addInitScript(() => {
    const Native = window.WebSocket;
    window.sockets = [];
    window.down = false;
    window.WebSocket = class extends Native {
      constructor(url, protocols) {
        super(window.down ? url.replace(/\/api\/.*/, '/api/down') : url, protocols);
        window.sockets.push(this);
      }
    };
  });
  const drop = (page) => page.evaluate(() => {
    window.down = true;
    for (const ws of window.sockets) ws.close();
  });
  // Back up: the next attempt after the socket's own wait connects.
  const up = (page) => page.evaluate(() => { window.down = false; });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/game/${grant.game_id}`);
  await page.waitForSelector('.conn.online');
  await drop(page);
  await page.waitForSelector('.conn.reconnecting');
  for (let n = 0; n < 2; n++) {
    const st = await state(grant.game_id);
    const token = grant.seats.includes(st.to_move) ? grant.token : other.token;
    await api(`/api/games/${grant.game_id}/moves`, { method: 'POST', token, body: { move: pick(st).notation } });
  }
  await up(page);
  // The hello names the moves the page has: the server sends the two it missed.
  await waitMoves(page, 2);
  await page.waitForSelector('.conn.online');

  await page.goto(`${BASE}/lobby`);
  await page.waitForSelector('.conn.online');
  await drop(page);
  await page.waitForSelector('.conn.reconnecting');
  await up(page);
  await page.waitForSelector('.conn.online');
  // The refused attempts are the only lines in the console.
  assert.deepEqual(ctx.errors.filter((e) => !/WebSocket connection to '[^']*\/api\/down' failed/.test(e)), []);
  await ctx.close();
});
