/**
 * The SDK with DPoP (RFC 9449): a TokenManager given a DpopKey gets bound tokens, refreshes them with
 * proofs, follows the server's nonces (use_dpop_nonce at the token endpoint and at the API), and the
 * ApiClient sends `Authorization: DPoP` with a proof; a bound refresh token used without the key is
 * invalid_grant, which the manager turns into ReauthenticationRequired (the full flow again).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { ApiClient, DpopKey, MemoryTokenStore, ReauthenticationRequired, TokenManager } from '@gatehouse/client';
import { UserAgent } from './_browser.js';
import { CALLBACK, startGatehouse, type Gatehouse } from './_gatehouse.js';

describe('TokenManager and ApiClient with DPoP, server nonces required', () => {
  let gatehouse: Gatehouse;
  before(async () => {
    gatehouse = await startGatehouse({ dpopNonces: true });
    await gatehouse.addUser();
  });
  after(() => gatehouse.close());

  test('code flow, bound refresh, API call with proofs; nonces followed; the key alone refreshes (RFC 9449 §5, §7, §8)', async () => {
    const client = await gatehouse.addClient({
      id: 'sdk-dpop',
      public: true,
      scope: ['contacts:read', 'contacts:write'],
    });
    const dpop = await DpopKey.generate();
    const manager = new TokenManager({
      issuer: gatehouse.issuer,
      clientId: client.id,
      redirectUri: CALLBACK,
      scope: 'contacts:read contacts:write',
      store: new MemoryTokenStore(),
      dpop,
    });
    const { authorizationUrl } = await manager.startAuthorization();
    await manager.completeAuthorization(await new UserAgent().authorize(authorizationUrl));
    const first = await manager.getAccessToken();
    assert.ok((decodeJwt(first).cnf as { jkt?: string } | undefined)?.jkt, 'a DPoP-bound access token');

    const api = await ApiClient.fromServer({
      baseUrl: gatehouse.apiBase,
      tokens: manager,
      dpop,
      retry: { baseDelayMs: 1 },
    });
    const { record } = await api.collection<{ email: string }>('contacts').create({ email: 'dpop@example.com' });
    assert.equal(record.email, 'dpop@example.com');
    // The token endpoint asked for the nonce once (use_dpop_nonce, 400) and the manager retried with
    // it; the API, on the same origin and store, honours the same nonce: no 401 there.
    const statuses = (path: string) =>
      gatehouse.proxy.exchanges.filter((e) => e.path.startsWith(path)).map((e) => e.status);
    assert.deepEqual(statuses('/token'), [400, 200]);
    assert.deepEqual(statuses('/v2/contacts'), [201]);

    // The key holder refreshes (a rejected token forces it), with a proof and the nonce.
    const refreshed = await manager.accessTokenRejected(await manager.getAccessToken());
    assert.notEqual(refreshed, first);

    // The stored tokens copied into managers without the key, or with another: invalid_grant on the
    // bound refresh token, which each turns into ReauthenticationRequired (run the full flow again).
    const stored = (await manager.tokens()) ?? assert.fail('tokens');
    for (const thiefKey of [undefined, await DpopKey.generate()]) {
      const thief = new TokenManager({
        issuer: gatehouse.issuer,
        clientId: client.id,
        redirectUri: CALLBACK,
        store: new MemoryTokenStore(),
        ...(thiefKey === undefined ? {} : { dpop: thiefKey }),
      });
      await thief.setTokens({
        access_token: stored.accessToken,
        token_type: 'DPoP',
        refresh_token: stored.refreshToken ?? assert.fail('a refresh token'),
        expires_in: 300,
      });
      for (let attempt = 0; attempt < 2; attempt++) {
        const error = await thief.accessTokenRejected(stored.accessToken).then(
          () => assert.fail('refused'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof ReauthenticationRequired, String(error));
      }
    }
    // The rightful holder is unaffected.
    assert.ok(await manager.accessTokenRejected(await manager.getAccessToken()));
  });
});

describe('TokenManager with DPoP, the nonce of a successful answer', () => {
  test('a DPoP-Nonce on a token endpoint 200 goes into the next proof (RFC 9449 §8.2)', async () => {
    const sent: unknown[] = [];
    const tokenEndpoint = async (_url: string, init?: RequestInit) => {
      const proof = new Headers(init?.headers).get('dpop') ?? assert.fail('a proof');
      sent.push(decodeJwt(proof).nonce);
      return new Response(JSON.stringify({ access_token: `at-${sent.length}`, token_type: 'DPoP', expires_in: 300 }), {
        status: 200,
        headers: { 'content-type': 'application/json', 'dpop-nonce': `nonce-${sent.length}` },
      });
    };
    const manager = new TokenManager({
      issuer: 'https://as.example',
      clientId: 'svc',
      clientSecret: 'secret',
      clientCredentials: true,
      metadata: { issuer: 'https://as.example', token_endpoint: 'https://as.example/token' },
      fetch: tokenEndpoint,
      dpop: true,
    });
    await manager.refresh();
    await manager.refresh();
    assert.deepEqual(sent, [undefined, 'nonce-1']);
  });
});
