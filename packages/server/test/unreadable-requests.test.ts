import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problemOfParserError, unreadableRequestAnswer } from '../src/http/client-errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonBody } from '../src/json-api/json-body.js';
import { assertCatalogAnswer, NO_ANSWER, sendRaw, type RawAnswer } from './_fuzz.js';
import { startTestServer, type TestServer } from './_server.js';

/**
 * Regression tests for what the fuzzers found: requests the HTTP parser or the router refuses were
 * answered with Fastify's own bodies, outside the catalog; a JSON body that was not UTF-8 was
 * stored with U+FFFD in place of what was sent; and a deeply nested PATCH body was a 500 (the merge
 * patch recursed past the end of the stack). SQLite only: none of this touches the store's dialect.
 */
describe('requests the HTTP layer cannot read are answered from the catalog', () => {
  const ISSUER = 'http://gatehouse.test';
  let server: TestServer;
  let bearer: string;

  before(async () => {
    server = await startTestServer();
    const app = await server.addClient({ id: 'app', scope: ['contacts:read', 'contacts:write'] });
    bearer = `Bearer ${(await server.issueGrant(app, 'alice', ['contacts:read', 'contacts:write'])).access_token}`;
  });
  after(() => server.close());

  async function send(...args: Parameters<typeof sendRaw>): Promise<RawAnswer> {
    const answer = await sendRaw(server.url, args[1]);
    assert.notEqual(answer, NO_ANSWER);
    return answer as RawAnswer;
  }

  function problemOf(answer: RawAnswer): { type: string; status: number; detail: string } {
    assertCatalogAnswer(answer, { kind: 'problem', issuer: ISSUER });
    return JSON.parse(answer.text) as { type: string; status: number; detail: string };
  }

  it('an unknown method is 400 malformed-request, and on the token endpoint invalid_request "request could not be read"', async () => {
    assert.equal(
      problemOf(await send(server.url, { method: 'FOO', target: '/v2/contacts' })).type,
      '/problems/malformed-request',
    );
    const token = await send(server.url, { method: 'FOO', target: '/token' });
    assertCatalogAnswer(token, { kind: 'oauth', issuer: ISSUER });
    assert.deepEqual(JSON.parse(token.text), {
      error: 'invalid_request',
      error_description: 'request could not be read',
      error_uri: `${ISSUER}/problems/invalid-request`,
    });
    assert.equal(token.headers['cache-control'], 'no-store');
  });

  it('a control character in a header field is 400 malformed-request; the request line is never echoed', async () => {
    const answer = await send(server.url, {
      method: 'GET',
      target: '/v2/contacts?secret=abc',
      headers: [['x-junk', Buffer.from([0x01])]],
    });
    const problem = problemOf(answer);
    assert.equal(problem.type, '/problems/malformed-request');
    assert.doesNotMatch(answer.text, /secret=abc/);
  });

  it('request headers over 16 KiB (a huge authorization URL) are 431 request-header-too-large', async () => {
    const answer = await send(server.url, { method: 'GET', target: `/authorize?state=${'a'.repeat(20_000)}` });
    assert.equal(answer.status, 431);
    assert.equal(problemOf(answer).type, '/problems/request-header-too-large');
  });

  it('a body cut off before its Content-Length on /token is answered invalid_request, if the client still reads', async () => {
    const answer = await sendRaw(server.url, {
      method: 'POST',
      target: '/token',
      headers: [['content-type', 'application/x-www-form-urlencoded']],
      body: Buffer.from('grant_type=refresh'),
      contentLength: 100,
      thenClose: 'end',
    });
    if (answer !== NO_ANSWER) assertCatalogAnswer(answer, { kind: 'oauth', issuer: ISSUER });
  });

  it('a path that is not percent-encoded UTF-8 is 400 malformed-request; a path segment longer than any id is 404', async () => {
    const bad = await send(server.url, {
      method: 'GET',
      target: '/v2/contacts/%FF',
      headers: [['authorization', bearer]],
    });
    assert.equal(problemOf(bad).type, '/problems/malformed-request');
    const long = await send(server.url, {
      method: 'GET',
      target: `/v2/contacts/${'a'.repeat(101)}`,
      headers: [['authorization', bearer]],
    });
    assert.equal(problemOf(long).type, '/problems/not-found');
  });

  it('a parser timeout is 408 request-timeout with Retry-After; other parser errors are 400', () => {
    assert.equal(problemOfParserError('ERR_HTTP_REQUEST_TIMEOUT'), 'request_timeout');
    assert.equal(problemOfParserError('HPE_HEADER_OVERFLOW'), 'request_header_too_large');
    assert.equal(problemOfParserError('HPE_INVALID_METHOD'), 'malformed_request');
    const raw = unreadableRequestAnswer(
      { code: 'ERR_HTTP_REQUEST_TIMEOUT' },
      '/v2/contacts',
      ISSUER,
      new Set(['/token']),
    );
    assert.match(raw, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.match(raw, /\r\nretry-after: 1\r\n/);
    assert.match(raw, /"type":"\/problems\/request-timeout"/);
  });
});

describe('JSON request bodies: UTF-8 only, nesting bounded', () => {
  let server: TestServer;
  let bearer: string;

  before(async () => {
    server = await startTestServer();
    const app = await server.addClient({ id: 'app', scope: ['contacts:read', 'contacts:write'] });
    bearer = `Bearer ${(await server.issueGrant(app, 'alice', ['contacts:read', 'contacts:write'])).access_token}`;
  });
  after(() => server.close());

  async function request(method: string, path: string, body: Buffer, type = 'application/json'): Promise<RawAnswer> {
    return (await sendRaw(server.url, {
      method,
      target: path,
      headers: [
        ['authorization', bearer],
        ['content-type', type],
      ],
      body,
    })) as RawAnswer;
  }

  it('a body that is not UTF-8 is 400 malformed-json and nothing is stored (it was stored with U+FFFD)', async () => {
    const body = Buffer.concat([
      Buffer.from('{"email":"ada@example.com","name":"'),
      Buffer.from([0xff, 0xc0]),
      Buffer.from('"}'),
    ]);
    const answer = await request('POST', '/v2/contacts', body);
    assert.equal(answer.status, 400, answer.text);
    assert.equal(JSON.parse(answer.text).detail, 'The request body is not UTF-8.');
    assert.deepEqual(await server.context.store.listRecords('contacts', undefined, 10), []);
  });

  it('a byte-order mark before the JSON is allowed (RFC 8259 §8.1)', async () => {
    const answer = await request(
      'POST',
      '/v2/contacts',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"email":"bom@example.com"}')]),
    );
    assert.equal(answer.status, 201, answer.text);
  });

  it('a PATCH nested 5000 levels deep is 400 malformed-json, not a 500; so is a POST', async () => {
    const created = await request('POST', '/v2/contacts', Buffer.from('{"email":"deep@example.com"}'));
    assert.equal(created.status, 201);
    const deep = Buffer.from(`{"name":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`);
    for (const [method, path, type] of [
      ['PATCH', created.headers.location as string, 'application/merge-patch+json'],
      ['POST', '/v2/contacts', 'application/json'],
    ] as const) {
      const answer = await request(method, path, deep, type);
      assert.equal(answer.status, 400, `${method}: ${answer.text}`);
      assert.equal(JSON.parse(answer.text).type, '/problems/malformed-json');
      assert.match(JSON.parse(answer.text).detail, /more than 64 levels deep/);
    }
  });

  it(`nesting is counted by brackets outside strings: ${MAX_JSON_DEPTH} levels pass, one more does not`, () => {
    const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    assert.equal(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH), false);
    assert.equal(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH), true);
    assert.equal(nestsDeeperThan(JSON.stringify({ a: '['.repeat(500), b: '\\"[[[[' }), 2), false);
    assert.deepEqual(parseJsonBody(Buffer.from(nested(MAX_JSON_DEPTH))), JSON.parse(nested(MAX_JSON_DEPTH)));
    assert.throws(() => parseJsonBody(Buffer.from(nested(MAX_JSON_DEPTH + 1))), {
      name: 'ProblemError',
      code: 'malformed_json',
    });
  });
});
