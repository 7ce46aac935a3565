// End-to-end test of the watch page: a rated lobby game between two accounts is listed with both
// names and ratings, as rated, with its clock (not as "between friends").

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch } from './helpers.mjs';

let chrome;

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

/** An account signed up from node: a `post(path, body)` with its session cookie and CSRF token. */
async function account(name) {
  const res = await fetch(`${BASE}/api/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: 'a long enough passphrase 42' }),
  });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('mabula_session='));
  return async (path, data) => {
    const r = await fetch(BASE + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': body.csrf },
      body: JSON.stringify(data),
    });
    const answer = await r.json();
    assert.ok(r.ok, `${path}: ${r.status} ${JSON.stringify(answer)}`);
    return answer;
  };
}

test('the watch page names the players of a rated lobby game with their ratings', async () => {
  const tag = String(Date.now() % 100000);
  const [white, black] = [`Wen${tag}`, `Bo${tag}`];
  const wen = await account(white);
  const bo = await account(black);
  const seek = await wen('/api/seeks', { scoring: 'largest', rated: true, clock: { initial_s: 300, increment_s: 3 }, color: 'white' });
  const started = await bo(`/api/seeks/${seek.id}/accept`, {});
  const ctx = await chrome.context({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/watch`);
  const item = page.locator(`#live-games a[href="/game/${started.game_id}"]`);
  await item.waitFor();
  const what = await item.locator('.what').innerText();
  assert.match(what, new RegExp(`^${white} \\(\\d+\\??\\) vs ${black} \\(\\d+\\??\\)$`));
  assert.match(await item.locator('.meta').innerText(), /^Rated game · 5\+3 · /);
  // Friend games of other tests may be live too (and are rightly "between friends"); this one is not.
  assert.ok(!/between friends/i.test(await item.innerText()), 'the lobby game is not "between friends"');
  await page.screenshot({ path: join(SHOTS, 'watch.png'), fullPage: true });
  assert.deepEqual(ctx.errors, [], 'no console errors');
  await ctx.close();
});
