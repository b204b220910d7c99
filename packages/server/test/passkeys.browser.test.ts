import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { profileWithAuthenticator, type AuthenticatorProfile } from './_account-browser.js';
import { addTestUser, pkce, PASSWORD } from './_authorize.js';
import {
  browserAvailability,
  ARTIFACTS,
  launchChromium,
  startCallbackServer,
  type CallbackServer,
  screenshotsAt,
} from './_browser.js';
import { DIALECTS, type Dialect } from './_dialects.js';
import { assertOkJson } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

const { skip, unavailable } = browserAvailability();

/**
 * Passkeys end to end in Chromium, with a virtual authenticator (Chrome DevTools Protocol
 * `WebAuthn.addVirtualAuthenticator`: a platform authenticator holding discoverable credentials and
 * verifying its user). The issuer is http://localhost:<port>: an RP ID cannot be an IP address.
 * One chromium for both dialects: on SQLite every flow, with screenshots; on PostgreSQL the decisive
 * one (enrol, sign out, sign in with the passkey alone), so that its writes are checked on both
 * dialects without doubling the suite's time.
 */
describe('passkeys in a real browser (chromium, virtual authenticator)', { skip, timeout: 240_000 }, () => {
  let browser: Browser;
  before(async () => {
    if (unavailable) return;
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
      let client: TestClient;
      let issuer: string;
      const violations: string[] = [];

      before(async () => {
        if (unavailable) return;
        server = await startTestServer({ dialect, reachableIssuer: 'localhost' });
        issuer = server.context.issuer;
        callback = await startCallbackServer();
        client = await server.addClient({
          id: 'notes',
          name: 'Notes',
          redirectUris: [callback.uri],
          scope: ['openid', 'profile'],
        });
        await addTestUser(server, 'alice');
      });
      after(async () => {
        await callback?.close();
        await server?.close();
      });

      /** A browser profile with a virtual platform authenticator (CTAP2, resident keys, user verification). */
      function newProfile(): Promise<AuthenticatorProfile> {
        return profileWithAuthenticator(browser, violations);
      }

      async function screenshots(page: Page, name: string): Promise<void> {
        await screenshotsAt(page, ARTIFACTS, name);
      }

      /** Opens the client's authorization request; returns its PKCE verifier. */
      async function startAuthorization(page: Page): Promise<string> {
        const { verifier, challenge } = pkce();
        const query = new URLSearchParams({
          response_type: 'code',
          client_id: client.id,
          redirect_uri: callback.uri,
          scope: 'openid profile',
          state: 's',
          nonce: 'n',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        });
        await page.goto(`${issuer}/authorize?${query}`);
        return verifier;
      }

      /** After signing in: allows if asked, then exchanges the code; the token response. */
      async function finish(page: Page, verifier: string): Promise<Record<string, unknown>> {
        const allow = page.getByRole('button', { name: 'Allow' });
        await Promise.race([
          page.waitForURL((url) => url.href.startsWith(callback.uri)),
          allow.waitFor().then(() => allow.click()),
        ]);
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

      function claimsOf(idToken: unknown): Record<string, unknown> {
        assert.equal(typeof idToken, 'string');
        return JSON.parse(Buffer.from((idToken as string).split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
          string,
          unknown
        >;
      }

      async function signOut(page: Page): Promise<void> {
        await page.goto(`${issuer}/logout`);
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.waitForURL(`${issuer}/logout`);
        // Not /account to check: its sign-in offers the passkey too, which the virtual authenticator
        // would answer by itself through the conditional request.
        assert.equal(await page.textContent('h1'), 'You are signed out');
      }

      if (!full)
        it('on PostgreSQL: enrol a passkey, sign out, sign in with the passkey alone; its use and audit event stored', async () => {
          if (unavailable) throw unavailable;
          const { page } = await newProfile();
          const first = await startAuthorization(page);
          await page.getByLabel('Username').fill('alice');
          await page.getByLabel('Password').fill(PASSWORD);
          await page.getByRole('button', { name: 'Sign in', exact: true }).click();
          const passwordTokens = await finish(page, first);
          await page.goto(`${issuer}/account`);
          await page.getByRole('button', { name: 'Add a passkey' }).click();
          await page.locator('.passkey-item').waitFor();
          await page.addInitScript(() => {
            PublicKeyCredential.isConditionalMediationAvailable = async () => false;
          });
          await signOut(page);
          const verifier = await startAuthorization(page);
          await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
          const tokens = await finish(page, verifier);
          const amr = claimsOf(tokens.id_token).amr as string[];
          assert.ok(
            amr.includes('hwk') || amr.includes('swk'),
            `amr ${JSON.stringify(amr)} has hwk or swk (RFC 8176 §2)`,
          );
          assert.ok(amr.includes('user') && !amr.includes('pwd'), `amr ${JSON.stringify(amr)}: user, no pwd`);
          assert.equal(claimsOf(tokens.id_token).sub, claimsOf(passwordTokens.id_token).sub);
          const alice = await server.context.store.findUser('alice');
          const [passkey] = await server.context.store.listPasskeys(alice?.subject as string);
          assert.notEqual(passkey?.lastUsedAt, null, 'its use stored');
          const [event] = await server.context.store.listAuditEvents({ event: 'sign_in_step_passed', limit: 1 });
          assert.match(event?.reason ?? '', /^passkey_sign_in: (hwk|swk) user$/);
          assert.equal(event?.subject, alice?.subject);
          assert.deepEqual(violations, []);
        });

      if (full)
        it('enrol a passkey on the account page, sign out, sign in with the passkey alone (amr hwk+user in the ID token), remove it, and see it refused', async () => {
          if (unavailable) throw unavailable;
          const { page, cdp, authenticatorId } = await newProfile();

          // A password sign-in, fresh: the account page offers "Add a passkey".
          const first = await startAuthorization(page);
          assert.equal(
            await page.getAttribute('#username', 'autocomplete'),
            'username webauthn',
            'conditional UI (autofill)',
          );
          await screenshots(page, 'passkey-sign-in');
          await page.getByLabel('Username').fill('alice');
          await page.getByLabel('Password').fill(PASSWORD);
          await page.getByRole('button', { name: 'Sign in', exact: true }).click();
          const passwordTokens = await finish(page, first);
          assert.deepEqual(claimsOf(passwordTokens.id_token).amr, ['pwd']);

          await page.goto(`${issuer}/account`);
          assert.equal(await page.locator('.passkey-item').count(), 0);
          await screenshots(page, 'passkey-account-empty');
          await page.getByLabel('Name of the new passkey (optional)').fill('Test laptop');
          await page.getByRole('button', { name: 'Add a passkey' }).click();
          await page.locator('.passkey-item').waitFor();
          assert.equal(await page.locator('.passkey-name').textContent(), 'Test laptop');
          assert.match((await page.locator('.passkey-item').textContent()) ?? '', /Not used yet/);
          const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
          assert.equal(credentials.length, 1);
          assert.equal(credentials[0]?.isResidentCredential, true, 'a discoverable credential');

          // Signed out, the passkey alone signs in: no username, no password typed. First by the
          // conditional request (autofill), which the virtual authenticator answers by itself, with no click.
          await signOut(page);
          const second = await startAuthorization(page);
          const conditionalTokens = await finish(page, second);
          const conditionalAmr = claimsOf(conditionalTokens.id_token).amr as string[];
          assert.ok(
            conditionalAmr.includes('hwk') || conditionalAmr.includes('swk'),
            `amr ${JSON.stringify(conditionalAmr)} has hwk or swk`,
          );

          // Then by the button "Sign in with a passkey" (the conditional request made unavailable).
          await page.addInitScript(() => {
            PublicKeyCredential.isConditionalMediationAvailable = async () => false;
          });
          await signOut(page);
          const third = await startAuthorization(page);
          await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
          const passkeyTokens = await finish(page, third);
          const amr = claimsOf(passkeyTokens.id_token).amr as string[];
          assert.ok(
            amr.includes('hwk') || amr.includes('swk'),
            `amr ${JSON.stringify(amr)} has hwk or swk (RFC 8176 §2)`,
          );
          assert.ok(amr.includes('user'), `amr ${JSON.stringify(amr)} has user`);
          assert.ok(!amr.includes('pwd'), 'no password');
          assert.equal(claimsOf(passkeyTokens.id_token).sub, claimsOf(passwordTokens.id_token).sub);

          // The account page shows the use; renamed, then removed.
          await page.goto(`${issuer}/account`);
          assert.match((await page.locator('.passkey-item').textContent()) ?? '', /Last used/);
          await page.getByLabel('New name for Test laptop').fill('Old laptop');
          await page.getByRole('button', { name: 'Rename' }).click();
          await page.waitForURL(`${issuer}/account?done=passkey_renamed`);
          assert.equal(await page.locator('.passkey-name').textContent(), 'Old laptop');
          await screenshots(page, 'passkey-account');
          await page.getByRole('button', { name: 'Remove passkey' }).click();
          await page.waitForURL(`${issuer}/account?done=passkey_removed`);
          assert.equal(await page.locator('.passkey-item').count(), 0);
          assert.match((await page.getByRole('status').first().textContent()) ?? '', /Passkey removed/);

          // The authenticator still offers it; the server refuses it (an unknown credential), audited.
          await signOut(page);
          await startAuthorization(page);
          await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
          await page.locator('.alert').waitFor();
          assert.match((await page.locator('.alert').textContent()) ?? '', /That passkey did not work/);
          assert.equal(await page.inputValue('#username'), '', 'the refusal does not tell whose passkey it was');
          await screenshots(page, 'passkey-sign-in-refused');
          const [event] = await server.context.store.listAuditEvents({ event: 'login_failed', limit: 1 });
          assert.equal(event?.reason, 'passkey_unknown');
          const events = (await server.context.store.listAuditEvents({ limit: 50 })).map((e) => e.event);
          for (const name of ['passkey_enrolled', 'sign_in_step_passed', 'passkey_renamed', 'passkey_removed'])
            assert.ok(events.includes(name as never), `${name} is audited`);
          assert.deepEqual(violations, []);
        });

      if (full)
        it('the catalog pages of the passkey refusals, at desktop and phone width', async () => {
          if (unavailable) throw unavailable;
          const { page } = await newProfile();
          for (const slug of ['passkey-sign-in-failed', 'passkey-enrolment-failed', 'fresh-sign-in-required']) {
            const answer = await page.goto(`${issuer}/problems/${slug}`);
            assert.equal(answer?.status(), 200);
            await screenshots(page, `problem-${slug}`);
          }
          assert.deepEqual(violations, []);
        });
    });
  }
});
