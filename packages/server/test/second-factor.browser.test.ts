import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { totpCode } from '../src/factors/totp.js';
import { addTestUser, pkce, PASSWORD } from './_authorize.js';
import {
  browserAvailability,
  launchChromium,
  startCallbackServer,
  type CallbackServer,
  watchedPage,
  screenshotsAt,
} from './_browser.js';
import { DIALECTS, type Dialect } from './_dialects.js';
import { assertOkJson } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

const { skip, unavailable } = browserAvailability();

/** Every second-factor page, at both widths; docs/screenshots/ holds one set of them. */
const SHOTS = join(tmpdir(), 'gatehouse-second-factor-screenshots');

/**
 * One chromium for both dialects. On SQLite every flow, with screenshots; on PostgreSQL the
 * decisive ones only (enrolment, a code once, a recovery code once), so that the store's writes of
 * each step are checked on both dialects without doubling the suite's time.
 */
describe('second factors in a real browser (chromium)', { skip, timeout: 240_000 }, () => {
  let browser: Browser;
  before(async () => {
    if (unavailable) return;
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  it('chromium is installed', () => {
    if (unavailable) throw unavailable;
  });

  for (const dialect of DIALECTS) suite(dialect);

  function suite(dialect: Dialect): void {
    describe(`[${dialect}]`, () => {
      const full = dialect === 'sqlite';
      let server: TestServer;
      let callback: CallbackServer;
      let payroll: TestClient;
      let wiki: TestClient;
      const violations: string[] = [];
      let secret = '';
      let recovery: string[] = [];

      before(async () => {
        if (unavailable) return;
        server = await startTestServer({ dialect });
        callback = await startCallbackServer();
        const common = { redirectUris: [callback.uri], scope: ['openid', 'contacts:read'] };
        payroll = await server.addClient({ id: 'payroll', name: 'Payroll', secondFactor: 'required', ...common });
        wiki = await server.addClient({ id: 'wiki', name: 'Wiki', secondFactor: 'off', ...common });
        await addTestUser(server, 'alice');
      });
      after(async () => {
        await callback?.close();
        await server?.close();
      });

      async function newPage(): Promise<Page> {
        return (await watchedPage(browser, violations)).page;
      }

      async function screenshots(page: Page, name: string): Promise<void> {
        if (full) await screenshotsAt(page, SHOTS, name);
      }

      /** Opens an authorization request of `client` and types the password; `verifier` for the exchange. */
      async function startSignIn(page: Page, client: TestClient, extra: Record<string, string> = {}) {
        const { verifier, challenge } = pkce();
        const query = new URLSearchParams({
          response_type: 'code',
          client_id: client.id,
          redirect_uri: callback.uri,
          scope: 'openid contacts:read',
          state: 's',
          code_challenge: challenge,
          code_challenge_method: 'S256',
          ...extra,
        });
        await page.goto(`${server.url}/authorize?${query}`);
        return verifier;
      }

      async function typePassword(page: Page): Promise<void> {
        await page.getByLabel('Username').fill('alice');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
      }

      /** After the last step: Allow when asked, then the code exchanged; the ID token's claims. */
      async function finish(page: Page, client: TestClient, verifier: string) {
        const allow = page.getByRole('button', { name: 'Allow' });
        await Promise.race([
          allow.waitFor().then(() => allow.click()),
          page.waitForURL((url) => url.href.startsWith(callback.uri)),
        ]);
        await page.waitForURL((url) => url.href.startsWith(callback.uri));
        const code = new URL(page.url()).searchParams.get('code') ?? assert.fail('a code');
        const tokens = await assertOkJson(
          await server.post(
            '/token',
            { grant_type: 'authorization_code', code, redirect_uri: callback.uri, code_verifier: verifier },
            { as: client },
          ),
        );
        return decodeJwt(tokens.id_token as string);
      }

      it('a client requiring a second factor makes the user set up TOTP from a QR code, shows ten recovery codes once, and the ID token says mfa', async () => {
        if (unavailable) throw unavailable;
        const page = await newPage();
        const verifier = await startSignIn(page, payroll);
        await typePassword(page);
        await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
        assert.ok(await page.locator('svg.qr').isVisible(), 'the QR code is shown');
        await screenshots(page, 'two-step-setup');
        secret = ((await page.locator('#totp-secret').textContent()) ?? '').replaceAll(' ', '');
        await page.getByLabel('Code from the app').fill(totpCode(secret, server.clock.now()));
        await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
        await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
        recovery = await page.locator('#recovery-codes li').allTextContents();
        assert.equal(recovery.length, 10);
        await screenshots(page, 'recovery-codes');
        const saved = page.getByRole('link', { name: 'I saved them, continue' });
        assert.equal(
          await saved.evaluate((a) => getComputedStyle(a).textDecorationLine),
          'none',
          'a button, not a link',
        );
        await saved.click();
        const claims = await finish(page, payroll, verifier);
        assert.deepEqual(claims.amr, ['pwd', 'otp', 'mfa']);
        assert.equal(claims.acr, 'mfa');
      });

      it('password then a code signs in; the same code again is refused (RFC 6238 §5.2)', async () => {
        if (unavailable) throw unavailable;
        server.clock.advance(90);
        const code = totpCode(secret, server.clock.now());
        const page = await newPage();
        const verifier = await startSignIn(page, payroll);
        await typePassword(page);
        await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
        await screenshots(page, 'two-step-verify');
        await page.getByLabel('Code from your authenticator app').fill(code);
        await page.getByRole('button', { name: 'Verify' }).first().click();
        assert.deepEqual((await finish(page, payroll, verifier)).amr, ['pwd', 'otp', 'mfa']);

        const again = await newPage();
        await startSignIn(again, payroll);
        await typePassword(again);
        await again.getByLabel('Code from your authenticator app').fill(code);
        await again.getByRole('button', { name: 'Verify' }).first().click();
        const alert = again.getByRole('alert');
        await alert.waitFor();
        assert.match((await alert.textContent()) ?? '', /used already/);
        await screenshots(again, 'two-step-refused');
      });

      it('a recovery code signs in once; the second use is refused', async () => {
        if (unavailable) throw unavailable;
        const page = await newPage();
        const verifier = await startSignIn(page, payroll);
        await typePassword(page);
        await page.getByText('Other ways to verify').click();
        await page.getByLabel('Recovery code').fill(recovery[0] as string);
        await page.getByRole('button', { name: 'Verify' }).nth(1).click();
        await finish(page, payroll, verifier);
        const [used] = await server.context.store.listAuditEvents({ event: 'sign_in_step_passed', limit: 1 });
        assert.equal(used?.reason, 'recovery_code: 9 left', 'the code spent and its audit event');

        const again = await newPage();
        await startSignIn(again, payroll);
        await typePassword(again);
        await again.getByText('Other ways to verify').click();
        await again.getByLabel('Recovery code').fill(recovery[0] as string);
        await again.getByRole('button', { name: 'Verify' }).nth(1).click();
        const alert = again.getByRole('alert');
        await alert.waitFor();
        assert.match((await alert.textContent()) ?? '', /wrong or was used already/);
      });

      if (full)
        it('acr_values=mfa steps a password-only session up at the factor page, not the password again (OIDC Core §3.1.2.1)', async () => {
          if (unavailable) throw unavailable;
          const page = await newPage();
          const first = await startSignIn(page, wiki);
          await typePassword(page);
          const sfa = await finish(page, wiki, first);
          assert.deepEqual(sfa.amr, ['pwd']);
          server.clock.advance(90);
          const verifier = await startSignIn(page, wiki, { acr_values: 'mfa' });
          await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
          assert.equal(await page.getByLabel('Password').count(), 0, 'no password field');
          await page.getByLabel('Code from your authenticator app').fill(totpCode(secret, server.clock.now()));
          await page.getByRole('button', { name: 'Verify' }).first().click();
          const claims = await finish(page, wiki, verifier);
          assert.equal(claims.acr, 'mfa');
          assert.deepEqual(claims.amr, ['pwd', 'otp', 'mfa']);
          await page.goto(`${server.url}/account`);
          assert.match((await page.locator('#two-step-status').textContent()) ?? '', /on/);
          await screenshots(page, 'account-two-step');
        });

      it('the pages load without a Content-Security-Policy violation', () => {
        if (unavailable) throw unavailable;
        assert.deepEqual(violations, []);
      });
    });
  }
});
