import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { totpCode } from '../src/factors/totp.js';
import { DEFAULT_DELIVERY_POLICY, smtpSettingsFrom } from '../src/mail/index.js';
import { setUserPassword } from '../src/users/user-administration.js';
import { addUser } from '../src/users/users.js';
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

const TERMS = { url: 'https://example.com/terms/2026-11', version: '2026-11' } as const;
const TEMPORARY = 'given-by-the-operator-4Rw';
const CHOSEN = 'quarry lantern mosaic violet';

describe(
  'required actions in a real browser (chromium), through a real SMTP server, to a relying party',
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
        emailVerification: 'required',
        terms: TERMS,
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
      const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      });
      const claims = tokens.claims() ?? assert.fail('an ID token');
      assert.equal(claims.sub, rosa.subject);
      assert.deepEqual([...(claims.amr as string[])].sort(), ['mfa', 'otp', 'pwd']);
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
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
