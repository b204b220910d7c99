import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addTestUser, pkce, PASSWORD } from './_authorize.js';
import {
  ARTIFACTS,
  browserAvailability,
  launchChromium,
  startCallbackServer,
  type CallbackServer,
  watchedPage,
  screenshotsAt,
  DESKTOP,
} from './_browser.js';
import { assertOkJson } from './_oauth-assertions.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';

const { skip, unavailable } = browserAvailability();

const MOBILE = { width: 375, height: 812 };

describe('the account page and sign-out in a real browser (chromium)', { skip, timeout: 180_000 }, () => {
  let server: TestServer;
  let callback: CallbackServer;
  let browser: Browser;
  let client: TestClient;
  const violations: string[] = [];

  before(async () => {
    if (unavailable) return;
    server = await startTestServer();
    callback = await startCallbackServer();
    client = await server.addClient({
      id: 'notes',
      name: 'Notes',
      redirectUris: [callback.uri],
      postLogoutRedirectUris: [callback.uri],
      scope: ['openid', 'profile', 'email', 'contacts:read'],
    });
    await addTestUser(server, 'alice');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await callback?.close();
    await server?.close();
  });

  async function newPage(): Promise<Page> {
    return (await watchedPage(browser, violations)).page;
  }

  async function screenshots(page: Page, name: string): Promise<void> {
    await screenshotsAt(page, ARTIFACTS, name, MOBILE);
  }

  /** Signs in and allows, as a person would; the token response of the code. */
  async function signInThroughTheClient(
    page: Page,
    extra: Record<string, string> = {},
  ): Promise<Record<string, unknown>> {
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.id,
      redirect_uri: callback.uri,
      scope: 'openid profile email contacts:read',
      state: 's',
      nonce: 'n',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    await page.goto(`${server.url}/authorize?${query}`);
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(callback.uri));
    const code = callback.received.at(-1)?.get('code') ?? assert.fail('a code');
    return assertOkJson(
      await server.post(
        '/token',
        { grant_type: 'authorization_code', code, redirect_uri: callback.uri, code_verifier: verifier },
        { as: client },
      ),
    );
  }

  it('chromium is installed', () => {
    if (unavailable) throw unavailable;
  });

  /** The width and height of the application's icon, as laid out. */
  async function iconBox(page: Page): Promise<{ width: number; height: number }> {
    const box = await page.locator('.application .mark').boundingBox();
    assert.ok(box, 'the application has its icon');
    return { width: Math.round(box.width), height: Math.round(box.height) };
  }

  it('an application signed in to twice is one entry on the account page, in plain words and with a square icon at phone and desktop width, and Remove access revokes both its grants at once', async () => {
    if (unavailable) throw unavailable;
    const page = await newPage();
    const first = await signInThroughTheClient(page);
    // A second sign-in from another browser (its own session); prompt=consent asks again (OIDC Core §3.1.2.1).
    const second = await signInThroughTheClient(await newPage(), { prompt: 'consent' });
    await page.goto(`${server.url}/account`);
    assert.equal(await page.title(), 'Your account · Gatehouse');
    const item = page.locator('.application');
    assert.equal(await item.count(), 1);
    const text = (await item.textContent()) ?? '';
    for (const words of [
      'Notes',
      'Sign you in with your account',
      'See your name, username and language',
      'Allowed since',
      'Last used',
    ])
      assert.ok(text.includes(words), `the page says ${words}`);
    const desktop = await iconBox(page);
    assert.equal(desktop.width, desktop.height, 'the icon is square at desktop width');
    await page.setViewportSize(MOBILE);
    const mobile = await iconBox(page);
    assert.equal(mobile.width, mobile.height, 'the icon is square at phone width');
    await page.setViewportSize(DESKTOP);
    // A link that does what a button does looks like one: no underline.
    const setUp = page.getByRole('link', { name: 'Set up two-step verification' });
    assert.equal(await setUp.evaluate((a) => getComputedStyle(a).textDecorationLine), 'none');
    await screenshots(page, 'account');
    await page.getByRole('button', { name: 'Remove access' }).click();
    await page.waitForURL(`${server.url}/account?done=access_removed&client_id=${client.id}`);
    assert.equal(await page.locator('.application').count(), 0);
    assert.equal(
      await page.getByRole('status').textContent(),
      `Access removed: Notes can no longer use your account. Its tokens stopped working.`,
    );
    await screenshots(page, 'account-access-removed');
    for (const tokens of [first, second])
      assert.equal((await refresh(server, client, tokens.refresh_token as string)).status, 400);
    assert.deepEqual(violations, []);
  });

  it('RP-initiated logout with id_token_hint returns to the client with its state, and the session is over', async () => {
    if (unavailable) throw unavailable;
    const page = await newPage();
    const tokens = await signInThroughTheClient(page);
    const logout = new URLSearchParams({
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: callback.uri,
      state: 'bye',
    });
    await page.goto(`${server.url}/end-session?${logout}`);
    await page.waitForURL((url) => url.href.startsWith(callback.uri));
    assert.equal(callback.received.at(-1)?.get('state'), 'bye');
    await page.goto(`${server.url}/account`);
    assert.equal(await page.textContent('h1'), 'Sign in', 'signed out: the account page asks to sign in');
    await page.goto(`${server.url}/logout`);
    await screenshots(page, 'logout');
    assert.deepEqual(violations, []);
  });
});
