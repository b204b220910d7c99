import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addUser } from '../src/users/users.js';
import { linkIn, startAccountsBrowser, type AccountsBrowserSetup } from './_account-browser.js';
import { pkce, PASSWORD } from './_authorize.js';
import { browserAvailability, ARTIFACTS, screenshotsAt, watchedPage, type CallbackServer } from './_browser.js';
import type { TestClient, TestServer } from './_server.js';
import type { TestSmtpServer } from './_smtp.js';

const { skip, unavailable } = browserAvailability();

const NEW_PASSWORD = 'plum tractor velvet harbour';

describe(
  'a forgotten password in a real browser (chromium), through a real SMTP server',
  { skip, timeout: 180_000 },
  () => {
    let setup: AccountsBrowserSetup;
    let server: TestServer;
    let smtp: TestSmtpServer;
    let callback: CallbackServer;
    let browser: Browser;
    let client: TestClient;
    const violations: string[] = [];

    before(async () => {
      if (unavailable) return;
      setup = await startAccountsBrowser({}, { confidential: true });
      ({ server, smtp, callback, client, browser } = setup);
      await addUser(server.context.store, 'alice', PASSWORD, server.clock.now(), { email: 'alice@example.com' });
    });
    after(() => setup?.close());

    async function newPage(): Promise<Page> {
      return (await watchedPage(browser, violations)).page;
    }

    /** Opens the client's authorization request: the sign-in page. */
    async function openSignIn(page: Page): Promise<void> {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: client.id,
        redirect_uri: callback.uri,
        scope: 'openid profile email',
        state: 's',
        nonce: 'n',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      });
      await page.goto(`${server.url}/authorize?${query}`);
    }

    async function signIn(page: Page, password: string): Promise<void> {
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }

    it('chromium is installed', () => {
      if (unavailable) throw unavailable;
    });

    it('Forgot your password? → the mail → a new password → every other browser signed out → signed in with it', async () => {
      if (unavailable) throw unavailable;
      // A browser where alice is signed in already.
      const elsewhere = await newPage();
      await openSignIn(elsewhere);
      await signIn(elsewhere, PASSWORD);
      await elsewhere.getByRole('button', { name: 'Allow' }).click();
      await elsewhere.waitForURL((url) => url.href.startsWith(callback.uri));

      const page = await newPage();
      await openSignIn(page);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      assert.equal(await page.title(), 'Reset your password · Gatehouse');
      await screenshotsAt(page, ARTIFACTS, 'password-reset');
      await page.getByLabel('Username or e-mail address').fill('Alice@Example.com');
      await page.getByRole('button', { name: 'Send the link' }).click();
      await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

      const [mail] = await smtp.waitFor(1);
      assert.equal(mail?.to, 'alice@example.com');
      assert.equal(mail?.subject, 'Reset your password');
      const link = linkIn(mail, server.url, '/password-reset/confirm');
      assert.ok(mail?.html.includes(link.replaceAll('&', '&amp;')), 'the HTML body carries the same link');

      await page.goto(link);
      assert.equal(await page.title(), 'Choose a new password · Gatehouse');
      await page.getByLabel('New password').fill('password1');
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.getByRole('alert').getByText('Choose another password').waitFor();
      await page.getByLabel('New password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.getByRole('heading', { name: 'Password changed' }).waitFor();
      await screenshotsAt(page, ARTIFACTS, 'password-reset-done');

      // The other browser's session ended with the reset: its account page asks to sign in.
      await elsewhere.goto(`${server.url}/account`);
      await elsewhere.getByRole('button', { name: 'Sign in' }).waitFor();

      // "Sign in" leads back to the application's request; the new password signs in.
      await page.getByRole('link', { name: 'Sign in' }).click();
      await signIn(page, NEW_PASSWORD);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((url) => url.href.startsWith(callback.uri));
      assert.ok(callback.received.at(-1)?.get('code'), 'a code for the application');

      // The link worked once.
      await page.goto(link);
      await page.getByRole('heading', { name: 'This password reset link no longer works' }).waitFor();
      assert.deepEqual(violations, []);
    });
  },
);
