import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ApiClient,
  InvalidResponseError,
  MemoryTokenStore,
  TokenManager,
  TransportError,
  type TokenManagerOptions,
} from '@gatehouse/client';
import { ProblemError } from '@gatehouse/contract';
import { json, startStub, type StubServer } from './_stub.js';

const FAST = { baseDelayMs: 1, maxDelayMs: 2000 };
const OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'stub', version: '1' },
  paths: {
    '/contacts': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', required: ['email'], properties: { email: { type: 'string' } } },
            },
          },
        },
        responses: {},
      },
    },
    '/contacts/{id}': { get: { responses: {} } },
  },
};

function managerAt(stub: StubServer, options: Partial<TokenManagerOptions> = {}): TokenManager {
  return new TokenManager({
    issuer: stub.url,
    clientId: 'app',
    redirectUri: 'http://127.0.0.1:8765/callback',
    retry: FAST,
    metadata: {
      issuer: stub.url,
      token_endpoint: `${stub.url}/token`,
      authorization_endpoint: `${stub.url}/authorize`,
    },
    store: new MemoryTokenStore({
      tokens: { accessToken: 'old', tokenType: 'Bearer', accessTokenExpiresAt: 0, refreshToken: 'rt', obtainedAt: 0 },
    }),
    ...options,
  });
}

const fresh = { access_token: 'new', token_type: 'Bearer', expires_in: 300, refresh_token: 'rt2' };

describe('transient failures of the token endpoint', () => {
  test('temporarily_unavailable is retried after its Retry-After, then the refresh succeeds', async () => {
    const stub = await startStub((_request, response, index) => {
      if (index < 2)
        json(
          response,
          503,
          { error: 'temporarily_unavailable', error_description: 'the store is busy; retry later' },
          { 'retry-after': '0' },
        );
      else json(response, 200, fresh);
    });
    try {
      assert.equal(await managerAt(stub).getAccessToken(), 'new');
      assert.equal(stub.requests.length, 3);
      assert.ok(
        stub.requests.every((r) => new URLSearchParams(r.body).get('refresh_token') === 'rt'),
        'the same token, since it was never accepted',
      );
    } finally {
      await stub.close();
    }
  });

  test('a 500 without an OAuth body is retried, then surfaces as InvalidResponseError and keeps the tokens', async () => {
    const stub = await startStub((_request, response) =>
      response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>oops</h1>'),
    );
    try {
      const store = new MemoryTokenStore({
        tokens: { accessToken: 'old', tokenType: 'Bearer', accessTokenExpiresAt: 0, refreshToken: 'rt', obtainedAt: 0 },
      });
      const error = await managerAt(stub, { store })
        .getAccessToken()
        .catch((e: unknown) => e);
      assert.ok(error instanceof InvalidResponseError);
      assert.equal(error.status, 500);
      assert.equal(stub.requests.length, 4);
      assert.equal((await store.read()).tokens?.refreshToken, 'rt');
    } finally {
      await stub.close();
    }
  });

  test('429 with a Retry-After longer than the cap is not waited for', async () => {
    const stub = await startStub((_request, response) =>
      json(response, 429, { error: 'slow_down' }, { 'retry-after': '3600' }),
    );
    try {
      await assert.rejects(managerAt(stub).getAccessToken(), {
        code: 'ERR_OAUTH_RESPONSE',
        status: 429,
        retryAfterMs: 3_600_000,
      });
      assert.equal(stub.requests.length, 1);
    } finally {
      await stub.close();
    }
  });

  test('an unreachable server is tried maxAttempts times, then TransportError', async () => {
    const stub = await startStub(() => undefined);
    await stub.close();
    const error = await managerAt(stub)
      .getAccessToken()
      .catch((e: unknown) => e);
    assert.ok(error instanceof TransportError, String(error));
    assert.equal(error.attempts, 4);
  });

  test('events: refreshed, and refresh-token-expiring when the server says the refresh token is nearly spent', async () => {
    const stub = await startStub((_request, response) => json(response, 200, { ...fresh, refresh_expires_in: 600 }));
    try {
      const manager = managerAt(stub, { refreshTokenWarningSeconds: 3600 });
      const seen: string[] = [];
      manager.on('refreshed', (e) => seen.push(`refreshed rotated=${e.refreshTokenRotated}`));
      manager.on('refresh-token-expiring', (e) =>
        seen.push(`expiring ${e.secondsLeft >= 599 && e.secondsLeft <= 600}`),
      );
      await manager.getAccessToken();
      await manager.getAccessToken();
      assert.deepEqual(seen, ['refreshed rotated=true', 'expiring true'], 'warned once per refresh token');
    } finally {
      await stub.close();
    }
  });
});

describe('transient failures of the API', () => {
  const tokens = { getAccessToken: async () => 'token', accessTokenRejected: async () => 'token' };

  test('429 and 503 are retried after Retry-After, for reads and writes', async () => {
    const stub = await startStub((request, response, index) => {
      if (index % 2 === 0) {
        response
          .writeHead(index === 0 ? 429 : 503, { 'content-type': 'application/problem+json', 'retry-after': '0' })
          .end(
            JSON.stringify({
              type: '/problems/service-unavailable',
              title: 'Service unavailable',
              status: 503,
              detail: 'busy',
            }),
          );
      } else json(response, request.method === 'POST' ? 201 : 200, { id: '1', email: 'a@example.com' });
    });
    try {
      const contacts = new ApiClient({ baseUrl: stub.url, document: OPENAPI, tokens, retry: FAST }).collection<{
        email: string;
      }>('contacts');
      assert.equal((await contacts.get('1')).record.id, '1');
      assert.equal((await contacts.create({ email: 'a@example.com' })).record.id, '1');
      assert.deepEqual(
        stub.requests.map((r) => r.method),
        ['GET', 'GET', 'POST', 'POST'],
      );
    } finally {
      await stub.close();
    }
  });

  test('408 request_timeout is retried for reads and writes, since the server did nothing', async () => {
    // The answer Gatehouse's HTTP layer gives a request that arrives too slowly, connection closed.
    const stub = await startStub((request, response, index) => {
      if (index % 2 === 0) {
        response
          .writeHead(408, { 'content-type': 'application/problem+json; charset=utf-8', connection: 'close' })
          .end(new ProblemError('request_timeout').toJson(request.path));
      } else json(response, request.method === 'POST' ? 201 : 200, { id: '1', email: 'a@example.com' });
    });
    try {
      const contacts = new ApiClient({ baseUrl: stub.url, document: OPENAPI, tokens, retry: FAST }).collection<{
        email: string;
      }>('contacts');
      assert.equal((await contacts.get('1')).record.id, '1');
      assert.equal((await contacts.create({ email: 'a@example.com' })).record.id, '1');
      assert.deepEqual(
        stub.requests.map((r) => r.method),
        ['GET', 'GET', 'POST', 'POST'],
      );
    } finally {
      await stub.close();
    }
  });

  test('a lost connection is retried for GET but not for POST, which may have been applied', async () => {
    const stub = await startStub((_request, response) => response.socket?.destroy());
    try {
      const contacts = new ApiClient({ baseUrl: stub.url, document: OPENAPI, tokens, retry: FAST }).collection<{
        email: string;
      }>('contacts');
      await assert.rejects(contacts.get('1'), { code: 'ERR_TRANSPORT', attempts: 4 });
      await assert.rejects(contacts.create({ email: 'a@example.com' }), { code: 'ERR_TRANSPORT', attempts: 1 });
      assert.deepEqual(
        stub.requests.map((r) => r.method),
        ['GET', 'GET', 'GET', 'GET', 'POST'],
      );
    } finally {
      await stub.close();
    }
  });
});
