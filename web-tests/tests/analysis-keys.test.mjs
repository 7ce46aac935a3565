// End-to-end tests of the analysis board's keyboard and links: the arrow keys step through the
// moves (announced to screen readers, never taken from the board's own squares), and the tree of
// variations lives in the address, so that a reload keeps it and a shared link opens it elsewhere.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, api, pick, clickMove } from './helpers.mjs';

let chrome;
/** A finished game: its id and state. */
let game;

before(async () => {
  chrome = await launch();
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'local', seed: '21' } });
  let st = grant.state;
  while (st.status === 'playing') {
    st = await api(`/api/games/${grant.game_id}/moves`, { method: 'POST', token: grant.token, body: { move: pick(st, 5).notation } });
  }
  game = { id: grant.game_id, st };
});

after(async () => {
  await chrome?.close();
});

const current = (page) => page.getAttribute('.movetree .tree-move.current', 'data-ply').then(Number);

/** Waits until the move tree's current move is at `ply`. */
const waitPly = (page, ply) => page.waitForSelector(`.movetree .tree-move.current[data-ply="${ply}"]`);

/** Waits until the screen reader's live region says something matching `re`. */
const waitSaid = (page, re) => page.waitForFunction((src) => new RegExp(src).test(document.getElementById('announcer')?.textContent || ''), re.source);

/** A move of the position after `ply` moves other than the game's next one. */
async function otherMove(ply) {
  const position = ply ? game.st.moves[ply - 1].position : game.st.start;
  const legal = await api(`/api/analysis/moves?position=${encodeURIComponent(position)}`);
  return legal.legal_moves.find((m) => m.from && m.notation !== game.st.moves[ply].notation);
}

test('arrow keys on the analysis board', async () => {
  const n = game.st.moves.length;
  const ctx = await chrome.context({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/analysis?game=${game.id}`);
  await waitPly(page, 0);
  await page.click('#analysis-title');

  // Right steps forward along the game's line, Left back, each step said.
  await page.keyboard.press('ArrowRight');
  await waitPly(page, 1);
  await waitSaid(page, new RegExp(`^Move 1 White: ${game.st.moves[0].notation}$`));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await waitPly(page, 3);
  await page.keyboard.press('ArrowLeft');
  await waitPly(page, 2);
  await waitSaid(page, new RegExp(`^Move 1 Black: ${game.st.moves[1].notation}$`));
  // End and Home: the ends of the line.
  await page.keyboard.press('End');
  await waitPly(page, n);
  await page.keyboard.press('Home');
  await waitPly(page, 0);
  await waitSaid(page, /^Starting position$/);

  // A variation tried in the place of move 2; Up and Down go between it and the game's move.
  await page.keyboard.press('ArrowRight');
  await waitPly(page, 1);
  const alt = await otherMove(1);
  await page.waitForSelector('main svg.board .can-move');
  await clickMove(page, alt);
  await page.waitForSelector('.movetree .variation .tree-move.current');
  await page.click('#analysis-title');
  await page.keyboard.press('ArrowUp');
  await page.waitForSelector('.movetree > .tree-move.current[data-ply="2"]');
  await waitSaid(page, new RegExp(`^Move 1 Black: ${game.st.moves[1].notation}$`));
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector('.movetree .variation .tree-move.current');
  await waitSaid(page, new RegExp(`^Move 1 Black: ${alt.notation}, variation 2 of 2$`));
  await page.keyboard.press('ArrowLeft');
  await waitPly(page, 1);

  // On the board the arrows move between its squares, not through the moves; with Alt they step.
  await page.focus('main svg.board .sq[tabindex="0"]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowUp');
  assert.equal(await current(page), 1, 'the arrows on the board move its focus only');
  assert.ok(await page.evaluate(() => document.activeElement?.closest('svg.board') !== null), 'the focus stays on the board');
  await page.keyboard.press('Alt+ArrowRight');
  await waitPly(page, 2);
  await page.screenshot({ path: join(SHOTS, 'analysis-keys.png'), fullPage: true });
  assert.deepEqual(ctx.errors, [], 'no console errors');
  await ctx.close();
});

test('reload keeps the variations, and a shared link opens them in a fresh browser context', async () => {
  const ctx = await chrome.context({ locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/analysis?game=${game.id}`);
  await waitPly(page, 0);
  await page.click('#analysis-title');
  // Two moves of a variation after move 3, the second of them shown.
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await waitPly(page, 3);
  const alt = await otherMove(3);
  await page.waitForSelector('main svg.board .can-move');
  await clickMove(page, alt);
  await page.waitForSelector('.movetree .variation .tree-move.current[data-ply="4"]');
  const after = (await api(`/api/analysis/moves?position=${encodeURIComponent(alt.position)}`)).legal_moves.find((m) => m.from);
  await page.waitForSelector('main svg.board .can-move');
  await clickMove(page, after);
  await page.waitForSelector('.movetree .variation .tree-move.current[data-ply="5"]');
  await page.waitForFunction(() => location.hash.includes('v='));
  const tree = async (p) => p.$$eval('.movetree .variation .tree-move', (els) => els.map((e) => e.textContent));
  const expected = await tree(page);
  assert.equal(expected.length, 2);

  // A reload shows the same tree, at the same move.
  await page.reload();
  await page.waitForSelector('.movetree .variation .tree-move.current[data-ply="5"]');
  assert.deepEqual(await tree(page), expected);

  // Share copies the link; another browser context opens it with the variation.
  await page.click('.share-button');
  await page.waitForSelector('.toast');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, page.url());
  assert.match(link, /#v=[a-h1-8()]+&at=\d+$/);
  assert.ok(link.length < 400, `a short link: ${link}`);
  await page.screenshot({ path: join(SHOTS, 'analysis-share.png'), fullPage: true });
  const other = await chrome.context({ locale: 'en-US' });
  const page2 = await other.newPage();
  await page2.goto(link);
  await page2.waitForSelector('.movetree .variation .tree-move.current[data-ply="5"]');
  assert.deepEqual(await tree(page2), expected);
  assert.ok(await page2.locator('.link-notice').isHidden());

  // A malformed link: the game without variations, and a notice; never a broken page.
  await page2.goto(`${BASE}/analysis?game=${game.id}#v=b1b4((zz&at=9`);
  await page2.waitForSelector('.link-notice:not([hidden])');
  assert.match(await page2.textContent('.link-notice'), /could not be read/);
  await waitPly(page2, 0);
  assert.equal(await page2.locator('.movetree .variation').count(), 0);
  // A link with a move that is not legal keeps what is, and says so.
  await page2.goto(`${BASE}/analysis?game=${game.id}#v=${game.st.moves[0].notation.replace('-', '')}(pass)&at=2`);
  await page2.waitForSelector('.link-notice:not([hidden])');
  await waitPly(page2, 0);
  await page2.screenshot({ path: join(SHOTS, 'analysis-link-broken.png'), fullPage: true });
  assert.deepEqual([...ctx.errors, ...other.errors], [], 'no console errors');
  await ctx.close();
  await other.close();
});

test('the evaluation graph is drawn whole from quick values before the full analyses deepen it', async () => {
  // A game of its own, so that none of its positions is analysed yet.
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'local', seed: '23' } });
  let st = grant.state;
  while (st.status === 'playing') {
    st = await api(`/api/games/${grant.game_id}/moves`, { method: 'POST', token: grant.token, body: { move: pick(st, 2).notation } });
  }
  const n = st.moves.length;
  const ctx = await chrome.context({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/analysis?game=${grant.game_id}`);
  // A moment when every position has a point and not all are the full analysis's: the graph
  // says so. A page that waited for each full analysis in turn never shows it.
  await page.waitForFunction((k) => {
    const g = document.querySelector('svg.eval-graph');
    return g?.dataset.points === String(k) && Number(g.dataset.deep) < k
      && /^quick values for every move; looking deeper: \d+ of \d+ positions$/.test(document.querySelector('.graph-state')?.textContent || '');
  }, n + 1, { timeout: 30000 });
  await page.screenshot({ path: join(SHOTS, 'analysis-graph-quick.png'), fullPage: true });
  // Then the full analyses replace them all, and the notes come.
  await page.waitForFunction((k) => document.querySelector('svg.eval-graph')?.dataset.deep === String(k), n + 1, { timeout: 60000 });
  await page.waitForFunction(() => document.querySelector('.graph-counts')?.textContent.length > 0);
  assert.equal(await page.textContent('.graph-state'), '');
  assert.deepEqual(ctx.errors, [], 'no console errors');
  await ctx.close();
});
