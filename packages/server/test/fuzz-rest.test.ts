import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DIALECTS, type Dialect } from './_dialects.js';
import {
  answered,
  assertCatalogAnswer,
  contentTypes,
  delivered,
  delivery,
  formEncode,
  fuzz,
  hostileJsonText,
  hostileText,
  invalidUtf8,
  junkHeaders,
  outcomeOf,
  PROTOTYPE_KEYS,
  sendRaw,
  type RawRequest,
  withControlChar,
} from './_fuzz.js';
import { basicAuthorization, startTestServer, type TestServer } from './_server.js';

/**
 * REST API v2 under random and hostile input: JSON of every shape (deep nesting, prototype keys,
 * huge numbers, odd Unicode, bytes that are not UTF-8, truncated), every content type, every kind
 * of bearer token, hostile paths and queries. No 5xx, no crash, every error an RFC 9457 problem
 * from the catalog, and a refused request writes nothing. On both dialects: PostgreSQL refuses text
 * that SQLite stores (U+0000), so what reaches the store is fuzzed on each.
 */
for (const dialect of DIALECTS) describe(`fuzzing REST API v2: /v2/* [${dialect}]`, () => fuzzRestApi(dialect));

function fuzzRestApi(dialect: Dialect): void {
  const ISSUER = 'http://gatehouse.test';
  let server: TestServer;
  /** Bearer tokens by kind: the fuzzer presents each, and hostile ones. */
  const tokens: Record<string, string> = {};
  /** The record PUT and PATCH target, and one that will not exist. */
  let targetPath: string;
  let newestId: string;

  before(async () => {
    server = await startTestServer({ dialect });
    const app = await server.addClient({ id: 'fuzz-api', scope: ['contacts:read', 'contacts:write'] });
    tokens.expired = (await server.issueGrant(app, 'alice', ['contacts:read', 'contacts:write'])).access_token;
    server.clock.advance(3600);
    tokens.readWrite = (await server.issueGrant(app, 'alice', ['contacts:read', 'contacts:write'])).access_token;
    tokens.readOnly = (await server.issueGrant(app, 'bob', ['contacts:read'])).access_token;
    const revoked = await server.issueGrant(app, 'carol', ['contacts:read', 'contacts:write']);
    await server.context.store.revokeGrant(revoked.grant_id, 'revoked_by_admin', server.clock.now());
    tokens.revoked = revoked.access_token;
    const [header = '', payload = ''] = tokens.readWrite.split('.');
    tokens.unsigned = `${header}.${payload}.`;
    tokens.algNone = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${payload}.`;
    tokens.tampered = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), scope: 'contacts:read contacts:write admin' })).toString('base64url')}.${tokens.readWrite.split('.')[2]}`;
    const created = await fetch(`${server.url}/v2/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.readWrite}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'target@example.com' }),
    });
    assert.equal(created.status, 201);
    targetPath = created.headers.get('location') as string;
    newestId = targetPath.split('/').at(-1) as string;
  });
  after(() => server.close());

  // --- what the fuzzer sends -----------------------------------------------------------------------

  /** The Authorization header: mostly a token that may write, else every other kind, or none. */
  const authorization = fc
    .oneof(
      { weight: 6, arbitrary: fc.constant('readWrite') },
      {
        weight: 2,
        arbitrary: fc.constantFrom('readOnly', 'expired', 'revoked', 'unsigned', 'algNone', 'tampered', 'none'),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(
            'Bearer',
            'Bearer ',
            'bearer x',
            'Basic x',
            'Bearer a.b.c',
            `Bearer ${'A'.repeat(9000)}`,
            'Bearer __proto__',
            basicAuthorization('fuzz-api', 'x'),
          )
          .map((raw) => `raw:${raw}`),
      },
    )
    .map((kind): Array<[string, string]> => {
      if (kind === 'none') return [];
      if (kind.startsWith('raw:')) return [['authorization', kind.slice(4)]];
      return [['authorization', `Bearer ${tokens[kind]}`]];
    });

  /** A JSON body: hostile JSON text, the same with bytes that are not UTF-8, a form, or nothing. */
  const jsonBody = fc.oneof(
    { weight: 8, arbitrary: hostileJsonText.map((text) => Buffer.from(text, 'utf8')) },
    {
      weight: 3,
      arbitrary: fc
        .record({ email: fc.emailAddress(), name: hostileText }, { requiredKeys: ['email'] })
        .map((body) => Buffer.from(JSON.stringify(body), 'utf8')),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(hostileJsonText, invalidUtf8, fc.nat()).map(([text, bad, at]) => {
        const bytes = Buffer.from(text, 'utf8');
        const i = bytes.length === 0 ? 0 : at % bytes.length;
        return Buffer.concat([bytes.subarray(0, i), bad, bytes.subarray(i)]);
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('email=a%40b.co', '', '\u0000', '<contact><email>a@b.co</email></contact>')
        .map((text) => Buffer.from(text)),
    },
  );

  const ifMatch = fc.oneof(
    { weight: 4, arbitrary: fc.constant<Array<[string, string]>>([]) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('*', '"1"', '"999"', 'W/"1"', '', '"', ',,,', '"1", "2"', '__proto__')
        .map((v): Array<[string, string]> => [['if-match', v]]),
    },
  );

  const bodyRequest = fc.constantFrom<['POST' | 'PUT' | 'PATCH', 'collection' | 'target' | 'missing']>(
    ['POST', 'collection'],
    ['POST', 'collection'],
    ['PUT', 'target'],
    ['PATCH', 'target'],
    ['PUT', 'missing'],
    ['PATCH', 'missing'],
    ['POST', 'target'],
  );

  /** A refused request wrote nothing: no new record after the newest, and the target unchanged. */
  async function assertNothingWritten(before: unknown): Promise<void> {
    const created = await server.context.store.listRecords('contacts', newestId, 1);
    assert.deepEqual(created, [], 'a refused request creates no record');
    assert.deepEqual(
      await server.context.store.findRecord('contacts', targetPath.split('/').at(-1) as string),
      before,
      'a refused request changes no record',
    );
  }

  it('POST, PUT and PATCH with hostile JSON (deep, prototype keys, huge numbers, not UTF-8, truncated) get catalog problems and write nothing', async (t) => {
    await fuzz(
      t,
      'POST|PUT|PATCH /v2/contacts with hostile JSON',
      [
        bodyRequest,
        jsonBody,
        contentTypes(['application/json', 'application/merge-patch+json']),
        authorization,
        ifMatch,
        delivery,
        junkHeaders,
      ],
      async ([method, where], body, contentType, auth, conditions, how, junk) => {
        const path =
          where === 'collection'
            ? '/v2/contacts'
            : where === 'target'
              ? targetPath
              : '/v2/contacts/0000000000000000000000';
        const headers: Array<[string, string | Buffer]> = [...auth, ...conditions, ...junk];
        // The right media type for the method, most of the time.
        const type =
          contentType === 'application/json' && method === 'PATCH'
            ? 'application/merge-patch+json'
            : contentType === 'application/merge-patch+json' && method !== 'PATCH'
              ? 'application/json'
              : contentType;
        if (type !== undefined) headers.push(['content-type', type]);
        const target = await server.context.store.findRecord('contacts', targetPath.split('/').at(-1) as string);
        const answer = await sendRaw(server.url, { method, target: path, headers, ...delivered(body, how) });
        if (answered(answer, how)) {
          assertCatalogAnswer(answer, { kind: 'problem', issuer: ISSUER });
          if (answer.status === 201) newestId = (answer.headers.location ?? '').split('/').at(-1) as string;
          if (answer.status >= 400) await assertNothingWritten(target);
        }
        return outcomeOf(answer);
      },
    );
  });

  it('hostile paths, queries and methods under /v2 (and the problem pages, metadata and keys) get catalog problems', async (t) => {
    const segment = fc.oneof(
      fc.constantFrom(
        'contacts',
        'Contacts',
        'openapi.json',
        'contacts.json',
        '..',
        '.',
        '',
        '%2e%2e',
        '%FF',
        '%ZZ',
        '%00',
        '__proto__',
        'constructor',
        'x'.repeat(200),
      ),
      hostileText.map(formEncode),
    );
    const targetId = fc.constant(null).map(() => targetPath.split('/').at(-1) as string);
    const id = fc.oneof(
      targetId,
      withControlChar(targetId).map(formEncode),
      fc.constantFrom(
        '0000000000000000000000',
        '%FF%FE',
        '%ED%A0%80',
        '__proto__',
        'x'.repeat(101),
        '..%2F..%2Fetc',
        '',
      ),
      hostileText.map(formEncode),
    );
    const query = fc.oneof(
      fc.constant(''),
      fc.constantFrom(
        '?limit=1',
        '?limit=0',
        '?limit=101',
        '?limit=-1',
        '?limit=1e2',
        '?limit=1&limit=2',
        '?limit[]=1',
        '?cursor=__proto__',
        '?cursor=%FF',
        '?cursor=',
        '?cursor=' + 'A'.repeat(300),
        '?__proto__[x]=1',
        '?constructor=1',
        '?&&&',
        '?%',
      ),
      fc
        .tuple(fc.constantFrom('limit', 'cursor', ...PROTOTYPE_KEYS), hostileText)
        .map(([k, v]) => `?${k}=${formEncode(v)}`),
    );
    const path = fc.oneof(
      { weight: 3, arbitrary: fc.tuple(id, query).map(([i, q]) => `/v2/contacts/${i}${q}`) },
      { weight: 2, arbitrary: query.map((q) => `/v2/contacts${q}`) },
      { weight: 2, arbitrary: fc.tuple(segment, segment).map(([a, b]) => `/v2/${a}/${b}`) },
      { weight: 1, arbitrary: segment.map((s) => `/problems/${s}`) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '/v2',
          '/v2/',
          '/v2//contacts',
          '//v2/contacts',
          '/V2/contacts',
          '/v2/contacts/',
          '/v2/openapi.json?x=1',
          '/jwks',
          '/jwks?kid=__proto__',
          '/.well-known/oauth-authorization-server',
          '/.well-known/oauth-authorization-server/x',
          '/.well-known/%FF',
          '/assets/gatehouse.css?v=%00',
        ),
      },
    );
    const method = fc.constantFrom(
      'GET',
      'GET',
      'GET',
      'DELETE',
      'HEAD',
      'OPTIONS',
      'PUT',
      'POST',
      'PATCH',
      'TRACE',
      'CONNECT',
      'FOO',
    );
    await fuzz(
      t,
      'hostile paths, queries and methods under /v2 and /problems',
      [
        method,
        path,
        authorization,
        fc.constantFrom('application/json', 'application/problem+json', 'text/html', '*/*'),
        junkHeaders,
      ],
      async (m, target, auth, accept, junk) => {
        const request: RawRequest = { method: m, target, headers: [...auth, ['accept', accept], ...junk] };
        const before = await server.context.store.findRecord('contacts', targetPath.split('/').at(-1) as string);
        const answer = await sendRaw(server.url, request);
        // CONNECT (a proxy's method) is answered malformed-request like any request the parser refuses.
        if (!answered(answer, 'whole')) return 'no answer';
        if (m === 'HEAD') assert.ok(answer.status < 500, `no 5xx: ${answer.status}`);
        // A browser's 404 outside the API is a page; under /v2 every answer is a problem.
        else
          assertCatalogAnswer(answer, {
            kind: accept === 'text/html' && !/^\/v2([/?]|$)/.test(target) ? 'page' : 'problem',
            issuer: ISSUER,
          });
        // A DELETE of the target may succeed (204); it is created again for the next inputs.
        if (answer.status === 204 && m === 'DELETE') await recreateTarget();
        else if (answer.status >= 400) await assertNothingWritten(before);
        return outcomeOf(answer);
      },
    );
  });

  async function recreateTarget(): Promise<void> {
    const created = await fetch(`${server.url}/v2/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.readWrite}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'target@example.com' }),
    });
    assert.equal(created.status, 201);
    targetPath = created.headers.get('location') as string;
    newestId = targetPath.split('/').at(-1) as string;
  }
}
