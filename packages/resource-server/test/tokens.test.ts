import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { createResourceServer, type ResourceServer } from '@gatehouse/resource-server';
import { until } from '../../server/test/_until.js';

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  security: [{ gatehouse: ['notes:read'] }],
  paths: {
    '/notes': {
      get: { responses: { '200': { description: 'ok' } } },
      post: {
        security: [{ gatehouse: ['notes:write'] }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                required: ['title'],
                properties: { title: { type: 'string', minLength: 1 } },
              },
            },
          },
        },
        responses: { '201': { description: 'created' } },
      },
    },
  },
};

/** A stand-in authorization server: metadata and a key set, from keys made here. */
describe('access tokens, as the kit checks them (RFC 9068 §4)', () => {
  let issuer: string;
  let server: Server;
  let key: CryptoKey;
  let jwk: JWK;
  let kit: ResourceServer;
  const now = () => Math.floor(Date.now() / 1000);

  before(async () => {
    const pair = await generateKeyPair('ES256');
    key = pair.privateKey;
    jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/oauth-authorization-server')
        res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      else if (req.url === '/jwks') res.end(JSON.stringify({ keys: [jwk] }));
      else res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    kit = createResourceServer({ issuer, openapi: DOCUMENT });
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const sign = (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
    new SignJWT({
      iss: issuer,
      sub: 'alice',
      aud: issuer,
      client_id: 'app',
      scope: 'notes:read',
      jti: 'j1',
      iat: now(),
      exp: now() + 300,
      ...claims,
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'k1', ...header })
      .sign(key);

  const get = (token: string) =>
    kit.check({
      method: 'GET',
      path: '/notes',
      authorization: `Bearer ${token}`,
      contentType: undefined,
      body: undefined,
    });

  it('accepts a token of the issuer, for its audience, with the scope asked for', async () => {
    const verdict = await get(await sign());
    assert.equal(verdict.ok, true);
    assert.equal(verdict.ok && verdict.token?.sub, 'alice');
  });

  it("gives the route a delegated token's actor chain as typed claims (RFC 8693 §4.1 act, nested)", async () => {
    const act = { sub: 'billing', client_id: 'billing', act: { sub: 'orders', client_id: 'orders' } };
    const verdict = await get(await sign({ act, client_id: 'billing' }));
    assert.equal(verdict.ok, true);
    if (!verdict.ok) return;
    assert.equal(verdict.token?.act?.sub, 'billing');
    assert.equal(verdict.token?.act?.act?.sub, 'orders', 'the earlier actor, nested');
    assert.equal(verdict.token?.act?.act?.act, undefined);
  });

  const refusals: [string, () => Promise<string>][] = [
    ['a JWT whose typ is not at+jwt (an ID token)', () => sign({}, { typ: 'JWT' })],
    ['another issuer', () => sign({ iss: 'https://elsewhere.example' })],
    ['another audience', () => sign({ aud: 'https://other-api.example' })],
    ['a token expired beyond the leeway', () => sign({ exp: now() - 60 })],
    ['a token not valid before a time beyond the leeway', () => sign({ nbf: now() + 120 })],
    ['a token signed by an unknown key', async () => sign({}, { kid: 'k2' })],
    ['an unsigned token (alg none)', async () => `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64({ iss: issuer })}.`],
  ];
  for (const [name, make] of refusals) {
    it(`refuses ${name} with 401 invalid_token and its challenge`, async () => {
      const verdict = await get(await make());
      assert.equal(verdict.ok, false);
      if (verdict.ok) return;
      assert.equal(verdict.response.status, 401);
      assert.equal(verdict.response.headers['www-authenticate'], 'Bearer realm="api", error="invalid_token"');
      assert.equal(verdict.response.body.type, `${issuer}/problems/invalid-token`);
    });
  }

  it('tolerates a few seconds of clock difference on exp', async () => {
    assert.equal((await get(await sign({ exp: now() - 5 }))).ok, true);
  });

  it('refuses a token once it expires, though it was verified before', async () => {
    const strict = createResourceServer({ issuer, openapi: DOCUMENT, clockToleranceSeconds: 0 });
    const check = (token: string) =>
      strict.check({
        method: 'GET',
        path: '/notes',
        authorization: `Bearer ${token}`,
        contentType: undefined,
        body: undefined,
      });
    assert.equal((await check(await sign())).ok, true, 'the keys are fetched before the short-lived token is made');
    const exp = now() + 2;
    const token = await sign({ exp });
    assert.equal((await check(token)).ok, true);
    await until(async () => !(await check(token)).ok, 'the token is refused once it expires', 10_000);
    assert.ok(now() >= exp, 'not before its exp');
    const verdict = await check(token);
    assert.equal(!verdict.ok && verdict.response.status, 401);
  });

  it('answers 503 service_unavailable, not 401, when the authorization server cannot be reached', async () => {
    const told: unknown[] = [];
    const unreachable = createResourceServer({
      issuer: 'http://127.0.0.1:9',
      openapi: DOCUMENT,
      onError: (error) => told.push(error),
    });
    const verdict = await unreachable.check({
      method: 'GET',
      path: '/notes',
      authorization: `Bearer ${await sign()}`,
      contentType: undefined,
      body: undefined,
    });
    assert.equal(!verdict.ok && verdict.response.status, 503);
    assert.equal(told.length, 1, 'the operator is told why');
  });

  it('answers malformed JSON and a body that is not JSON with catalog problems', async () => {
    const token = await sign({ scope: 'notes:write' });
    const post = (contentType: string, body: string) =>
      kit.check({ method: 'POST', path: '/notes', authorization: `Bearer ${token}`, contentType, body });
    const malformed = await post('application/json', '{"title":');
    assert.equal(!malformed.ok && malformed.response.body.type, `${issuer}/problems/malformed-json`);
    const form = await post('application/x-www-form-urlencoded', 'title=x');
    assert.equal(!form.ok && form.response.status, 415);
    const empty = await post('application/json', '');
    assert.equal(!empty.ok && empty.response.body.type, `${issuer}/problems/malformed-json`);
  });

  it('checkNow answers at once for a token verified before, and waits only on first sight of a token', async () => {
    const fresh = createResourceServer({ issuer, openapi: DOCUMENT });
    const request = (token: string, path = '/notes', method = 'GET') => ({
      method,
      path,
      authorization: `Bearer ${token}`,
      contentType: 'application/json',
      body: method === 'POST' ? '{}' : undefined,
    });
    const token = await sign({ scope: 'notes:read notes:write' });
    const first = fresh.checkNow(request(token));
    assert.ok(first instanceof Promise, 'the key set is fetched and the signature verified');
    assert.equal((await first).ok, true);
    const again = fresh.checkNow(request(token));
    assert.ok(!(again instanceof Promise), 'a token verified before needs no promise');
    assert.equal(again.ok, true);
    // Refusals met at once are answered at once, with the same problems as check's.
    const missing = fresh.checkNow(request(token, '/notes', 'POST'));
    assert.ok(!(missing instanceof Promise));
    assert.equal(!missing.ok && missing.response.status, 400);
    assert.equal(!missing.ok && missing.response.body.detail, "Missing required field 'title' in request body");
    const other = await sign({ jti: 'j2', scope: 'notes:read' });
    assert.ok(fresh.checkNow(request(other)) instanceof Promise, 'another token is verified first');
    const bare = fresh.checkNow({ ...request(other), authorization: undefined });
    assert.equal(
      !(bare instanceof Promise) && !bare.ok && bare.response.headers['www-authenticate'],
      'Bearer realm="api"',
    );
    const forged = fresh.checkNow(request(`${token.slice(0, -4)}AAAA`));
    assert.ok(forged instanceof Promise, 'a token that differs in any byte is verified, never taken from the cache');
    assert.equal((await forged).ok, false);
  });

  it('lets a request the document does not declare through untouched', async () => {
    const verdict = await kit.check({
      method: 'GET',
      path: '/metrics',
      authorization: undefined,
      contentType: undefined,
      body: 'x',
    });
    assert.deepEqual(verdict, { ok: true, operation: undefined, token: undefined, body: 'x' });
  });
});

function b64(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
