import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  ClientConfigurationError,
  ReauthenticationRequired,
  TokenManager,
  type FetchFunction,
} from '@gatehouse/client';
import { EXIT_CODES, runLoginCli } from '@gatehouse/client/node';
import { startGatehouse, type Gatehouse } from './_gatehouse.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** The refusal a promise ends with. */
const refusalOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => assert.fail('expected a refusal'),
    (error: unknown) => error,
  );

describe('TokenManager without the authorization code flow', () => {
  let gatehouse: Gatehouse;
  before(async () => {
    gatehouse = await startGatehouse();
  });
  after(() => gatehouse.close());

  const clientCredentialRequests = (since: number): number =>
    gatehouse.proxy.exchanges.slice(since).filter((e) => e.form?.grant_type === 'client_credentials').length;

  test('client credentials (RFC 6749 §4.4): one token requested and kept, requested again before it expires, never a refresh token', async () => {
    const service = await gatehouse.addClient({
      id: 'reporting',
      grantTypes: ['client_credentials'],
      accessTokenTtl: 60,
    });
    const manager = new TokenManager({
      issuer: gatehouse.issuer,
      clientId: service.id,
      clientSecret: service.secret as string,
      clientCredentials: true,
      scope: 'contacts:read',
      now: gatehouse.clock.nowMs,
    });
    const mark = gatehouse.proxy.exchanges.length;
    const tokens = await Promise.all(Array.from({ length: 10 }, () => manager.getAccessToken()));
    assert.equal(new Set(tokens).size, 1);
    assert.equal(await manager.getAccessToken(), tokens[0], 'kept, not requested again');
    assert.equal(clientCredentialRequests(mark), 1);
    const stored = await manager.tokens();
    assert.equal(stored?.refreshToken, undefined, 'RFC 6749 §4.4.3: no refresh token');
    assert.equal(stored?.scope, 'contacts:read');
    const answer = await fetch(`${gatehouse.apiBase}/contacts`, { headers: { authorization: `Bearer ${tokens[0]}` } });
    // The token is accepted (a refused one is 401): the shipped contacts belong to users, and a
    // client's own token is refused by that rule (x-gatehouse-client-access: none), not as a token.
    assert.equal(answer.status, 403);
    assert.match(((await answer.json()) as { type: string }).type, /\/owner-required$/);

    // 20 s left, under the 30 s skew: a new token before this one expires.
    gatehouse.clock.advance(40);
    const renewed = await manager.getAccessToken();
    assert.notEqual(renewed, tokens[0]);
    assert.equal(clientCredentialRequests(mark), 2);
    assert.equal(gatehouse.proxy.exchanges.slice(mark).filter((e) => e.form?.grant_type === 'refresh_token').length, 0);
  });

  test('client credentials need a confidential client: no clientSecret, a ClientConfigurationError; a wrong one, invalid_client', async () => {
    assert.throws(
      () => new TokenManager({ issuer: gatehouse.issuer, clientId: 'reporting', clientCredentials: true }),
      (error: unknown) => error instanceof ClientConfigurationError && error.refusal === undefined,
    );
    await gatehouse.addClient({ id: 'wrong-secret', grantTypes: ['client_credentials'] });
    const manager = new TokenManager({
      issuer: gatehouse.issuer,
      clientId: 'wrong-secret',
      clientSecret: 'not-the-secret',
      clientCredentials: true,
      retry: { baseDelayMs: 1 },
    });
    const error = await refusalOf(manager.getAccessToken());
    assert.ok(error instanceof ClientConfigurationError, String(error));
    assert.equal(error.refusal?.error, 'invalid_client');
  });

  test('refresh only needs no redirectUri; startAuthorization then throws ClientConfigurationError, and invalid_grant is ReauthenticationRequired without an authorization URL', async () => {
    const client = await gatehouse.addClient({
      id: 'refresh-only',
      grantTypes: ['authorization_code', 'refresh_token'],
    });
    const manager = new TokenManager({
      issuer: gatehouse.issuer,
      clientId: client.id,
      clientSecret: client.secret as string,
      now: gatehouse.clock.nowMs,
    });
    const grant = await gatehouse.issueGrant(client.id);
    await manager.setTokens(grant);
    gatehouse.clock.advance(grant.expires_in);
    assert.notEqual(await manager.getAccessToken(), grant.access_token, 'refreshed');

    const start = await refusalOf(manager.startAuthorization());
    assert.ok(start instanceof ClientConfigurationError, String(start));
    assert.match(start.message, /redirectUri/);

    await gatehouse.revokeGrant(grant.grant_id);
    gatehouse.clock.advance(grant.expires_in);
    const gone = await refusalOf(manager.getAccessToken());
    assert.ok(gone instanceof ReauthenticationRequired, String(gone));
    assert.equal(gone.refusal?.error, 'invalid_grant');
    assert.equal(gone.authorizationUrl, undefined);
  });

  test('startDeviceAuthorization: a client not registered for the device grant (unauthorized_client) or unknown (invalid_client) is a ClientConfigurationError', async () => {
    await gatehouse.addClient({ id: 'browser-only', public: true, grantTypes: ['authorization_code'] });
    for (const [clientId, expected] of [
      ['browser-only', 'unauthorized_client'],
      ['no-such-client', 'invalid_client'],
    ] as const) {
      const manager = new TokenManager({ issuer: gatehouse.issuer, clientId, retry: { baseDelayMs: 1 } });
      const error = await refusalOf(manager.startDeviceAuthorization());
      assert.ok(error instanceof ClientConfigurationError, `${clientId}: ${String(error)}`);
      assert.equal(error.refusal?.error, expected);
    }
  });

  test('startDeviceAuthorization: a server whose metadata names no device endpoint is a ClientConfigurationError; a 503 is retried', async () => {
    const { device_authorization_endpoint: endpoint, ...metadata } = await new TokenManager({
      issuer: gatehouse.issuer,
      clientId: 'tv',
    }).discover();
    const without = new TokenManager({ issuer: gatehouse.issuer, clientId: 'tv', metadata });
    const error = await refusalOf(without.startDeviceAuthorization());
    assert.ok(error instanceof ClientConfigurationError, String(error));
    assert.match(error.message, /device_authorization_endpoint/);

    await gatehouse.addClient({ id: 'tv', public: true, grantTypes: [DEVICE_GRANT, 'refresh_token'] });
    let unavailable = 1;
    const flaky: FetchFunction = async (url, init) =>
      url === endpoint && unavailable-- > 0 ? new Response('', { status: 503 }) : fetch(url, init);
    const manager = new TokenManager({
      issuer: gatehouse.issuer,
      clientId: 'tv',
      fetch: flaky,
      retry: { baseDelayMs: 1 },
    });
    const authorization = await manager.startDeviceAuthorization();
    assert.equal(typeof authorization.user_code, 'string');
    assert.equal(unavailable, -1, 'the 503 was answered, then the retry');
  });

  test('gatehouse-login login --device with a client the server refuses for the device grant exits 4 (configuration), as documented', async () => {
    await gatehouse.addClient({ id: 'cli-browser-only', public: true, grantTypes: ['authorization_code'] });
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-login-'));
    try {
      const err: string[] = [];
      const code = await runLoginCli(
        ['login', '--device', '--issuer', gatehouse.issuer, '--client-id', 'cli-browser-only'],
        { out: () => {}, err: (t) => err.push(t), env: { GATEHOUSE_CONFIG_DIR: dir }, retry: { baseDelayMs: 1 } },
      );
      assert.equal(code, EXIT_CODES.configuration, err.join('\n'));
      assert.match(err.join('\n'), /unauthorized_client/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
