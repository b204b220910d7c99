import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { seriousViolations } from './_axe.js';
import {
  linkIn,
  profileWithAuthenticator,
  relyingParty,
  startAccountsBrowser,
  type AccountsBrowserSetup,
} from './_account-browser.js';
import { browserAvailability, ARTIFACTS, screenshotsAt, watchedPage, type CallbackServer } from './_browser.js';
import type { TestServer } from './_server.js';
import type { TestSmtpServer } from './_smtp.js';

const { skip, unavailable } = browserAvailability();

const PASSWORD = 'plum tractor velvet harbour';

describe(
  'a sign-up in a real browser (chromium), through a real SMTP server, to a relying party',
  { skip, timeout: 180_000 },
  () => {
    let setup: AccountsBrowserSetup;
    let server: TestServer;
    let smtp: TestSmtpServer;
    let callback: CallbackServer;
    let browser: Browser;
    const violations: string[] = [];

    before(async () => {
      if (unavailable) return;
      setup = await startAccountsBrowser({ signUp: { mode: 'open', domains: [] } });
      ({ server, smtp, callback, browser } = setup);
    });
    after(() => setup?.close());

    it('chromium is installed', () => {
      if (unavailable) throw unavailable;
    });

    it('Create an account → the mail → verified → signed in to the application (openid-client) with email_verified true', async () => {
      if (unavailable) throw unavailable;
      const rp = await relyingParty(server, 'notes', callback.uri, 'openid profile email');
      const page = (await watchedPage(browser, violations)).page;
      await page.goto(rp.url.href);
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
      const link = linkIn(mail, server.url, '/email-verification');

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

      const { userinfo: info } = await rp.finish(page.url());
      assert.equal(info.email, 'dana@example.com');
      assert.equal(info.email_verified, true);
      assert.equal(info.name, 'Dana Doe');
      assert.deepEqual(violations, []);
    });
  },
);

/**
 * A sign-up with a passkey instead of a password, in Chromium with a virtual authenticator. The
 * issuer is http://localhost:<port>: a passkey's RP ID cannot be an IP address.
 */
describe(
  'a sign-up with a passkey in a real browser (chromium), through a real SMTP server, to a relying party',
  { skip, timeout: 180_000 },
  () => {
    let setup: AccountsBrowserSetup;
    const violations: string[] = [];

    before(async () => {
      if (unavailable) return;
      setup = await startAccountsBrowser({
        reachableIssuer: 'localhost',
        signUp: { mode: 'open', domains: [], methods: ['password', 'passkey'] },
      });
    });
    after(() => setup?.close());

    it('Create my account with a passkey → the mail → verified → signed in to the application (openid-client) with the passkey and email_verified true', async () => {
      if (unavailable) throw unavailable;
      const { server, smtp, callback, browser } = setup;
      const { page, cdp, authenticatorId } = await profileWithAuthenticator(browser, violations);
      // The sign-in page's autofill request, which the virtual authenticator would answer by itself, made unavailable.
      await page.addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = async () => false;
      });
      const rp = await relyingParty(server, 'notes', callback.uri, 'openid profile email');
      await page.goto(rp.url.href);
      await page.getByRole('link', { name: 'Create an account' }).click();
      const passkeyButton = page.getByRole('button', { name: 'Create my account with a passkey' });
      // The form with its passkey shown (the script found WebAuthn) passes axe, in English and in Arabic.
      await passkeyButton.waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'axe-core, en');
      await page.getByRole('link', { name: 'العربية' }).click();
      await page.getByRole('button', { name: 'أنشئ حسابي بمفتاح مرور' }).waitFor();
      assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
      assert.deepEqual(await seriousViolations(page), [], 'axe-core, ar');
      await page.getByRole('link', { name: 'English' }).click();
      // No address yet: the browser asks for it, and no passkey is made.
      await passkeyButton.click();
      assert.equal(
        await page.getByLabel('E-mail address').evaluate((e) => (e as HTMLInputElement).validity.valid),
        false,
      );
      const none = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      assert.equal(none.credentials.length, 0);
      await page.getByLabel('E-mail address').fill('Gus@Example.com');
      await page.getByLabel('Name').fill('Gus Grant');
      await screenshotsAt(page, ARTIFACTS, 'sign-up-passkey');
      await passkeyButton.click();
      await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
      const made = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      assert.equal(made.credentials.length, 1);

      const [mail] = await smtp.waitFor(1);
      assert.equal(mail?.to, 'gus@example.com');
      assert.equal(mail?.subject, 'Verify your e-mail address');
      const user = await server.context.store.findUser('gus@example.com');
      assert.equal((await server.context.store.listPasskeys(user?.subject ?? '')).length, 1);
      await page.goto(linkIn(mail, server.context.issuer, '/email-verification'));
      await page.getByRole('button', { name: 'Verify my address' }).click();
      await page.getByRole('heading', { name: 'Address verified' }).waitFor();

      // Back to the application's sign-in: the passkey alone signs in (the account has no password).
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((u) => u.href.startsWith(callback.uri));
      const { claims, userinfo } = await rp.finish(page.url());
      assert.equal(claims.sub, user?.subject);
      assert.equal(userinfo.email, 'gus@example.com');
      assert.equal(userinfo.email_verified, true);
      assert.equal(userinfo.name, 'Gus Grant');
      const amr = (claims.amr ?? []) as string[];
      assert.ok((amr.includes('hwk') || amr.includes('swk')) && !amr.includes('pwd'), `amr ${JSON.stringify(amr)}`);
      assert.deepEqual(violations, []);
    });
  },
);
