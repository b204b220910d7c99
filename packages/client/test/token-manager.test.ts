import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ApiClient,
  ClientConfigurationError,
  MemoryTokenStore,
  ReauthenticationRequired,
  TokenManager,
  type TokenManagerEvents,
  type TokenManagerOptions,
} from '@gatehouse/client';
import { UserAgent } from './_browser.js';
import { CALLBACK, grantIdOf, startGatehouse, type Gatehouse } from './_gatehouse.js';
import { isRefresh } from './_proxy.js';

const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 50 };

describe('TokenManager against Gatehouse', () => {
  let gatehouse: Gatehouse;
  before(async () => {
    gatehouse = await startGatehouse();
    await gatehouse.addUser();
  });
  after(() => gatehouse.close());

  function managerFor(
    clientId: string,
    options: Partial<TokenManagerOptions> = {},
  ): { manager: TokenManager; store: MemoryTokenStore; events: Record<keyof TokenManagerEvents, unknown[]> } {
    const store = new MemoryTokenStore();
    const manager = new TokenManager({
      issuer: gatehouse.issuer,
      clientId,
      redirectUri: CALLBACK,
      scope: 'contacts:read contacts:write',
      store,
      now: gatehouse.clock.nowMs,
      retry: FAST_RETRY,
      ...options,
    });
    const events: Record<keyof TokenManagerEvents, unknown[]> = {
      refreshed: [],
      'refresh-token-expiring': [],
      'reauthentication-required': [],
    };
    for (const type of Object.keys(events) as (keyof TokenManagerEvents)[])
      manager.on(type, (event) => events[type].push(event));
    return { manager, store, events };
  }

  const refreshesSince = (mark: number): number => gatehouse.proxy.exchanges.slice(mark).filter(isRefresh).length;

  test('100 concurrent API calls with an expired access token cause exactly one refresh request', async () => {
    const client = await gatehouse.addClient({ id: 'concurrent', public: true });
    const { manager, events } = managerFor(client.id);
    const issued = await gatehouse.issueGrant(client.id);
    await manager.setTokens(issued);
    const api = new ApiClient({
      baseUrl: gatehouse.apiBase,
      document: await (await fetch(`${gatehouse.apiBase}/openapi.json`)).json(),
      tokens: manager,
    });
    gatehouse.clock.advance(6 * 60); // past the 5-minute access token, for the server and the SDK alike
    const mark = gatehouse.proxy.exchanges.length;

    const pages = await Promise.all(Array.from({ length: 100 }, () => api.collection('contacts').list()));

    assert.equal(pages.length, 100);
    assert.equal(refreshesSince(mark), 1, 'one refresh request reached the server');
    assert.equal(gatehouse.proxy.exchanges.slice(mark).filter((e) => e.path.startsWith('/v2/contacts')).length, 100);
    assert.ok(
      gatehouse.proxy.exchanges.slice(mark).every((e) => e.status === 200),
      'every request was answered 200',
    );
    assert.equal((await gatehouse.grant(issued.grant_id)).rotationCount, 1, 'the grant rotated once');
    assert.equal(events.refreshed.length, 1);
  });

  test('the access token is refreshed before it expires, when less than the skew is left', async () => {
    const client = await gatehouse.addClient({ id: 'proactive', public: true });
    const { manager } = managerFor(client.id, { refreshSkewSeconds: 60 });
    const issued = await gatehouse.issueGrant(client.id);
    await manager.setTokens(issued);
    assert.equal(await manager.getAccessToken(), issued.access_token, 'plenty of time left: no refresh');
    gatehouse.clock.advance(4 * 60 + 1); // 59 s left, under the 60 s skew
    const mark = gatehouse.proxy.exchanges.length;
    const token = await manager.getAccessToken();
    assert.notEqual(token, issued.access_token);
    assert.equal(refreshesSince(mark), 1);
  });

  test('after the grant is revoked, the next call raises ReauthenticationRequired after exactly one refused refresh, and the flow restores access', async () => {
    const client = await gatehouse.addClient({ id: 'revoked', public: true });
    const { manager, store, events } = managerFor(client.id);
    const agent = new UserAgent();
    const first = await manager.startAuthorization();
    await manager.completeAuthorization(await agent.authorize(first.authorizationUrl));
    const api = await ApiClient.fromServer({ baseUrl: gatehouse.apiBase, tokens: manager });
    const contacts = api.collection<{ email: string; name?: string }>('contacts');
    await contacts.create({ email: 'ada@example.com' });
    const grantId = grantIdOf(await manager.getAccessToken());

    await gatehouse.revokeGrant(grantId);
    const mark = gatehouse.proxy.exchanges.length;
    const error = await contacts.list().then(
      () => assert.fail('the call must fail'),
      (e: unknown) => e,
    );

    assert.ok(error instanceof ReauthenticationRequired, String(error));
    const refusals = gatehouse.proxy.exchanges.slice(mark).filter(isRefresh);
    assert.deepEqual(
      refusals.map((e) => e.status),
      [400],
      'exactly one refresh attempt, refused',
    );
    assert.equal(error.refusal?.error, 'invalid_grant');
    assert.equal(error.refusal?.error_description, 'refresh token has been revoked');
    assert.equal(error.refusal?.status, 400);
    assert.equal((await store.read()).tokens, undefined, 'the refused refresh token was discarded');
    assert.equal(events['reauthentication-required'].length, 1);

    assert.ok(error.authorizationUrl !== undefined, 'a manager with a redirectUri gets a new authorization URL');
    const url = new URL(error.authorizationUrl);
    assert.equal(url.origin + url.pathname, `${gatehouse.issuer}/authorize`);
    assert.equal(url.searchParams.get('client_id'), client.id);
    assert.equal(url.searchParams.get('redirect_uri'), CALLBACK);
    assert.equal(url.searchParams.get('scope'), 'contacts:read contacts:write');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.match(url.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(url.searchParams.get('state'), error.state);
    assert.ok(
      (await store.read()).pending?.some((p) => p.state === error.state && p.codeVerifier.length === 43),
      'verifier and state kept for the callback',
    );

    const again = await contacts.list().then(
      () => assert.fail('still no grant'),
      (e: unknown) => e,
    );
    assert.ok(again instanceof ReauthenticationRequired);
    assert.equal(
      gatehouse.proxy.exchanges.slice(mark).filter(isRefresh).length,
      1,
      'the refused token is never presented again',
    );

    await manager.completeAuthorization(await agent.authorize(error.authorizationUrl));
    const page = await contacts.list();
    assert.ok(
      page.items.some((c) => c.email === 'ada@example.com'),
      'access restored',
    );
  });

  test('on request, introspection first reports that the refused token is no longer active', async () => {
    const client = await gatehouse.addClient({ id: 'introspecting' });
    const { manager } = managerFor(client.id, { clientSecret: client.secret ?? '', introspectOnInvalidGrant: true });
    const issued = await gatehouse.issueGrant(client.id);
    await manager.setTokens(issued);
    await gatehouse.revokeGrant(issued.grant_id);
    const mark = gatehouse.proxy.exchanges.length;
    const error = await manager.refresh().then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ReauthenticationRequired);
    assert.deepEqual(error.introspection, { active: false });
    assert.equal(error.revocationConfirmed, true);
    const calls = gatehouse.proxy.exchanges.slice(mark).filter((e) => e.method === 'POST');
    assert.deepEqual(
      calls.map((e) => [e.path, e.status]),
      [
        ['/token', 400],
        ['/introspect', 200],
      ],
      'one refused refresh, then the introspection',
    );
  });

  test("the refresh token's expiry is monitored: introspection records it, and the warning fires once", async () => {
    const client = await gatehouse.addClient({ id: 'expiring', refreshTokenAbsoluteTtl: 3600 });
    const { manager, events } = managerFor(client.id, {
      clientSecret: client.secret ?? '',
      refreshTokenWarningSeconds: 2 * 3600,
    });
    await manager.setTokens(await gatehouse.issueGrant(client.id));
    const introspection = await manager.introspect();
    assert.equal(introspection?.active, true);
    assert.equal((await manager.tokens())?.refreshTokenExpiresAt, (introspection?.exp ?? 0) * 1000);
    await manager.getAccessToken();
    assert.equal(events['refresh-token-expiring'].length, 1);
    const [warning] = events['refresh-token-expiring'] as { secondsLeft: number }[];
    assert.ok(warning && warning.secondsLeft > 3500 && warning.secondsLeft <= 3600, JSON.stringify(warning));
  });

  test('invalid_client is a configuration error: the tokens are kept and nobody is sent to sign in', async () => {
    const client = await gatehouse.addClient({ id: 'misconfigured' });
    const { manager, store, events } = managerFor(client.id, { clientSecret: 'not-the-secret' });
    const issued = await gatehouse.issueGrant(client.id);
    await manager.setTokens(issued);
    const mark = gatehouse.proxy.exchanges.length;
    const error = await manager.refresh().then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ClientConfigurationError, String(error));
    assert.equal(error.refusal?.error, 'invalid_client');
    assert.equal(error.refusal?.status, 401);
    assert.match(error.message, /tokens were kept/);
    assert.equal((await store.read()).tokens?.refreshToken, issued.refresh_token);
    assert.equal(events['reauthentication-required'].length, 0);
    assert.equal(refreshesSince(mark), 1, 'not retried');
  });

  test('unauthorized_client is a configuration error too', async () => {
    const client = await gatehouse.addClient({ id: 'no-refresh', public: true, grantTypes: ['authorization_code'] });
    const { manager, store } = managerFor(client.id);
    await manager.setTokens({ access_token: 'a', token_type: 'Bearer', expires_in: 0, refresh_token: 'r'.repeat(43) });
    const error = await manager.getAccessToken().then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ClientConfigurationError);
    assert.equal(error.refusal?.error, 'unauthorized_client');
    assert.equal((await store.read()).tokens?.refreshToken, 'r'.repeat(43));
  });

  test('a callback whose state this client did not start is refused without a request, and one from another issuer ends the attempt', async () => {
    const client = await gatehouse.addClient({ id: 'csrf', public: true });
    const { manager, store } = managerFor(client.id);
    const start = await manager.startAuthorization();
    const mark = gatehouse.proxy.exchanges.length;
    await assert.rejects(
      manager.completeAuthorization(`${CALLBACK}?code=abc&state=forged&iss=${encodeURIComponent(gatehouse.issuer)}`),
      { code: 'ERR_AUTHORIZATION_CALLBACK', reason: 'unknown_state' },
    );
    assert.equal((await store.read()).pending?.length, 1, 'a forged state does not spend the pending request');
    await assert.rejects(
      manager.completeAuthorization(`${CALLBACK}?code=abc&state=${start.state}&iss=http://evil.example`),
      { reason: 'issuer_mismatch' },
    );
    assert.equal((await store.read()).pending?.length, 0, 'a mix-up (RFC 9207) ends the attempt');
    assert.equal(gatehouse.proxy.exchanges.length, mark, 'no code was sent anywhere');
  });
});

describe("TokenManager against Gatehouse's rate limits", () => {
  let gatehouse: Gatehouse;
  before(async () => {
    gatehouse = await startGatehouse({ rateLimits: { token_client: { limit: 1, periodMs: 1000 } } });
  });
  after(() => gatehouse.close());

  test('a 429 from the token endpoint is waited out (Retry-After) and the same refresh token sent again: nothing is lost', async () => {
    const client = await gatehouse.addClient({ id: 'limited', public: true });
    const store = new MemoryTokenStore();
    const manager = new TokenManager({
      issuer: gatehouse.issuer,
      clientId: client.id,
      redirectUri: CALLBACK,
      store,
      now: gatehouse.clock.nowMs,
      retry: { baseDelayMs: 1, maxDelayMs: 2000 },
    });
    await manager.setTokens(await gatehouse.issueGrant(client.id));
    const mark = gatehouse.proxy.exchanges.length;
    await manager.refresh();
    const limited = (await store.read()).tokens?.refreshToken;
    const started = Date.now();
    await manager.refresh();
    const refreshes = gatehouse.proxy.exchanges.slice(mark).filter(isRefresh);
    assert.deepEqual(
      refreshes.map((e) => e.status),
      [200, 429, 200],
    );
    assert.ok(Date.now() - started >= 900, 'waited for the Retry-After of 1 s');
    assert.equal(refreshes[1]?.form?.refresh_token, limited);
    assert.equal(refreshes[2]?.form?.refresh_token, limited, 'the refused token was kept and sent again');
  });
});
