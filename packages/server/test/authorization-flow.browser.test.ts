import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addTestUser, pkce, PASSWORD } from './_authorize.js';
import {
  ARTIFACTS,
  browserAvailability,
  launchChromium,
  startCallbackServer,
  type CallbackServer,
  watchedPage,
  screenshotsAt,
} from './_browser.js';
import { assertOAuthError, assertOkJson } from './_oauth-assertions.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';

const { skip, unavailable } = browserAvailability();

const MOBILE = { width: 375, height: 812 };

describe('the authorization flow in a real browser (chromium)', { skip, timeout: 180_000 }, () => {
  let server: TestServer;
  let callback: CallbackServer;
  let browser: Browser;
  let client: TestClient;
  /** Every console message about a Content-Security-Policy violation, from every page. */
  const violations: string[] = [];

  before(async () => {
    if (unavailable) return;
    server = await startTestServer();
    callback = await startCallbackServer();
    client = await server.addClient({
      id: 'contacts-app',
      name: 'Contacts Sync',
      public: true,
      redirectUris: [callback.uri],
    });
    await addTestUser(server, 'alice');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await callback?.close();
    await server?.close();
  });

  async function newContext(): Promise<{ context: BrowserContext; page: Page }> {
    const { context, page } = await watchedPage(browser, violations);
    return { context, page };
  }

  /** A fresh authorization request for the public client, with its PKCE verifier. */
  function authorizationRequest(state: string): { url: string; verifier: string } {
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.id,
      redirect_uri: callback.uri,
      scope: 'contacts:read contacts:write',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return { url: `${server.url}/authorize?${query}`, verifier };
  }

  async function screenshots(page: Page, name: string): Promise<void> {
    // Readable on a phone: nothing wider than the screen.
    await screenshotsAt(page, ARTIFACTS, name, MOBILE);
  }

  /** Waits for the browser to land on the client's redirect URI and returns what the client received. */
  async function landedAtClient(page: Page): Promise<URLSearchParams> {
    await page.waitForURL((url) => url.href.startsWith(callback.uri));
    const received = callback.received.at(-1);
    assert.ok(received, 'the client received the redirect');
    assert.equal(received.get('iss'), 'http://gatehouse.test', 'RFC 9207 iss');
    return received;
  }

  async function exchange(code: string, verifier: string): Promise<Record<string, unknown>> {
    return assertOkJson(
      await server.post(
        '/token',
        { grant_type: 'authorization_code', code, redirect_uri: callback.uri, code_verifier: verifier },
        { as: client },
      ),
    );
  }

  async function signIn(page: Page, password = PASSWORD): Promise<void> {
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('chromium is installed', () => {
    if (unavailable) throw unavailable;
  });

  it('sign in, consent, code, token, refresh; revoke; refused; the flow again gives a new grant that works', async () => {
    if (unavailable) throw unavailable;
    const { context, page } = await newContext();
    const first = authorizationRequest('first');

    // The sign-in page, styled by the server's own stylesheet under its CSP.
    await page.goto(first.url);
    assert.equal(await page.title(), 'Sign in · Gatehouse');
    assert.ok((await page.textContent('.lead'))?.includes('Contacts Sync'));
    assert.notEqual(
      await page.evaluate(() => getComputedStyle(document.querySelector('.card') as Element).borderRadius),
      '0px',
      'the stylesheet applies',
    );
    await screenshots(page, 'login');

    // A wrong password: the same page again, with the catalog's message, and nothing granted.
    await signIn(page, 'not the password');
    await page.waitForSelector('.alert');
    assert.match((await page.textContent('.alert')) ?? '', /Wrong username or password/);
    await screenshots(page, 'login-failed');

    await signIn(page);
    await page.waitForSelector('form[action="/consent"]');
    assert.match((await page.textContent('h1')) ?? '', /Contacts Sync wants to access your account/);
    assert.deepEqual(await page.locator('.scope-words').allTextContents(), [
      'See your contacts',
      'Create, change and delete your contacts',
    ]);
    await screenshots(page, 'consent');

    // Allow: a 303 from the form POST straight to the client, which the CSP's form-action lets through.
    await page.getByRole('button', { name: 'Allow' }).click();
    const answer = await landedAtClient(page);
    assert.equal(answer.get('state'), 'first');
    const tokens = await exchange(answer.get('code') as string, first.verifier);
    assert.equal(tokens.scope, 'contacts:read contacts:write');
    const refreshed = await refresh(server, client, tokens.refresh_token as string);
    assert.equal(refreshed.status, 200, 'refresh works');

    // A second browser signs in; consent is remembered, so the sign-in form leads (303, 302) to the client.
    const other = await newContext();
    const second = authorizationRequest('second');
    await other.page.goto(second.url);
    await signIn(other.page);
    const secondAnswer = await landedAtClient(other.page);
    assert.equal(secondAnswer.get('state'), 'second');
    const secondTokens = await exchange(secondAnswer.get('code') as string, second.verifier);
    await other.context.close();

    // Revoke both grants: refresh is refused with invalid_grant, and consent is asked again.
    const liveRefreshToken = refreshed.body.refresh_token as string;
    for (const token of [liveRefreshToken, secondTokens.refresh_token as string]) {
      assert.equal((await server.post('/revoke', { token }, { as: client })).status, 200);
    }
    const refused = await server.post(
      '/token',
      { grant_type: 'refresh_token', refresh_token: liveRefreshToken },
      { as: client },
    );
    await assertOAuthError(refused, { error: 'invalid_grant', description: 'refresh token has been revoked' });

    // The same browser is still signed in: the consent page comes back. Deny first…
    const denied = authorizationRequest('denied');
    await page.goto(denied.url);
    await page.getByRole('button', { name: 'Deny' }).click();
    const denial = await landedAtClient(page);
    assert.equal(denial.get('error'), 'access_denied');
    assert.equal(denial.get('state'), 'denied');
    assert.equal(denial.get('code'), null);

    // …then the full flow again: a new grant that works, while the old token stays refused.
    const again = authorizationRequest('again');
    await page.goto(again.url);
    await page.getByRole('button', { name: 'Allow' }).click();
    const newAnswer = await landedAtClient(page);
    const newTokens = await exchange(newAnswer.get('code') as string, again.verifier);
    assert.equal(
      (await refresh(server, client, newTokens.refresh_token as string)).status,
      200,
      'the new grant refreshes',
    );
    assert.equal((await refresh(server, client, liveRefreshToken)).status, 400, 'the revoked grant stays refused');
    await context.close();
  });

  it('an unknown client gets the error page and no redirect', async () => {
    if (unavailable) throw unavailable;
    const { context, page } = await newContext();
    const before = callback.received.length;
    const response = await page.goto(
      `${server.url}/authorize?response_type=code&client_id=unknown-app&redirect_uri=${encodeURIComponent(callback.uri)}`,
    );
    assert.equal(response?.status(), 400);
    assert.equal(await page.textContent('h1'), 'This sign-in link is not valid');
    await screenshots(page, 'error');
    assert.equal(callback.received.length, before, 'nothing reached the redirect URI');
    await context.close();
  });

  it('no page broke its Content-Security-Policy', () => {
    if (unavailable) throw unavailable;
    assert.deepEqual(violations, []);
  });
});
