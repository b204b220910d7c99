/**
 * An operator's day in the console, end to end in Chromium: an operator with a passkey (a virtual
 * authenticator) signs in, registers a client and copies its secret, a relying party (openid-client)
 * signs a user in with that secret, the operator revokes that grant, disables a user and finds the
 * audit events of all of it, exported as JSON lines. Every call of the console to the admin API
 * carries the operator's own DPoP-bound token.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { CONSOLE_CLIENT_ID } from '../src/console/index.js';
import { PASSWORD } from './_authorize.js';
import { browserSuiteSkip, type CallbackServer, launchChromium, startCallbackServer } from './_browser.js';
import {
  addOperatorPasskey,
  allowIfAsked,
  checkConsolePage,
  operatorProfile,
  signInToConsoleWithPasskey,
  startConsoleServer,
} from './_console-browser.js';
import type { TestServer } from './_server.js';

/** Another site: a page of its own origin, serving `html`. */
async function startOtherSite(html: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><title>Other site</title>${html}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe(
  'an operator in the console, end to end (chromium, virtual authenticator)',
  { skip: browserSuiteSkip(), timeout: 300_000 },
  () => {
    let server: TestServer;
    let browser: Browser;
    let callback: CallbackServer;
    let issuer: string;
    const violations: string[] = [];

    before(async () => {
      server = await startConsoleServer('pat', ['rita', 'mallory']);
      issuer = server.context.issuer;
      callback = await startCallbackServer();
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await callback?.close();
      await server?.close();
    });

    it('signs in with a passkey, registers a client whose copied secret signs a relying party in, revokes that grant, disables a user and sees it all in the audit trail', async () => {
      const { page, context } = await operatorProfile(browser, server, violations);
      let adminAuthorization: string | undefined;
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/admin/v1/'))
          adminAuthorization = request.headers()['authorization'];
      });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: issuer });

      // The operator's passkey, added on the account page after a password sign-in; then the console
      // signed in to with it.
      await addOperatorPasskey(page, issuer, 'pat', PASSWORD);
      await signInToConsoleWithPasskey(page, issuer);
      await page.getByRole('heading', { name: 'Signing keys' }).first().waitFor();
      await checkConsolePage(page, 'dashboard');
      const pat = await server.context.store.findUser('pat');
      const actor = `user:${pat?.subject} client:${CONSOLE_CLIENT_ID}`;

      // A client, its secret shown once and copied.
      await page.getByRole('link', { name: 'Clients', exact: true }).click();
      await page.getByLabel('Client ID', { exact: true }).fill('notes');
      await page.getByLabel('Name', { exact: true }).fill('Notes');
      await page.getByLabel('Redirect URIs', { exact: true }).fill(callback.uri);
      await page.getByRole('button', { name: 'Register client' }).click();
      await page.getByText('notes is registered.').waitFor();
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByRole('button', { name: 'Copied' }).waitFor();
      const secret = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(secret, await page.locator('.secret-value').textContent());

      // A relying party signs rita in with it: openid-client, discovery, code + PKCE, client_secret_basic.
      const config = await oidc.discovery(
        new URL(issuer),
        'notes',
        { client_secret: secret, [oidc.clockSkew]: server.clock.now() - Math.floor(Date.now() / 1000) },
        oidc.ClientSecretBasic(secret),
        { execute: [oidc.allowInsecureRequests] },
      );
      const verifier = oidc.randomPKCECodeVerifier();
      const nonce = oidc.randomNonce();
      const rpPage = await context.newPage();
      await rpPage.goto(
        oidc.buildAuthorizationUrl(config, {
          redirect_uri: callback.uri,
          scope: 'openid profile',
          nonce,
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          prompt: 'login',
        }).href,
      );
      await rpPage.getByLabel('Username').fill('rita');
      await rpPage.getByLabel('Password').fill(PASSWORD);
      await rpPage.getByRole('button', { name: 'Sign in', exact: true }).click();
      await allowIfAsked(rpPage, () => rpPage.waitForURL((url) => url.href.startsWith(callback.uri)));
      const returned = new URL(rpPage.url());
      const tokens = await oidc.authorizationCodeGrant(config, returned, {
        pkceCodeVerifier: verifier,
        expectedNonce: nonce,
      });
      const rita = await server.context.store.findUser('rita');
      assert.equal(tokens.claims()?.sub, rita?.subject, 'the relying party signed rita in');
      await rpPage.close();

      // The operator revokes that grant, on a second click.
      await page.getByRole('link', { name: 'Users', exact: true }).click();
      await page.getByLabel('Search by username').fill('rita');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('link', { name: 'rita' }).click();
      const grantRow = page.locator('tr', { hasText: 'notes' });
      await grantRow.getByRole('button', { name: 'Revoke' }).click();
      await grantRow.getByRole('button', { name: 'Click again to revoke notes' }).click();
      await page.getByText('The grant of notes is revoked.').waitFor();
      const refused = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? assert.fail('a refresh token')).then(
        () => 'refreshed',
        (error: unknown) => (error as { error?: string }).error,
      );
      assert.equal(refused, 'invalid_grant', 'the revoked grant refreshes no more (RFC 6749 §5.2)');

      // A user disabled.
      await page.getByRole('link', { name: 'Users', exact: true }).click();
      await page.getByLabel('Search by username').fill('mallory');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('link', { name: 'mallory' }).click();
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('button', { name: 'Click again to disable mallory' }).click();
      await page.getByText('mallory is disabled').waitFor();

      // The audit trail: the operator's changes, by the operator, and exported as JSON lines.
      await page.getByRole('link', { name: 'Audit trail', exact: true }).click();
      await page.getByRole('heading', { name: 'Audit trail', exact: true }).waitFor();
      await page.getByLabel('Actor').fill(actor);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const events = page.locator('tbody tr td:nth-child(2)');
      // The filtered answer, not the unfiltered list shown before it (which has rows enough too):
      // every row the operator's.
      await page.waitForFunction((who) => {
        const actors = Array.from(document.querySelectorAll('tbody tr td:nth-child(3)'), (td) => td.textContent);
        return actors.length >= 3 && actors.every((a) => a === who);
      }, actor);
      const shown = await events.allTextContents();
      for (const event of ['client_created', 'grant_revoked', 'user_disabled'])
        assert.ok(shown.includes(event), `${event} in ${shown.join(', ')}`);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export as JSON lines' }).click();
      const file = await (await download).path();
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      const exported = lines.map((line) => JSON.parse(line) as { event: string; actor: string });
      assert.deepEqual(
        exported.map((e) => e.event),
        shown,
        'the export holds the events the filter shows, one JSON object a line',
      );
      assert.ok(exported.every((e) => e.actor === actor));
      await page.getByRole('status').getByText(`${lines.length} events exported.`).waitFor();

      // The signing keys: the current one named; a rotation, confirmed by typing the server's host, asks a
      // sign-in of the last five minutes (OIDC Core §3.1.2.1 max_age, prompt=login) first.
      await page.getByRole('link', { name: 'Signing keys', exact: true }).click();
      const current = page.locator('tr[aria-current="true"] td:first-child').first();
      await current.waitFor();
      assert.ok(((await current.textContent()) ?? '').length > 0, 'the current key named');
      const host = new URL(issuer).host;
      const published = (await server.context.store.listSigningKeys()).length;
      await checkConsolePage(page, 'keys');
      server.clock.advance(10 * 60);
      await context.clock.setFixedTime(new Date(server.clock.now() * 1000));
      await page.getByLabel(`Type ${host} to confirm`).fill(host);
      await page.getByRole('button', { name: 'Rotate the keys' }).click();
      await page.waitForURL((url) => url.pathname === '/authorize');
      const asked = new URL(page.url()).searchParams;
      assert.equal(asked.get('max_age'), '300');
      assert.equal(asked.get('prompt'), 'login');
      assert.equal((await server.context.store.listSigningKeys()).length, published, 'nothing rotated before');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await allowIfAsked(page, () => page.getByRole('heading', { name: 'Signing keys', exact: true }).waitFor());
      assert.equal(new URL(page.url()).pathname, '/console/keys', 'back where the rotation was asked');
      await page.getByLabel(`Type ${host} to confirm`).fill(host);
      await page.getByRole('button', { name: 'Rotate the keys' }).click();
      await page.getByText('New keys are published.').waitFor();
      assert.ok((await server.context.store.listSigningKeys()).length > published, 'new keys stored');
      const [rotation] = await server.context.store.listAuditEvents({ event: 'signing_keys_rotated', limit: 1 });
      assert.equal(rotation?.actor, actor, 'audited as the operator');

      // Another site, in the same browser while the operator is signed in: a form it submits to the
      // admin API carries no token (the console sends its token in a header, never a cookie), so it is
      // refused and changes nothing (CSRF); the operator's token, copied out of the console, is no
      // bearer token anywhere else (RFC 9449 §7.2: DPoP-bound, its key not exportable from the page).
      const other = await startOtherSite(
        `<form id="f" method="post" action="${issuer}/admin/v1/users" enctype="text/plain">` +
          '<input name=\'{"username":"planted","x":"\' value=\'"}\'></form>' +
          "<script>document.getElementById('f').submit()</script>",
      );
      try {
        const otherPage = await context.newPage();
        const answer = otherPage.waitForResponse((response) => response.url() === `${issuer}/admin/v1/users`);
        await otherPage.goto(other.origin);
        assert.equal((await answer).status(), 401, 'the cross-site form is refused');
        assert.equal(await server.context.store.findUser('planted'), undefined, 'nothing made');
        await otherPage.close();
      } finally {
        other.server.closeAllConnections();
        other.server.close();
      }
      const copied = (adminAuthorization ?? assert.fail('the console called the admin API')).replace(/^DPoP /, '');
      const asBearer = await fetch(`${server.url}/admin/v1/users`, { headers: { authorization: `Bearer ${copied}` } });
      assert.equal(asBearer.status, 401, 'the copied token as a bearer token');
      const withoutProof = await fetch(`${server.url}/admin/v1/users`, {
        headers: { authorization: `DPoP ${copied}` },
      });
      assert.equal(withoutProof.status, 401, 'the copied token without a proof of its key');
      assert.deepEqual(violations, [], 'no page broke its CSP');
      await context.close();
    });
  },
);
