// Installable and offline: the web manifest and its icons; the service worker keeps the page and
// its files, so that the rules and a finished game's replay (once seen) open without a network,
// while a replay never seen says it cannot load.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch, api, pick, untilTrue } from './helpers.mjs';

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
  while (st.status === 'playing') st = await api(`/api/games/${grant.game_id}/moves`, { method: 'POST', token: grant.token, body: { move: pick(st, 4).notation } });
  return { id: grant.game_id, st };
}

test('the page is installable: a manifest with icons', async () => {
  const html = await (await fetch(`${BASE}/`)).text();
  const href = html.match(/<link rel="manifest" href="([^"]+)"/)[1];
  const res = await fetch(`${BASE}${href}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /manifest\+json/);
  const manifest = await res.json();
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.start_url, '/');
  for (const size of ['192x192', '512x512']) {
    const icon = manifest.icons.find((i) => i.sizes === size && i.type === 'image/png');
    assert.ok(icon, `an icon of ${size}`);
    const png = await fetch(`${BASE}${icon.src}`);
    assert.equal(png.headers.get('content-type'), 'image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    assert.equal(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`, size);
  }
  assert.ok(manifest.icons.some((i) => i.purpose === 'maskable'));
});

test('offline, the rules and a replay seen before still open; an unseen replay says it cannot load', async () => {
  const seen = await finishedGame(70);
  // A replay the worker has never kept. Not a real game: a browser's offline emulation may leave
  // the worker's own requests alone (Debian's chromium 148 does), and then a stored game would
  // load anyway; this one cannot load, online or not, so the page must say so either way.
  const unseen = { id: 'zz00unseen' };
  const ctx = await chrome.context({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/`);
  // The worker takes charge and keeps the files of this version.
  await page.waitForFunction(() => navigator.serviceWorker?.controller, null, { timeout: 15000 });
  const keys = async () => (await (await caches.open('mabula-1')).keys()).map((r) => new URL(r.url).pathname);
  const wanted = ['/', '/js/pages/rules.js', '/js/pages/game.js', '/js/lang/en.js', '/css/style.css'];
  await untilTrue(page, async (files) => {
    const kept = (await (await caches.open('mabula-1')).keys()).map((r) => new URL(r.url).pathname);
    return files.every((k) => kept.includes(k));
  }, wanted, 'kept for offline use');
  const kept = await page.evaluate(keys);
  assert.deepEqual(kept.filter((k) => k.startsWith('/js/lang/')), ['/js/lang/en.js'], 'only the language in use is kept');
  // A file of an older version is dropped when a page of the new one has loaded.
  await page.evaluate(async () => (await caches.open('mabula-1')).put('/js/app.js?v=000000000000', new Response('old')));
  await page.goto(`${BASE}/replay/${seen.id}`);
  await page.waitForFunction((n) => document.querySelectorAll('.movelist button[data-number]').length === n + 1, seen.st.moves.length);
  await untilTrue(page, async () => !(await (await caches.open('mabula-1')).match('/js/app.js?v=000000000000')), undefined, 'the old version is gone');

  // A document that is no page (the API's description) must not take the page's place.
  await page.goto(`${BASE}/api/openapi.json`);
  await ctx.setOffline(true);
  // The network is gone for the page and for the worker.
  assert.equal(await page.evaluate(() => fetch('/api/games?filter=live').then(() => 'online', () => 'offline')), 'offline');

  await page.goto(`${BASE}/rules`);
  await page.waitForSelector('main h1');
  const rules = await page.textContent('main');
  assert.ok(rules.length > 500, 'the rules are there');
  await page.screenshot({ path: join(SHOTS, 'offline-rules.png') });

  await page.goto(`${BASE}/replay/${seen.id}`);
  await page.waitForFunction((n) => document.querySelectorAll('.movelist button[data-number]').length === n + 1, seen.st.moves.length, { timeout: 10000 });
  await page.waitForSelector('main svg.board .layer-marbles > g', { state: 'attached' });
  await page.screenshot({ path: join(SHOTS, 'offline-replay.png') });

  await page.goto(`${BASE}/replay/${unseen.id}`);
  await page.waitForSelector('.notfound', { timeout: 10000 });
  await ctx.setOffline(false);
  // Only the failed loads of the offline moments are in the console.
  const other = ctx.errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED|Failed to fetch|net::/.test(e));
  assert.deepEqual(other, []);
  await ctx.close();
});
