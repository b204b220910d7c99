/**
 * Federation with node-oidc-provider (panva) as the upstream, an implementation nobody here wrote,
 * in chromium: its dev interactions sign the person in and ask consent; Gatehouse (on 127.0.0.1)
 * authenticates to it with private_key_jwt (RFC 7523 §2.2) and the client gets Gatehouse's tokens.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import Provider from 'oidc-provider';
import type { Browser, Page } from 'playwright-core';
import { putProvider } from '../src/federation/providers.js';
import { pkce } from './_authorize.js';
import { browserSuiteSkip, launchChromium, startCallbackServer, type CallbackServer } from './_browser.js';
import { freePort } from './_pg-cluster.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

let skip: string | false = false;
let unavailable: Error | undefined;
try {
  skip = browserSuiteSkip();
} catch (error) {
  unavailable = error as Error;
}

describe('federation with node-oidc-provider as the upstream (chromium)', { skip, timeout: 180_000 }, () => {
  let gatehouse: TestServer;
  let upstream: Server;
  let callback: CallbackServer;
  let browser: Browser;
  let notes: TestClient;
  let upstreamIssuer: string;

  before(async () => {
    if (unavailable) return;
    gatehouse = await startTestServer({ reachableIssuer: true });
    callback = await startCallbackServer();
    notes = await gatehouse.addClient({
      id: 'notes',
      name: 'Notes',
      redirectUris: [callback.uri],
      scope: ['openid', 'profile', 'email'],
    });
    const port = await freePort();
    const issuer = `http://localhost:${port}`;
    upstreamIssuer = issuer;
    const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    const clientKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    const { d: _private, ...clientPublic } = clientKey;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'gatehouse',
          token_endpoint_auth_method: 'private_key_jwt',
          id_token_signed_response_alg: 'ES256',
          jwks: { keys: [{ ...clientPublic, kid: 'gh', alg: 'ES256', use: 'sig' }] },
          grant_types: ['authorization_code'],
          response_types: ['code'],
          redirect_uris: [`${gatehouse.url}/federation/callback`],
        },
      ],
      jwks: { keys: [{ ...signing, kid: 'op', use: 'sig', alg: 'ES256' }] },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      findAccount: (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: () => ({ sub: id, email: `${id}@idp.example`, email_verified: true, name: `Olivia ${id}` }),
      }),
      features: { devInteractions: { enabled: true } },
    });
    upstream = provider.listen(port, '127.0.0.1');
    await new Promise((resolve) => upstream.once('listening', resolve));
    await putProvider(
      gatehouse.context.store,
      {
        id: 'oidcp',
        issuer,
        client_id: 'gatehouse',
        client_auth: 'private_key_jwt',
        private_jwk: { ...clientKey, kid: 'gh', alg: 'ES256' },
        display_name: 'Panva IdP',
        domains: ['idp.example'],
      },
      gatehouse.clock.now(),
      undefined,
    );
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => upstream?.close(resolve));
    await callback?.close();
    await gatehouse?.close();
  });

  it('chromium is installed', () => {
    if (unavailable) throw unavailable;
  });

  async function signIn(page: Page, login: string): Promise<Record<string, unknown>> {
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: notes.id,
      redirect_uri: callback.uri,
      scope: 'openid profile email',
      state: 's',
      nonce: 'n',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    await page.goto(`${gatehouse.url}/authorize?${query}`);
    await page.getByRole('button', { name: 'Sign in with Panva IdP' }).click();
    await page.waitForURL((url) => url.host.startsWith('localhost:'));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    const upstreamConsent = page.getByRole('button', { name: 'Continue' });
    await upstreamConsent.click();
    const ours = page.getByRole('button', { name: 'Allow' });
    await Promise.race([ours.waitFor(), page.waitForURL((url) => url.href.startsWith(callback.uri))]);
    if (await ours.count()) await ours.click();
    await page.waitForURL((url) => url.href.startsWith(callback.uri));
    const code = callback.received.at(-1)?.get('code') ?? assert.fail('a code');
    const response = await gatehouse.post(
      '/token',
      { grant_type: 'authorization_code', code, redirect_uri: callback.uri, code_verifier: verifier },
      { as: notes },
    );
    assert.equal(response.status, 200);
    return decodeJwt(((await response.json()) as { id_token: string }).id_token);
  }

  it('a person of node-oidc-provider signs in at Gatehouse (private_key_jwt to the upstream), consents, and the client gets a local, stable sub with amr fed', async () => {
    if (unavailable) throw unavailable;
    const first = await signIn(await (await browser.newContext()).newPage(), 'olivia');
    const user = (await gatehouse.context.store.listUsers()).find((u) => u.claims.email === 'olivia@idp.example');
    assert.ok(user, 'a user was provisioned from the upstream claims');
    assert.equal(user.claims.name, 'Olivia olivia');
    assert.equal(first.sub, user.subject);
    assert.deepEqual(first.amr, ['fed']);
    // Linked by the upstream's (iss, sub), not by the e-mail.
    const links = await gatehouse.context.store.listFederatedIdentitiesOf(user.username);
    assert.deepEqual(
      links.map((l) => [l.issuer, l.subject]),
      [[upstreamIssuer, 'olivia']],
    );
    const second = await signIn(await (await browser.newContext()).newPage(), 'olivia');
    assert.equal(second.sub, first.sub);
  });
});
