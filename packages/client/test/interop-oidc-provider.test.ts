/**
 * The SDK's refresh and invalid_grant handling against node-oidc-provider (panva), a server nobody
 * here wrote: in-process, memory adapter, refresh-token rotation on, one confidential client. With
 * no browser, the grant and its first refresh token are minted through the provider's own models,
 * as its test suite does. A counting proxy in front is the issuer, so requests are counted where
 * they reach the provider; the provider's own `grant.error` events say the same.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Provider from 'oidc-provider';
import { MemoryTokenStore, ReauthenticationRequired, TokenManager } from '@gatehouse/client';
import { CALLBACK, TestClock } from './_gatehouse.js';
import { isRefresh, startCountingProxy, type CountingProxy } from './_proxy.js';

const CLIENT_ID = 'gatehouse-sdk';
const CLIENT_SECRET = randomBytes(32).toString('base64url');
const SCOPE = 'offline_access contacts:read';

describe('interoperability: the SDK against oidc-provider', () => {
  let proxy: CountingProxy;
  let provider: Provider;
  let server: ReturnType<Provider['listen']>;
  const refusals: string[] = [];

  before(async () => {
    proxy = await startCountingProxy();
    const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
    provider = new Provider(proxy.url, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          token_endpoint_auth_method: 'client_secret_basic',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          redirect_uris: [CALLBACK],
        },
      ],
      jwks: {
        keys: [
          { ...rsa, kid: 'rsa', use: 'sig' },
          { ...signing, kid: 'ec', use: 'sig' },
        ],
      },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      scopes: SCOPE.split(' '),
      rotateRefreshToken: true,
      features: {
        devInteractions: { enabled: false },
        introspection: {
          enabled: true,
          allowedPolicy: async (_ctx: unknown, client: { clientId: string }, token: { clientId: string }) =>
            token.clientId === client.clientId,
        },
      },
    });
    // error_detail is the provider's private reason; clients only see `grant request is invalid`.
    provider.on('grant.error', (_ctx, error) => refusals.push(error.error_detail ?? error.message));
    server = provider.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    proxy.target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await proxy.close();
  });

  /** A grant and its first refresh token, as an authorization code exchange would have stored them. */
  async function mintRefreshToken(accountId = 'alice'): Promise<string> {
    const grant = new provider.Grant({ accountId, clientId: CLIENT_ID });
    grant.addOIDCScope(SCOPE);
    const grantId = await grant.save();
    const client = await provider.Client.find(CLIENT_ID);
    return new provider.RefreshToken({ accountId, client, grantId, scope: SCOPE, gty: 'authorization_code' }).save();
  }

  async function managerWith(
    refreshToken: string,
    clock = new TestClock(),
  ): Promise<{ manager: TokenManager; store: MemoryTokenStore }> {
    const store = new MemoryTokenStore();
    const manager = new TokenManager({
      issuer: proxy.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: CALLBACK,
      scope: SCOPE,
      store,
      now: clock.nowMs,
      introspectOnInvalidGrant: true,
      retry: { baseDelayMs: 1 },
    });
    await manager.setTokens({
      access_token: 'expired',
      token_type: 'Bearer',
      expires_in: 0,
      refresh_token: refreshToken,
    });
    return { manager, store };
  }

  test('refresh works: discovery (OpenID Connect metadata), rotation, and 20 concurrent callers share one refresh', async () => {
    const first = await mintRefreshToken();
    const clock = new TestClock();
    const { manager, store } = await managerWith(first, clock);
    const mark = proxy.exchanges.length;
    const tokens = await Promise.all(Array.from({ length: 20 }, () => manager.getAccessToken()));
    assert.equal(new Set(tokens).size, 1);
    assert.notEqual(tokens[0], 'expired');
    assert.deepEqual(
      proxy.exchanges
        .slice(mark)
        .filter(isRefresh)
        .map((e) => e.status),
      [200],
      'one refresh reached the provider',
    );
    const rotated = (await store.read()).tokens?.refreshToken;
    assert.ok(rotated && rotated !== first, 'the provider rotated the refresh token');

    clock.advance(3600); // the access token (1 h at oidc-provider by default) is now expired for the SDK
    assert.notEqual(await manager.getAccessToken(), tokens[0]);
    assert.deepEqual(
      proxy.exchanges
        .slice(mark)
        .filter(isRefresh)
        .map((e) => e.status),
      [200, 200],
    );
  });

  test('a consumed refresh token: ReauthenticationRequired after exactly one refused attempt, and the revoked grant refuses the other holder too', async () => {
    const original = await mintRefreshToken('bob');
    const holder = await managerWith(original);
    await holder.manager.refresh(); // consumes `original` (rotation)
    const replayer = await managerWith(original);
    const mark = proxy.exchanges.length;
    const before = refusals.length;

    const error = await replayer.manager.getAccessToken().then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ReauthenticationRequired, String(error));
    assert.equal(error.refusal?.error, 'invalid_grant');
    assert.equal(error.refusal?.status, 400);
    assert.deepEqual(
      proxy.exchanges
        .slice(mark)
        .filter(isRefresh)
        .map((e) => e.status),
      [400],
      'exactly one refused attempt',
    );
    assert.deepEqual(refusals.slice(before), ['refresh token already used'], 'the provider saw one refused grant');
    assert.equal(error.revocationConfirmed, true, 'introspection confirms the token is no longer active');
    assert.equal((await replayer.store.read()).tokens, undefined);
    assert.ok(error.authorizationUrl !== undefined, 'a manager with a redirectUri gets a new authorization URL');
    const url = new URL(error.authorizationUrl);
    assert.equal(`${url.origin}${url.pathname}`, (await replayer.manager.discover()).authorization_endpoint);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('client_id'), CLIENT_ID);

    // oidc-provider revoked the whole grant on the replay: the legitimate holder must sign in again as well.
    const holderError = await holder.manager.refresh().then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.ok(holderError instanceof ReauthenticationRequired);
    assert.equal(proxy.exchanges.slice(mark).filter(isRefresh).length, 2);
    await assert.rejects(holder.manager.getAccessToken(), ReauthenticationRequired);
    assert.equal(proxy.exchanges.slice(mark).filter(isRefresh).length, 2, 'and the refused token is never sent again');
  });
});
