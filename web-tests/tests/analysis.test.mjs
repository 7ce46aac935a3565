// End-to-end tests of the analysis board: a finished game's analysis with arrows, the evaluation
// graph and the solver's verdict near the end; clicking the graph; a variation; a position string;
// the deal estimate; hints while playing the engine.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, api, pick, visibleTexts, gameId, state, clickMove, waitMoves, waitTurn, signUp, PASSWORD } from './helpers.mjs';

let chrome;
const contexts = [];

async function context(options) {
  const ctx = await chrome.context(options);
  contexts.push(ctx);
  return ctx;
}

function noErrors(ctx) {
  assert.deepEqual(ctx.errors, [], 'no console errors');
}

/** A local game played to its end through the API; answers its id and state. */
async function finishedGame(seed) {
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'local', seed: String(seed) } });
  let st = grant.state;
  while (st.status === 'playing') {
    st = await api(`/api/games/${grant.game_id}/moves`, { method: 'POST', token: grant.token, body: { move: pick(st, 3).notation } });
  }
  return { id: grant.game_id, st };
}

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

test('a finished game is analysed: arrows, the graph, a verdict near the end, graph clicks, variations', async () => {
  const { id, st } = await finishedGame(11);
  const n = st.moves.length;
  const ctx = await context({ locale: 'en-US' });
  const page = await ctx.newPage();

  // The finished game's page shows the engine's estimate of the deal, which the record keeps, and
  // links to its analysis.
  await page.goto(`${BASE}/game/${id}`);
  await page.waitForSelector('.deal-note:not([hidden])', { timeout: 20000 });
  assert.match(await page.textContent('.deal-note'), /^The deal: White’s chances \d+\.\d% by the engine’s estimate\.$/);
  assert.match(await api(`/api/games/${id}/record`), /\[DealEstimate "(White \d+\.\d%|.* with best play)"\]/);
  await page.click('a.analyse-link');
  await page.waitForURL(/\/analysis\?game=/);

  // At the start: the engine's best moves as arrows on the board, and listed.
  await page.waitForSelector('main svg.board .note-arrow.best', { state: 'attached', timeout: 20000 });
  await page.waitForSelector('.engine-lines li');
  assert.match(await page.textContent('.eval-line'), /White’s chances: \d+\.\d%/);

  // The graph fills in, one point per position, and then marks the game's moves.
  await page.waitForFunction((k) => document.querySelector('svg.eval-graph')?.dataset.points === String(k), n + 1, { timeout: 60000 });
  await page.waitForSelector('svg.eval-graph polyline.graph-line');
  await page.waitForFunction(() => document.querySelector('.graph-counts')?.textContent.length > 0);
  await page.screenshot({ path: join(SHOTS, 'analysis-start.png'), fullPage: true });

  // Clicking the graph near its right end jumps to a late move, where the solver has the verdict.
  const graph = page.locator('svg.eval-graph');
  await graph.scrollIntoViewIfNeeded();
  const box = await graph.boundingBox();
  // The graph says where its first and last positions are, as fractions of its width.
  const [x0, x1] = await graph.evaluate((g) => [Number(g.dataset.x0), Number(g.dataset.x1)]);
  const at = (i, y) => graph.click({ position: { x: (x0 + (i / n) * (x1 - x0)) * box.width, y } });
  await at(n - 2, box.height / 2); // the position two moves before the end
  await page.waitForSelector(`.movetree .tree-move.current[data-ply="${n - 2}"]`);
  await page.waitForFunction(() => /with best play/.test(document.querySelector('.eval-line')?.textContent || ''), null, { timeout: 20000 });
  assert.match(await page.textContent('.eval-line'), /^(White wins by \d+|Black wins by \d+|A draw) with best play$/);
  await page.waitForSelector('main svg.board .note-arrow.best', { state: 'attached' });
  await page.screenshot({ path: join(SHOTS, 'analysis-verdict.png'), fullPage: true });

  // Click an earlier point: the cursor moves with it.
  await at(2, 20);
  await page.waitForSelector('.movetree .tree-move.current[data-ply="2"]');

  // A variation: play another move than the game's on the board; it joins the tree.
  const played = st.moves[2].notation;
  await page.waitForSelector('main svg.board .can-move');
  const legal = await api(`/api/analysis/moves?position=${encodeURIComponent(st.moves[1].position)}`);
  const alt = legal.legal_moves.find((m) => m.from && m.notation !== played);
  await page.click(`main svg.board .sq[data-square="${alt.from}"]`);
  await page.waitForSelector('main svg.board .stop');
  await page.click(`main svg.board .sq[data-square="${alt.to}"]`);
  await page.waitForSelector('.movetree .variation .tree-move.current');
  assert.equal(await page.textContent('.movetree .variation .tree-move.current'), `${alt.notation}`.replace(/^/, '2. '));
  await page.waitForSelector('main svg.board .note-arrow.best', { state: 'attached', timeout: 20000 });
  await page.screenshot({ path: join(SHOTS, 'analysis-variation.png'), fullPage: true });

  // Back to the game's line by the move list; the variation stays.
  await page.click(`.movetree > .tree-move[data-ply="${n}"]`);
  await page.waitForSelector(`.movetree > .tree-move.current[data-ply="${n}"]`);
  assert.equal(await page.locator('.movetree .variation .tree-move').count(), 1);

  // The other scoring mode beside it.
  await page.check('.other-mode input');
  await page.waitForSelector('svg.eval-graph polyline.graph-line.other', { timeout: 60000 });
  noErrors(ctx);
  await ctx.close();
});

test('a logged-in player sees a finished game\'s evaluation graph (issue 52)', async () => {
  // The game's analysis is a POST: it was refused without the session's CSRF token, and the page
  // said the session had changed in another tab.
  const { id, st } = await finishedGame(12);
  const name = `graph${Date.now().toString(36).slice(-5)}`;
  await signUp(name);
  const ctx = await context({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/login`);
  await page.waitForSelector('form.login-card');
  await page.fill('#login-name', name);
  await page.fill('#login-password', PASSWORD);
  await page.click('form.login-card button[type="submit"]');
  await page.waitForSelector('#account-button');
  await page.goto(`${BASE}/analysis?game=${id}`);
  await page.waitForFunction((k) => document.querySelector('svg.eval-graph')?.dataset.points === String(k), st.moves.length + 1, { timeout: 60000 });
  await page.waitForSelector('svg.eval-graph polyline.graph-line');
  assert.equal(await page.locator('.toast.error').count(), 0, 'no error said');
  noErrors(ctx);
});

test('a position string is analysed, in another language and the dark theme', async () => {
  const { st } = await finishedGame(12);
  const late = st.moves[st.moves.length - 2].position;
  const ctx = await context({ locale: 'en-US', colorScheme: 'dark' });
  const page = await ctx.newPage();
  // The home page estimates a given setup, and links to its analysis.
  await page.goto(`${BASE}/`);
  await page.click('label:has(input[name="setup"][value="position"])');
  await page.fill('#setup-text', st.start);
  await page.waitForFunction(() => /^The engine’s estimate: White’s chances \d+\.\d%\.$/.test(document.querySelector('.deal-estimate')?.textContent || ''), null, { timeout: 20000 });
  await page.goto(`${BASE}/analysis`);
  await page.fill('#analysis-input', late);
  await page.click('form.analysis-form button[type="submit"]');
  await page.waitForURL(/\/analysis\?position=/);
  await page.waitForFunction(() => /with best play/.test(document.querySelector('.eval-line')?.textContent || ''), null, { timeout: 20000 });
  assert.ok(await page.locator('svg.eval-graph').isHidden(), 'no graph without a game');
  await page.selectOption('#lang-menu', 'fr');
  await page.waitForFunction(() => /avec le meilleur jeu|Nulle/.test(document.querySelector('.eval-line')?.textContent || ''));
  const texts = await visibleTexts(page);
  assert.ok(texts.includes('Coups et variantes'), texts.join(' | '));
  await page.screenshot({ path: join(SHOTS, 'analysis-position-dark-fr.png'), fullPage: true });
  await page.selectOption('#lang-menu', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  // On a phone the board, the engine's view and the moves stack up without sideways scrolling
  // (the layout is CSS's alone: read at once after the resize).
  await page.setViewportSize({ width: 390, height: 844 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `the page is ${wide}px wide on a 390px screen`);
  await page.screenshot({ path: join(SHOTS, 'analysis-phone.png'), fullPage: true });
  // A bad position string is refused with a reason.
  await page.goto(`${BASE}/analysis?position=xyz`);
  await page.waitForSelector('.notfound');
  noErrors(ctx);
  await ctx.close();
});

test('hints against the engine are off by default, shown as an arrow, counted and kept in the record', async () => {
  const ctx = await context({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/`);
  await page.click('label.opponent:has(input[value="engine"])');
  await page.locator('#level').fill('1');
  await page.click('label:has(input[name="color"][value="white"])');
  await page.click('label:has(input[name="first"][value="white"])');
  await page.click('form.newgame button[type="submit"]');
  await page.waitForURL(/\/game\/[a-z0-9]+$/);
  const id = gameId(page);
  await waitTurn(page);
  assert.equal(await page.isChecked('.hints-toggle'), false, 'hints are off by default');
  assert.equal(await page.locator('.hint-button').count(), 0);
  await page.check('.hints-toggle');
  await page.click('.hint-button');
  await page.waitForSelector('main svg.board .note-arrow.best', { state: 'attached', timeout: 20000 });
  await page.waitForSelector('.hint-count');
  assert.equal(await page.textContent('.hint-count'), 'Hints used in this game: 1');
  await page.screenshot({ path: join(SHOTS, 'game-hint.png') });
  assert.match(await api(`/api/games/${id}/record`), /\[WhiteHints "1"\]/);
  // After a move, the old hint is gone from the board.
  const st = await state(id);
  await clickMove(page, pick(st));
  await waitMoves(page, 1);
  assert.equal(await page.locator('main svg.board .note-arrow').count(), 0);
  noErrors(ctx);
  await ctx.close();
});

test('no context saw a console error', () => {
  for (const ctx of contexts) noErrors(ctx);
});
