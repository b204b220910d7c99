import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { DEFAULT_DELIVERY_POLICY, smtpSettingsFrom } from '../src/mail/index.js';
import {
  ARTIFACTS,
  browserSuiteSkip,
  launchChromium,
  screenshotsAt,
  startCallbackServer,
  watchedPage,
  type CallbackServer,
} from './_browser.js';
import { startTestServer, type TestServer } from './_server.js';
import { TestSmtpServer } from './_smtp.js';
import { TEST_CA } from './_tls.js';

let skip: string | false = false;
let unavailable: Error | undefined;
try {
  skip = browserSuiteSkip();
} catch (error) {
  unavailable = error as Error;
}

const PASSWORD = 'plum tractor velvet harbour';

describe(
  'a sign-up in a real browser (chromium), through a real SMTP server, to a relying party',
  { skip, timeout: 180_000 },
  () => {
    const smtp = new TestSmtpServer();
    let server: TestServer;
    let callback: CallbackServer;
    let browser: Browser;
    const violations: string[] = [];

    before(async () => {
      if (unavailable) return;
      await smtp.start();
      const policy = { ...DEFAULT_DELIVERY_POLICY, pollMs: 100, retryMs: 50, maxRetryMs: 400 };
      server = await startTestServer({
        reachableIssuer: true,
        signUp: { mode: 'open', domains: [] },
        mail: { transport: smtpSettingsFrom(smtp.url, TEST_CA), from: 'Gatehouse <no-reply@gatehouse.test>', policy },
      });
      callback = await startCallbackServer();
      await server.addClient({
        id: 'notes',
        name: 'Notes',
        public: true,
        redirectUris: [callback.uri],
        scope: ['openid', 'profile', 'email'],
      });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await callback?.close();
      await server?.close();
      await smtp.stop();
    });

    it('chromium is installed', () => {
      if (unavailable) throw unavailable;
    });

    it('Create an account → the mail → verified → signed in to the application (openid-client) with email_verified true', async () => {
      if (unavailable) throw unavailable;
      const config = await oidc.discovery(new URL(server.url), 'notes', undefined, oidc.None(), {
        execute: [oidc.allowInsecureRequests],
      });
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callback.uri,
        scope: 'openid profile email',
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });

      const page = (await watchedPage(browser, violations)).page;
      await page.goto(url.href);
      await page.getByRole('link', { name: 'Create an account' }).click();
      assert.equal(await page.title(), 'Create an account · Gatehouse');
      await screenshotsAt(page, ARTIFACTS, 'sign-up');
      await page.getByLabel('E-mail address').fill('Dana@Example.com');
      await page.getByLabel('Name').fill('Dana Doe');
      await page.getByLabel('Password').fill('password1');
      await page.getByRole('button', { name: 'Create the account' }).click();
      await page.getByRole('alert').getByText('Choose another password').waitFor();
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create the account' }).click();
      await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

      const [mail] = await smtp.waitFor(1);
      assert.equal(mail?.to, 'dana@example.com');
      assert.equal(mail?.subject, 'Verify your e-mail address');
      const link = /https?:\/\/\S+\/email-verification\?token=[A-Za-z0-9_-]+/.exec(mail?.text ?? '')?.[0];
      if (link === undefined) assert.fail(`a link in the mail: ${mail?.text}`);
      assert.ok(link.startsWith(server.url), `the mail links to this server: ${link}`);

      await page.goto(link);
      await page.getByRole('button', { name: 'Verify my address' }).click();
      await page.getByRole('heading', { name: 'Address verified' }).waitFor();
      await screenshotsAt(page, ARTIFACTS, 'sign-up-verified');
      // Back to the application's sign-in, with the username the mail named.
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel('Username').fill('dana@example.com');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((u) => u.href.startsWith(callback.uri));

      const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      });
      const claims = tokens.claims() ?? assert.fail('an ID token');
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      assert.equal(info.email, 'dana@example.com');
      assert.equal(info.email_verified, true);
      assert.equal(info.name, 'Dana Doe');
      assert.deepEqual(violations, []);
    });
  },
);
