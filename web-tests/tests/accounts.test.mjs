// Accounts in the browser (issue 36): the sign-up form lists every rule up front and names the
// one that failed; the account page (reached from the account menu) changes the password, lists
// the sessions by device and logs one out, downloads the data and deletes the account after a
// dialog that asks the password; following a player from their profile puts them on the lobby's
// list of people with their live game; a declined challenge is told to the challenger. Also the
// account page on a phone in both orientations.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BASE, SHOTS, launch } from './helpers.mjs';

let chrome;
const contexts = [];
const PASSWORD = 'marbles on the edge';
const NEW_PASSWORD = 'quite another secret';
/** Names unique to this run, so the tests can run again on the same database. */
const run = Date.now().toString(36).slice(-5);
const CAT = `Cat${run}`;
const DAN = `Dan${run}`;

async function context(options) {
  const ctx = await chrome.context({ locale: 'en-US', ...options });
  contexts.push(ctx);
  return ctx;
}

function noErrors(ctx) {
  // A refused sign-up or a wrong password is answered 4xx, which the browser logs as a failed
  // load: those are expected here, nothing else is.
  const real = ctx.errors.filter((e) => !/Failed to load resource: the server responded with a status of (401|403|422)/.test(e));
  assert.deepEqual(real, [], 'no console errors');
}

before(async () => {
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
});

/** Fills the sign-up form and sends it. */
async function trySignUp(page, name, password) {
  await page.fill('#login-name', name);
  await page.fill('#login-password', password);
  await page.click('form.login-card button[type="submit"]');
}

/** Signs up in a new context; answers the page once the lobby shows. */
async function signedUp(name) {
  const ctx = await context();
  const page = await ctx.newPage();
  await page.goto(`${BASE}/signup`);
  await page.waitForSelector('form.login-card');
  await trySignUp(page, name, PASSWORD);
  await page.waitForURL(/\/lobby/);
  await page.waitForSelector('#account-button');
  return { ctx, page };
}

test('sign-up names the rule that failed', async () => {
  const ctx = await context();
  const page = await ctx.newPage();
  await page.goto(`${BASE}/signup`);
  await page.waitForSelector('form.login-card');
  // Every rule is listed before anything is tried.
  const passwordRules = await page.locator('#password-rules li').allInnerTexts();
  assert.deepEqual(passwordRules, [
    '8 to 128 characters.',
    'Not containing your name.',
    'Not one of the most common passwords.',
    'Not one character repeated.',
  ]);
  assert.equal(await page.locator('#name-rules li').count(), 2);
  assert.equal(await page.locator('#login-password').getAttribute('aria-describedby'), 'password-rules');

  const cases = [
    { name: `Eve${run}`, password: 'password1', says: 'This password is among the most common ones. Choose another.', rule: 'password_common' },
    { name: `Eve${run}`, password: `my eve${run} pass`.toLowerCase(), says: 'The password must not contain your name.', rule: 'password_has_name' },
    { name: 'admin', password: PASSWORD, says: 'This name is reserved (such as admin, guest or engine, or the name of a deleted account). Choose another.', rule: 'name_reserved' },
  ];
  for (const c of cases) {
    await trySignUp(page, c.name, c.password);
    await page.waitForFunction((text) => document.getElementById('login-error')?.textContent === text, c.says);
    // The rule in the list is marked too.
    const marked = await page.locator('.rules-list li.broken').getAttribute('data-rules');
    assert.ok(marked?.split(' ').includes(c.rule), `${c.rule} marked, not ${marked}`);
    if (c.rule === 'password_has_name') await page.screenshot({ path: join(SHOTS, 'signup-rule.png') });
  }
  assert.equal(new URL(page.url()).pathname, '/signup', 'still on the form');
  noErrors(ctx);
});

test('the account page changes the password, logs out another session and lists devices', async () => {
  const { ctx, page } = await signedUp(CAT);
  // A second browser logs in as the same account.
  const other = await context();
  const otherPage = await other.newPage();
  await otherPage.goto(`${BASE}/login`);
  await otherPage.waitForSelector('form.login-card');
  await otherPage.fill('#login-name', CAT);
  await otherPage.fill('#login-password', PASSWORD);
  await otherPage.click('form.login-card button[type="submit"]');
  await otherPage.waitForSelector('#account-button');

  // The account page, from the account menu, by keyboard.
  await page.focus('#account-button');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#account-menu:not([hidden]) a.account-settings');
  await page.click('#account-menu a.account-settings');
  await page.waitForURL(/\/account$/);
  await page.waitForSelector('#sessions li.session-row.current');
  await page.waitForFunction(() => document.querySelectorAll('#sessions li.session-row').length === 2);
  assert.match(await page.locator('#sessions li.current').innerText(), /this device/);
  assert.match(await page.locator('#sessions li.current').innerText(), /Chrom/);
  await page.screenshot({ path: join(SHOTS, 'account.png'), fullPage: true });

  // Log out the other session from here: the other browser is a guest at its next request.
  await page.locator('#sessions li.session-row:not(.current) button').click();
  await page.waitForFunction(() => document.querySelectorAll('#sessions li.session-row').length === 1);
  const otherStatus = await otherPage.evaluate(async () => (await fetch('/api/session')).status);
  assert.equal(otherStatus, 401);

  // A wrong current password is named; the right one changes it.
  await page.fill('#pw-current', 'not my password');
  await page.fill('#pw-new', NEW_PASSWORD);
  await page.click('form.account-card button[type="submit"]');
  await page.waitForFunction(() => document.getElementById('pw-error')?.textContent === 'This is not your password.');
  await page.fill('#pw-current', PASSWORD);
  await page.click('form.account-card button[type="submit"]');
  await page.waitForSelector('.toast:has-text("Your password is changed")');
  assert.equal(await page.inputValue('#pw-current'), '');

  // The data download is a link to the export, named after the account.
  const link = page.locator('#export-link');
  assert.equal(await link.getAttribute('href'), '/api/account/export');
  assert.equal(await link.getAttribute('download'), `mabula-${CAT.toLowerCase()}.json`);
  const exported = await page.evaluate(async () => (await fetch('/api/account/export')).json());
  assert.equal(exported.profile.name, CAT);
  noErrors(ctx);
});

test('following a player puts them on the lobby with their live game, and a declined challenge is told', async () => {
  const dan = await signedUp(DAN);
  const fay = await signedUp(`Fay${run}`);
  // Dan follows Fay from her profile.
  await dan.page.goto(`${BASE}/@/Fay${run}`);
  const follow = dan.page.locator('.follow-button');
  await dan.page.waitForSelector('.follow-button:not([disabled])');
  assert.equal(await follow.innerText(), 'Follow');
  await follow.click();
  await dan.page.waitForSelector('.follow-button[aria-pressed="true"]');
  assert.equal(await follow.innerText(), 'Unfollow');
  assert.equal(await dan.page.locator('.profile-head .online-dot').count(), 1, 'Fay is online');

  // Dan challenges Fay; she declines; Dan, on the lobby, is told.
  await dan.page.goto(`${BASE}/lobby?challenge=Fay${run}`);
  await dan.page.waitForFunction(() => document.activeElement?.id === 'seek-to');
  await dan.page.click('.seek-form label:has(input[name="time"][value="days"])');
  await dan.page.click('.seek-form button[type="submit"]');
  await dan.page.waitForSelector('#my-seeks .challenge-sent');
  const challenge = fay.page.locator('#challenges .challenge', { hasText: DAN });
  await challenge.waitFor();
  await challenge.locator('.decline-button').click();
  await dan.page.waitForSelector(`.toast:has-text("Fay${run} declined your challenge.")`);

  // Fay plays a third player: she seeks, Gus accepts.
  const gus = await signedUp(`Gus${run}`);
  await fay.page.goto(`${BASE}/lobby`);
  await fay.page.click('.seek-form label:has(input[name="time"][value="days"])');
  await fay.page.click('.seek-form button[type="submit"]');
  await fay.page.waitForSelector('#my-seeks .seek.mine');
  await gus.page.goto(`${BASE}/lobby`);
  const seek = gus.page.locator('#seeks .seek', { hasText: `Fay${run}` });
  await seek.waitFor();
  await seek.locator('.accept-button').click();
  await gus.page.waitForURL(/\/game\//);
  const gameId = new URL(gus.page.url()).pathname.split('/').pop();

  // Dan's lobby lists Fay, online, with a link to watch the game, and the count of players online.
  await dan.page.goto(`${BASE}/lobby`);
  const row = dan.page.locator('#following li.followed', { hasText: `Fay${run}` });
  await row.waitFor();
  await dan.page.waitForSelector(`#following a.watch-link[href="/game/${gameId}"]`);
  assert.equal(await row.locator('.online-dot:not(.off)').count(), 1);
  assert.match(await dan.page.locator('#online-count').innerText(), /^\d+ players? online$/);
  await dan.page.screenshot({ path: join(SHOTS, 'lobby-following.png'), fullPage: true });
  noErrors(dan.ctx);
});

test('the account page fits a phone both ways, and the account is deleted after the password is asked', async () => {
  const ctx = await context({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  const name = `Hal${run}`;
  await page.goto(`${BASE}/signup`);
  await page.waitForSelector('form.login-card');
  await trySignUp(page, name, PASSWORD);
  await page.waitForURL(/\/lobby/);
  await page.goto(`${BASE}/account`);
  await page.waitForSelector('#sessions li.session-row.current');
  for (const size of [{ width: 375, height: 667 }, { width: 667, height: 375 }]) {
    await page.setViewportSize(size);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= size.width, `no sideways scrolling at ${size.width}x${size.height}: ${wide}`);
    await page.screenshot({ path: join(SHOTS, `account-phone-${size.width}x${size.height}.png`), fullPage: true });
  }

  // The dialog asks the password; a wrong one is named, Escape closes it and focus returns.
  await page.click('#delete-account');
  await page.waitForSelector('dialog[open] #delete-password');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'delete-password');
  await page.fill('#delete-password', 'not it at all');
  await page.keyboard.press('Enter');
  await page.waitForSelector('dialog[open] .error-text:has-text("This is not your password.")');
  await page.keyboard.press('Escape');
  await page.waitForSelector('dialog', { state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'delete-account');
  await page.click('#delete-account');
  await page.waitForSelector('dialog[open] #delete-password');
  await page.fill('#delete-password', PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.toast:has-text("Your account is deleted.")');
  await page.waitForSelector('#account .login-link');
  const login = await page.evaluate(async ({ name, password }) => (await fetch('/api/session', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password }),
  })).status, { name, password: PASSWORD });
  assert.equal(login, 401, 'a deleted account cannot log in');
  noErrors(ctx);
});

test('a challenge to a player who blocks you says so; toasts leave the top bar free (issue 52)', async () => {
  // It said "Something went wrong".
  const kit = await signedUp(`Kit${run}`);
  const lou = await signedUp(`Lou${run}`);
  await kit.page.goto(`${BASE}/@/Lou${run}`);
  await kit.page.click('.block-button');
  await kit.page.waitForSelector('.block-button[data-i18n="block.unblock"]');
  // Its toast appears under the top bar, not over its links.
  await kit.page.waitForSelector(`.toast:has-text("You block Lou${run}")`);
  const [bar, toasts] = await kit.page.evaluate(() => [document.querySelector('.topbar'), document.getElementById('toasts')]
    .map((el) => el?.getBoundingClientRect().toJSON()));
  assert.ok(toasts.top >= bar.bottom, `toasts at ${toasts.top}, the top bar ends at ${bar.bottom}`);

  await lou.page.goto(`${BASE}/lobby?challenge=Kit${run}`);
  await lou.page.waitForFunction(() => document.activeElement?.id === 'seek-to');
  await lou.page.click('.seek-form label:has(input[name="time"][value="days"])');
  await lou.page.click('.seek-form button[type="submit"]');
  await lou.page.waitForFunction(() => document.querySelector('.seek-form .error-text')?.textContent === 'This player blocks you.');
  assert.equal(await lou.page.locator('#my-seeks .challenge-sent').count(), 0);
});
