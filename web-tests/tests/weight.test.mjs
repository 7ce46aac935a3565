// The weight of the pages: each page loaded in a fresh browser context (an empty cache), the bytes
// the browser received counted from the DevTools protocol (compressed bodies and headers), then
// a second visit in the same context. Also what the server sends: compressed files, one language,
// each page's script only on its page, long-lived caching of versioned files.
//
// The figures are printed as test diagnostics (`# home: first visit ...`); "files" are the
// page, scripts, styles and pictures, the rest the API's answers.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, api, pick } from './helpers.mjs';

let chrome;

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

/** Loads `path` in `page`, counting what arrives until the network is quiet. */
async function measure(page, path) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map();
  /** Requests not ended yet, and what to call when none are left. */
  const pending = new Set();
  let settled = () => {};
  const ended = (e) => {
    pending.delete(e.requestId);
    if (!pending.size) settled();
  };
  let bytes = 0;
  let files = 0;
  cdp.on('Network.requestWillBeSent', (e) => {
    urls.set(e.requestId, e.request.url);
    pending.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    if (!new URL(urls.get(e.requestId) || BASE).pathname.startsWith('/api/')) files += e.encodedDataLength;
    ended(e);
  });
  cdp.on('Network.loadingFailed', ended);
  await page.goto(`${BASE}${path}`, { waitUntil: 'networkidle' });
  // A request begun since (a list's refresh) is counted whole.
  if (pending.size) await new Promise((resolve) => { settled = resolve; });
  await cdp.detach();
  return { bytes, files, requests: [...urls.values()] };
}

const KiB = 1024;

test('a first visit to each page moves less than 100 KiB; a second moves almost nothing', async (t) => {
  const grant = await api('/api/games', { method: 'POST', body: { mode: 'local', seed: '50' } });
  let st = grant.state;
  while (st.status === 'playing') st = await api(`/api/games/${grant.game_id}/moves`, { method: 'POST', token: grant.token, body: { move: pick(st).notation } });
  const live = await api('/api/games', { method: 'POST', body: { mode: 'engine', seed: '51' } });
  const pages = {
    home: '/',
    game: `/game/${live.game_id}`,
    replay: `/replay/${grant.game_id}`,
    rules: '/rules',
    lobby: '/lobby',
    analysis: `/analysis?game=${grant.game_id}`,
  };
  for (const [name, path] of Object.entries(pages)) {
    const ctx = await chrome.context({ locale: 'de-DE' });
    const page = await ctx.newPage();
    const first = await measure(page, path);
    const second = await measure(page, path);
    const kib = (n) => `${(n / KiB).toFixed(1)} KiB`;
    t.diagnostic(`${name}: first visit ${kib(first.bytes)} (files ${kib(first.files)}) in ${first.requests.length} requests; second visit ${kib(second.bytes)} (files ${kib(second.files)})`);
    const langs = first.requests.filter((u) => /\/js\/lang\//.test(u));
    assert.equal(langs.length, 1, `${name}: one language file (${langs.join(', ')})`);
    assert.match(langs[0], /\/js\/lang\/de\.js\?v=/);
    const scripts = first.requests.filter((u) => /\/js\/pages\/[a-z-]+\.js/.test(u)).map((u) => new URL(u).pathname);
    if (name === 'home') assert.deepEqual(scripts.filter((s) => s !== '/js/pages/home.js' && s !== '/js/pages/errors.js' && s !== '/js/pages/dialogs.js'), [], `home loads ${scripts.join(', ')}`);
    if (name === 'rules') assert.ok(!scripts.includes('/js/pages/game.js') && !scripts.includes('/js/pages/analysis.js'), `rules loads ${scripts.join(', ')}`);
    if (name === 'home' || name === 'game') assert.ok(first.bytes < 100 * KiB, `${name}: ${first.bytes} bytes`);
    // A second visit asks again only whether the page changed; the API's answers are news.
    assert.ok(second.files < 2 * KiB, `${name}: a second visit moves ${second.files} bytes of files`);
    await ctx.close();
  }
});

test('files are compressed, versioned and cached for a year; the page is revalidated', async () => {
  const page = await fetch(`${BASE}/`, { headers: { 'accept-encoding': 'br' } });
  assert.equal(page.headers.get('content-encoding'), 'br');
  assert.equal(page.headers.get('cache-control'), 'no-cache');
  const etag = page.headers.get('etag');
  assert.ok(etag, 'the page has an ETag');
  const html = await page.text();
  const again = await fetch(`${BASE}/`, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  const map = JSON.parse(html.match(/<script type="importmap">(.*?)<\/script>/s)[1]);
  const game = map.imports['/js/pages/game.js'];
  assert.match(game, /^\/js\/pages\/game\.js\?v=[0-9a-f]{12}$/);
  for (const encoding of ['br', 'gzip']) {
    const res = await fetch(`${BASE}${game}`, { headers: { 'accept-encoding': encoding } });
    assert.equal(res.headers.get('content-encoding'), encoding);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(res.headers.get('content-type'), /javascript/);
  }
  const raw = await fetch(`${BASE}/js/pages/game.js`, { headers: { 'accept-encoding': 'identity' } });
  assert.equal(raw.headers.get('cache-control'), 'no-cache', 'an unversioned address is revalidated');
  assert.match(html, /href="\/css\/style\.css\?v=[0-9a-f]{12}"/);
});
