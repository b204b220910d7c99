import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { totpCode } from '../src/factors/totp.js';
import { setUserPassword } from '../src/users/user-administration.js';
import { addUser } from '../src/users/users.js';
import { relyingParty, startAccountsBrowser, type AccountsBrowserSetup } from './_account-browser.js';
import { browserAvailability, ARTIFACTS, screenshotsAt, watchedPage, type CallbackServer } from './_browser.js';
import type { TestServer } from './_server.js';
import type { TestSmtpServer } from './_smtp.js';

const { skip, unavailable } = browserAvailability();

const TERMS = { url: 'https://example.com/terms/2026-11', version: '2026-11' } as const;
const TEMPORARY = 'given-by-the-operator-4Rw';
const CHOSEN = 'quarry lantern mosaic violet';

describe(
  'required actions in a real browser (chromium), through a real SMTP server, to a relying party',
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
      setup = await startAccountsBrowser({ emailVerification: 'required', terms: TERMS });
      ({ server, smtp, callback, browser } = setup);
    });
    after(() => setup?.close());

    it('chromium is installed', () => {
      if (unavailable) throw unavailable;
    });

    it('an unverified address, a temporary password, a required second factor and new terms: each action in order, then the code (openid-client)', async () => {
      if (unavailable) throw unavailable;
      const { store, audit } = server.context;
      await addUser(store, 'rosa', 'not-the-one-used-9Kp', server.clock.now(), {
        email: 'rosa@example.com',
        email_verified: false,
        name: 'Rosa Roe',
      });
      const rosa = await store.findUser('rosa');
      assert.ok(rosa);
      await store.setSecondFactorRequired(rosa.subject, true);
      await setUserPassword(audit, 'rosa', TEMPORARY, server.clock.now(), CLI_ACTOR, { temporary: true });

      const rp = await relyingParty(server, 'notes', callback.uri, 'openid profile email');
      const page = (await watchedPage(browser, violations)).page;
      await page.goto(rp.url.href);
      await page.getByLabel('Username').fill('rosa');
      await page.getByLabel('Password', { exact: true }).fill(TEMPORARY);
      await page.getByRole('button', { name: 'Sign in' }).click();

      // 1. The address: the code of the mail that arrived at the SMTP server.
      await page.getByRole('heading', { name: 'Verify your e-mail address' }).waitFor();
      const [mail] = await smtp.waitFor(1);
      assert.equal(mail?.to, 'rosa@example.com');
      const code = /: (\d{6})\./.exec(mail?.text ?? '')?.[1] ?? assert.fail(`a code in ${mail?.text}`);
      await page.getByLabel('Code from the e-mail').fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();

      // 2. The temporary password: the policy refuses a common one, then a password of one's own.
      await page.getByRole('heading', { name: 'Choose your own password' }).waitFor();
      await screenshotsAt(page, ARTIFACTS, 'required-action-password');
      await page.getByLabel('New password').fill('password1');
      await page.getByRole('button', { name: 'Set the password and continue' }).click();
      await page.getByRole('alert').getByText('common, was leaked').waitFor();
      await page.getByLabel('New password').fill(CHOSEN);
      await page.getByRole('button', { name: 'Set the password and continue' }).click();

      // 3. The second factor the operator requires: an authenticator app, then the recovery codes.
      await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
      const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replaceAll(' ', '');
      await page.getByLabel('Code from the app').fill(totpCode(secret, server.clock.now()));
      await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
      await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
      assert.equal(await page.locator('#recovery-codes li').count(), 10);
      await page.getByRole('link', { name: 'I saved them, continue' }).click();

      // 4. The terms: the document linked, then Accept.
      await page.getByRole('heading', { name: 'Terms of service' }).waitFor();
      await screenshotsAt(page, ARTIFACTS, 'required-action-terms');
      assert.equal(await page.getByRole('link', { name: 'Read the terms of service' }).getAttribute('href'), TERMS.url);
      await page.getByRole('button', { name: 'Accept' }).click();

      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((u) => u.href.startsWith(callback.uri));
      const { claims, userinfo: info } = await rp.finish(page.url());
      assert.equal(claims.sub, rosa.subject);
      assert.deepEqual([...(claims.amr as string[])].sort(), ['mfa', 'otp', 'pwd']);
      assert.equal(info.email_verified, true);

      const after = await store.findUser('rosa');
      assert.equal(after?.passwordTemporary, undefined);
      assert.equal(after?.secondFactorRequired, false);
      assert.equal(after?.termsAccepted?.version, TERMS.version);
      const steps = (await store.listAuditEvents({ event: 'sign_in_step_passed', limit: 100 }))
        .filter((e) => e.subject === rosa.subject)
        .map((e) => e.reason);
      assert.deepEqual(steps.slice(-5).sort(), [
        'accept_terms',
        'change_password',
        'otp_enrolment',
        'password',
        'verify_email',
      ]);
      assert.deepEqual(violations, []);
    });
  },
);
