// A game as a picture: `GET /api/games/{id}/image` (SVG, PNG, the whole game as an animated PNG)
// and the share button of the game and replay pages.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, api, pick } from './helpers.mjs';

let chrome;

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

async function finishedGame(seed) {
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'local', seed: String(seed) } });
  let st = grant.state;
  while (st.status === 'playing') st = await api(`/api/games/${grant.game_id}/moves`, { method: 'POST', token: grant.token, body: { move: pick(st, 2).notation } });
  return { id: grant.game_id, st };
}

/** The chunk types of a PNG, in order. */
function chunks(bytes) {
  const out = [];
  for (let at = 8; at + 8 <= bytes.length;) {
    const len = bytes.readUInt32BE(at);
    out.push(bytes.toString('latin1', at + 4, at + 8));
    at += 12 + len;
  }
  return out;
}

test('any position of a game is a picture: SVG, PNG, and the whole game animated', async () => {
  const { id, st } = await finishedGame(60);
  const get = async (query) => {
    const res = await fetch(`${BASE}/api/games/${id}/image${query}`);
    return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), body: Buffer.from(await res.arrayBuffer()) };
  };
  const svg = await get('');
  assert.equal(svg.status, 200);
  assert.equal(svg.type, 'image/svg+xml');
  assert.equal(svg.cache, 'public, max-age=86400', 'a finished game’s picture does not change');
  const text = svg.body.toString();
  assert.equal((text.match(/url\(#w\)"/g) || []).length, 12);
  assert.equal((text.match(/url\(#b\)"/g) || []).length, 12);
  assert.ok(text.includes(st.position), 'the SVG names its position');

  const start = await get('?ply=0');
  assert.ok(start.body.toString().includes(st.start));

  const png = await get('?format=png&ply=3&size=300');
  assert.equal(png.type, 'image/png');
  assert.equal(png.body.subarray(1, 4).toString(), 'PNG');
  assert.equal(png.body.readUInt32BE(16), 300, 'width');
  assert.ok(!chunks(png.body).includes('acTL'), 'a still picture');

  const apng = await get('?format=apng&size=120');
  assert.equal(apng.type, 'image/png');
  const kinds = chunks(apng.body);
  assert.ok(kinds.includes('acTL'), 'animated');
  assert.equal(kinds.filter((k) => k === 'fcTL').length, st.moves.length + 1, 'a frame per position');

  for (const [query, status] of [[`?ply=${st.moves.length + 1}`, 400], ['?format=gif', 400], ['?size=5000', 400], ['?format=apng&ply=2', 400], ['?colour=red', 400]]) {
    const res = await get(query);
    assert.equal(res.status, status, query);
    assert.equal(JSON.parse(res.body.toString()).code, 'bad_request');
  }
  const missing = await fetch(`${BASE}/api/games/nosuchgame9/image`);
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).code, 'game_not_found');
});

test('the replay and game pages share the shown position as a picture', async () => {
  const { id, st } = await finishedGame(61);
  for (const [viewport, scheme, name] of [[{ width: 1280, height: 900 }, 'light', 'share.png'], [{ width: 390, height: 844 }, 'dark', 'share-phone-dark.png']]) {
    const ctx = await chrome.context({ locale: 'en-US', viewport, colorScheme: scheme });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/replay/${id}`);
    await page.waitForSelector('.movelist button[data-number]');
    // Go back five moves (until the page shows that position: a click while the page is
    // still drawing itself can land on a button that is being replaced), then share: the
    // picture is of the position shown.
    const back = `.movelist button[data-number="${st.moves.length - 5}"]`;
    for (let tries = 0; ; tries++) {
      await page.click(back);
      const shown = await page.waitForSelector(`${back}[aria-current="true"]`, { timeout: 2000 }).then(() => true, () => false);
      if (shown) break;
      assert.ok(tries < 3, 'the replay shows the move clicked');
    }
    await page.click('.share-button');
    await page.waitForSelector('dialog.share-dialog[open]');
    await page.waitForFunction(() => document.querySelector('.share-preview')?.naturalWidth > 0);
    const hrefs = await page.locator('.share-links a').evaluateAll((els) => els.map((a) => new URL(a.href).search));
    assert.deepEqual(hrefs, [`?format=png&ply=${st.moves.length - 5}`, `?format=svg&ply=${st.moves.length - 5}`, '?format=apng']);
    await page.screenshot({ path: join(SHOTS, name) });
    // The dialog leaves the page when its close event comes, a moment after the click.
    await page.click('dialog.share-dialog .dialog-buttons .btn');
    await page.waitForSelector('dialog.share-dialog', { state: 'detached' });
    assert.deepEqual(ctx.errors, []);
    await ctx.close();
  }
  // The game page has the button too, in every language.
  const ctx = await chrome.context({ locale: 'ro-RO' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/game/${id}`);
  await page.waitForSelector('.share-button');
  assert.equal(await page.textContent('.share-button'), 'Distribuie ca imagine');
  assert.deepEqual(ctx.errors, []);
  await ctx.close();
});
