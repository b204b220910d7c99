import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidResponseError, introspectToken, parseTokenResponse, type EndpointContext } from '@gatehouse/client';
import { json, startStub, type StubServer } from './_stub.js';

function contextAt(stub: StubServer): EndpointContext {
  return {
    fetch: (input, init) => fetch(input, init),
    metadata: {
      issuer: stub.url,
      token_endpoint: `${stub.url}/token`,
      introspection_endpoint: `${stub.url}/introspect`,
    },
    client: { clientId: 'app', clientSecret: 'secret', method: 'client_secret_basic' },
  };
}

async function introspectionOf(body: unknown): Promise<unknown> {
  const stub = await startStub((_request, response) => json(response, 200, body));
  try {
    return await introspectToken(contextAt(stub), 'rt', 'refresh_token').catch((e: unknown) => e);
  } finally {
    await stub.close();
  }
}

describe('wire formats as the client reads them (RFC 6749 §5.1, RFC 7662 §2.2)', () => {
  test('an introspection answer is {"active": false} or an active token with members of the RFC types', async () => {
    assert.deepEqual(await introspectionOf({ active: false }), { active: false });
    const active = { active: true, token_type: 'refresh_token', sub: 'alice', exp: 1_900_000_000, aud: ['api'] };
    assert.deepEqual(await introspectionOf(active), active);
  });

  test('an introspection answer with a member of the wrong type is an InvalidResponseError, not a response', async () => {
    for (const body of [
      { active: 'true' },
      { active: true, exp: '1900000000' },
      { active: true, sub: 42 },
      { active: true, aud: [1] },
    ]) {
      const error = await introspectionOf(body);
      assert.ok(error instanceof InvalidResponseError, JSON.stringify(body));
    }
  });

  test('a token response needs a non-empty Bearer access token; expires_in and scope may be left out', () => {
    assert.deepEqual(parseTokenResponse({ access_token: 'at', token_type: 'bearer' }), {
      access_token: 'at',
      token_type: 'bearer',
    });
    for (const body of [
      { token_type: 'Bearer' },
      { access_token: 'at', token_type: 'mac' },
      { access_token: 'at', token_type: 'Bearer', expires_in: '300' },
      { access_token: 'at', token_type: 'Bearer', scope: ['a'] },
    ])
      assert.throws(() => parseTokenResponse(body), InvalidResponseError, JSON.stringify(body));
  });
});
