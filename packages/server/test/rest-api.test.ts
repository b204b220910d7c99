import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, assertInvalidValue, assertProblem, clientWithToken, receivedProblemTypes, type Api } from './_api.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';
import { REST_SUITES } from './_documents.js';
import type { ReadsAtOnce } from '../src/store/store.js';

for (const { dialect, version, api: document } of REST_SUITES)
  describe(`REST API v2 [${dialect}, OpenAPI ${version}]`, () => {
    /** Everything around the validation: bearer auth, media types, sizes, routing, paging, ETags, error pages. */
    const VALID = { email: 'ada@example.com', name: 'Ada' };

    let server: TestServer;
    let client: TestClient;
    /** contacts:read + contacts:write */
    let rest: Api;
    /** No Authorization header at all. */
    let anonymous: Api;

    before(async () => {
      server = await startTestServer({ dialect, api: document });
      const issued = await clientWithToken(server, 'app', ['contacts:read', 'contacts:write']);
      client = issued.client;
      rest = api(server, issued.access_token);
      anonymous = api(server);
    });
    after(() => server.close());

    async function create(
      body: Record<string, unknown> = VALID,
    ): Promise<{ id: string; location: string; etag: string }> {
      const created = await rest.post('/v2/contacts', body);
      assert.equal(created.status, 201, created.text);
      return {
        id: created.body.id,
        location: created.headers.get('location') ?? '',
        etag: created.headers.get('etag') ?? '',
      };
    }

    describe('bearer authentication (RFC 6750)', () => {
      it('a request without Authorization is 401 invalid-token with a challenge naming the resource metadata (RFC 9728 §5.1)', async () => {
        const response = await anonymous.get('/v2/contacts');
        assertProblem(response, 401, 'invalid-token');
        assert.equal(
          response.headers.get('www-authenticate'),
          'Bearer realm="gatehouse", resource_metadata="http://gatehouse.test/.well-known/oauth-protected-resource/v2"',
        );
      });

      it('a garbage bearer token is 401 invalid-token with error="invalid_token" in WWW-Authenticate', async () => {
        const response = await api(server, 'garbage.not.a-token').get('/v2/contacts');
        assertProblem(response, 401, 'invalid-token');
        assert.match(
          response.headers.get('www-authenticate') ?? '',
          /^Bearer realm="gatehouse", resource_metadata="[^"]+", error="invalid_token"/,
        );
      });

      it('an Authorization header that is not a bearer token is 401 invalid-token', async () => {
        const response = await anonymous.get('/v2/contacts', { headers: { authorization: 'Basic YWxpY2U6c2VjcmV0' } });
        assertProblem(response, 401, 'invalid-token');
        assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      });

      it('a token with only contacts:read that POSTs is 403 insufficient-scope with error="insufficient_scope", and nothing is created', async () => {
        const reader = await clientWithToken(server, 'reader', ['contacts:read']);
        const readOnly = api(server, reader.access_token);
        const before = await server.context.store.listRecords('contacts', undefined, 1000);
        const response = await readOnly.post('/v2/contacts', VALID);
        assertProblem(response, 403, 'insufficient-scope');
        const challenge = response.headers.get('www-authenticate') ?? '';
        assert.match(challenge, /^Bearer realm="gatehouse"/);
        assert.match(challenge, /error="insufficient_scope"/);
        assert.match(challenge, /scope="contacts:write"/);
        assert.deepEqual(await server.context.store.listRecords('contacts', undefined, 1000), before);
        assert.equal((await readOnly.get('/v2/contacts')).status, 200, 'the same token may read');
      });

      it("a token for another collection's scope is 403 on contacts", async () => {
        const issued = await clientWithToken(server, 'widget-app', ['widgets:read', 'widgets:write']);
        assertProblem(await api(server, issued.access_token).get('/v2/contacts'), 403, 'insufficient-scope');
      });

      it('an access token whose grant was revoked (POST /revoke of its refresh token) is 401 invalid-token before it expires', async () => {
        const revokedClient = await clientWithToken(server, 'revoked-app', ['contacts:read', 'contacts:write']);
        const revokedApi = api(server, revokedClient.access_token);
        assert.equal((await revokedApi.get('/v2/contacts')).status, 200);
        const revocation = await server.post(
          '/revoke',
          { token: revokedClient.refresh_token },
          { as: revokedClient.client },
        );
        assert.equal(revocation.status, 200);
        const response = await revokedApi.get('/v2/contacts');
        assertProblem(response, 401, 'invalid-token');
        assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      });

      it('the grant’s liveness is read without an await on SQLite, awaited on PostgreSQL; a revocation is refused either way', async () => {
        const store = server.context.store as { readsAtOnce?: ReadsAtOnce };
        const own = store.readsAtOnce;
        assert.equal(own === undefined, dialect === 'postgres', 'only SQLite reads at once');
        const asked: (string | null)[] = [];
        let wait = false;
        if (own !== undefined)
          Object.defineProperty(store, 'readsAtOnce', {
            configurable: true,
            value: {
              ...own,
              findGrantLiveness: (id: string) => {
                const live = wait ? null : own.findGrantLiveness(id);
                asked.push(live === null ? null : id);
                return live;
              },
            } satisfies ReadsAtOnce,
          });
        try {
          const issued = await clientWithToken(server, 'liveness-app', ['contacts:read']);
          const reader = api(server, issued.access_token);
          assert.equal((await reader.get('/v2/contacts')).status, 200);
          wait = true;
          assert.equal((await reader.get('/v2/contacts')).status, 200, 'a read that must wait is awaited');
          wait = false;
          assert.equal(
            (await server.post('/revoke', { token: issued.refresh_token }, { as: issued.client })).status,
            200,
          );
          assertProblem(await reader.get('/v2/contacts'), 401, 'invalid-token');
          if (own !== undefined) assert.equal(asked.length, 3);
          if (own !== undefined) assert.equal(asked[1], null);
        } finally {
          if (own !== undefined) Object.defineProperty(store, 'readsAtOnce', { value: own });
        }
      });

      it('auth is checked before the body: no token and a malformed body is 401, not 400', async () => {
        const response = await anonymous.post('/v2/contacts', undefined, { raw: '{bad' });
        assertProblem(response, 401, 'invalid-token');
      });

      it('auth is checked before the body: no token and a missing field is 401, a non-JSON type is 401, an oversized body is 401', async () => {
        assertProblem(await anonymous.post('/v2/contacts', {}), 401, 'invalid-token');
        assertProblem(
          await anonymous.post('/v2/contacts', undefined, { raw: 'hi', headers: { 'content-type': 'text/plain' } }),
          401,
          'invalid-token',
        );
        assertProblem(
          await anonymous.post('/v2/contacts', { email: 'a@b.co', name: 'x'.repeat(70 * 1024) }),
          401,
          'invalid-token',
        );
      });

      it('a read-only token with a malformed body is 403, not 400 (the scope is checked before the body too)', async () => {
        const reader = await clientWithToken(server, 'reader-2', ['contacts:read']);
        assertProblem(
          await api(server, reader.access_token).post('/v2/contacts', undefined, { raw: '{bad' }),
          403,
          'insufficient-scope',
        );
      });

      // Last in this suite: it moves the server's clock past every token issued so far.
      it('an expired access token (301 s after issue, TTL 300 s) is 401 invalid-token', async () => {
        const fresh = await clientWithToken(server, 'expiring-app', ['contacts:read', 'contacts:write']);
        const expiring = api(server, fresh.access_token);
        assert.equal((await expiring.get('/v2/contacts')).status, 200);
        server.clock.advance(301);
        const response = await expiring.get('/v2/contacts');
        assertProblem(response, 401, 'invalid-token');
        assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
        // Every later suite needs a live token again.
        rest = api(
          server,
          (await server.issueGrant(client, 'alice', ['contacts:read', 'contacts:write'])).access_token,
        );
      });
    });

    describe('before validation: media type, JSON, size', () => {
      it('POST with content-type text/plain is 415 unsupported-media-type', async () => {
        assertProblem(
          await rest.post('/v2/contacts', undefined, {
            raw: JSON.stringify(VALID),
            headers: { 'content-type': 'text/plain' },
          }),
          415,
          'unsupported-media-type',
        );
      });

      it('PUT with content-type text/plain is 415 unsupported-media-type', async () => {
        const { location } = await create();
        assertProblem(
          await rest.put(location, undefined, {
            raw: JSON.stringify(VALID),
            headers: { 'content-type': 'text/plain' },
          }),
          415,
          'unsupported-media-type',
        );
      });

      it('PATCH sent as application/json (not merge-patch) is 415 and changes nothing', async () => {
        const { id, location } = await create();
        const response = await rest.patch(
          location,
          { name: 'Changed' },
          { headers: { 'content-type': 'application/json' } },
        );
        assertProblem(response, 415, 'unsupported-media-type');
        assert.deepEqual((await rest.get(location)).body, { id, ...VALID });
      });

      it('a wrong content type is refused before the body is read: PATCH as application/json with broken JSON is 415, not 400', async () => {
        const { location } = await create();
        assertProblem(
          await rest.patch(location, undefined, { raw: '{bad', headers: { 'content-type': 'application/json' } }),
          415,
          'unsupported-media-type',
        );
      });

      it('POST sent as application/merge-patch+json is 415', async () => {
        assertProblem(
          await rest.post('/v2/contacts', VALID, { headers: { 'content-type': 'application/merge-patch+json' } }),
          415,
          'unsupported-media-type',
        );
      });

      it('application/json with a charset parameter is accepted', async () => {
        const response = await rest.post('/v2/contacts', VALID, {
          headers: { 'content-type': 'application/json; charset=utf-8' },
        });
        assert.equal(response.status, 201, response.text);
      });

      it('a body of "{bad" is 400 malformed-json', async () => {
        assertProblem(await rest.post('/v2/contacts', undefined, { raw: '{bad' }), 400, 'malformed-json');
      });

      it('an empty body is 400 malformed-json', async () => {
        assertProblem(await rest.post('/v2/contacts', undefined, { raw: '' }), 400, 'malformed-json');
      });

      it('a POST with no body and no content type is 400 malformed-json', async () => {
        assertProblem(await rest.post('/v2/contacts'), 400, 'malformed-json');
      });

      it('a JSON body that is not an object (an array, a string) is 422 invalid-field-value, never the missing-field message', async () => {
        for (const raw of ['[]', '"ada@example.com"', '42', 'null']) {
          const response = await rest.post('/v2/contacts', undefined, { raw });
          assertProblem(response, 422, 'invalid-field-value');
          assert.doesNotMatch(response.body.detail, /Missing required field/);
        }
      });

      it('a body over 64 KiB is 413 payload-too-large', async () => {
        const response = await rest.post('/v2/contacts', { email: 'a@b.co', name: 'x'.repeat(64 * 1024) });
        assertProblem(response, 413, 'payload-too-large');
      });

      it('a body just under 64 KiB is not refused for its size', async () => {
        const response = await rest.post('/v2/contacts', { email: 'a@b.co', name: 'x'.repeat(64 * 1024 - 100) });
        assert.equal(response.status, 201, response.text.slice(0, 200));
      });
    });

    describe('routing', () => {
      it('an unknown id is 404 not-found', async () => {
        const response = await rest.get('/v2/contacts/doesnotexist0000');
        assertProblem(response, 404, 'not-found');
        assert.equal(response.body.instance, '/v2/contacts/doesnotexist0000');
      });

      it('PUT, PATCH and DELETE of an unknown id are 404 not-found', async () => {
        assertProblem(await rest.put('/v2/contacts/doesnotexist0000', VALID), 404, 'not-found');
        assertProblem(await rest.patch('/v2/contacts/doesnotexist0000', { name: 'x' }), 404, 'not-found');
        assertProblem(await rest.delete('/v2/contacts/doesnotexist0000'), 404, 'not-found');
      });

      it('an unknown collection /v2/nope is 404 not-found', async () => {
        assertProblem(await rest.get('/v2/nope'), 404, 'not-found');
        assertProblem(await rest.post('/v2/nope', VALID), 404, 'not-found');
      });

      it('DELETE /v2/contacts is 405 method-not-allowed with an Allow header', async () => {
        const response = await rest.delete('/v2/contacts');
        assertProblem(response, 405, 'method-not-allowed');
        const allow = (response.headers.get('allow') ?? '').split(',').map((m) => m.trim());
        assert.ok(allow.includes('GET') && allow.includes('POST'), `Allow: ${allow.join(', ')}`);
        assert.ok(!allow.includes('DELETE'));
      });

      it('POST /v2/contacts/{id} is 405 with Allow listing GET, PUT, PATCH, DELETE', async () => {
        const { location } = await create();
        const response = await rest.post(location, VALID);
        assertProblem(response, 405, 'method-not-allowed');
        const allow = (response.headers.get('allow') ?? '').split(',').map((m) => m.trim());
        for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'])
          assert.ok(allow.includes(method), `Allow: ${allow.join(', ')}`);
      });

      it('GET /v2/openapi.json serves the OpenAPI document without a token', async () => {
        const response = await anonymous.get('/v2/openapi.json');
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/);
        assert.equal(response.body.openapi.slice(0, 4), `${version}.`);
        assert.deepEqual(response.body.components.schemas.Contact.required, ['email']);
        assert.ok(response.body.paths['/contacts']);
        assert.ok(response.body.paths['/contacts/{id}']);
      });
    });

    describe('cursor pagination', () => {
      // A server of its own, so the collection holds exactly what this suite creates.
      let own: TestServer;
      let pager: Api;
      before(async () => {
        own = await startTestServer({ dialect, api: document });
        const { access_token } = await clientWithToken(own, 'pager', ['contacts:read', 'contacts:write']);
        pager = api(own, access_token);
      });
      after(() => own.close());

      it('GET /v2/contacts?limit=2 pages through 5 records in creation order, next_cursor null on the last page', async () => {
        const created: string[] = [];
        for (let i = 0; i < 5; i += 1) {
          const response = await pager.post('/v2/contacts', { email: `user${i}@example.com`, name: `User ${i}` });
          assert.equal(response.status, 201, response.text);
          created.push(response.body.id);
        }
        const pages: { items: { id: string; email: string }[]; next_cursor: string | null }[] = [];
        let path = '/v2/contacts?limit=2';
        for (let guard = 0; guard < 10; guard += 1) {
          const response = await pager.get(path);
          assert.equal(response.status, 200, response.text);
          pages.push(response.body);
          if (response.body.next_cursor === null) break;
          assert.equal(typeof response.body.next_cursor, 'string');
          path = `/v2/contacts?limit=2&cursor=${encodeURIComponent(response.body.next_cursor)}`;
        }
        assert.deepEqual(
          pages.map((p) => p.items.length),
          [2, 2, 1],
        );
        assert.equal(pages.at(-1)?.next_cursor, null);
        assert.deepEqual(
          pages.flatMap((p) => p.items.map((item) => item.id)),
          created,
        );
        assert.deepEqual(
          pages.flatMap((p) => p.items.map((item) => item.email)),
          [0, 1, 2, 3, 4].map((i) => `user${i}@example.com`),
        );
      });

      it('without limit, one page holds all 5 records and next_cursor is null', async () => {
        const response = await pager.get('/v2/contacts');
        assert.equal(response.status, 200);
        assert.equal(response.body.items.length, 5);
        assert.equal(response.body.next_cursor, null);
      });

      it('limit=5 on exactly 5 records gives next_cursor null (no empty last page)', async () => {
        const response = await pager.get('/v2/contacts?limit=5');
        assert.equal(response.body.items.length, 5);
        assert.equal(response.body.next_cursor, null);
      });

      for (const query of [
        'limit=0',
        'limit=101',
        'limit=abc',
        'limit=-1',
        'limit=2.5',
        'limit=',
        'cursor=bogus',
        'cursor=',
        'limit=1&limit=2',
      ]) {
        it(`?${query} is 400 invalid-parameter`, async () => {
          assertProblem(await pager.get(`/v2/contacts?${query}`), 400, 'invalid-parameter');
        });
      }

      it('limit=1 and limit=100 are accepted', async () => {
        assert.equal((await pager.get('/v2/contacts?limit=1')).body.items.length, 1);
        assert.equal((await pager.get('/v2/contacts?limit=100')).body.items.length, 5);
      });
    });

    describe('ETag and If-Match (RFC 9110 §13.1.1)', () => {
      it('PUT with the current ETag is 200 and answers a new ETag, which GET then shows', async () => {
        const { location, etag } = await create();
        const response = await rest.put(location, { email: 'new@example.com' }, { headers: { 'if-match': etag } });
        assert.equal(response.status, 200, response.text);
        const next = response.headers.get('etag');
        assert.ok(next);
        assert.notEqual(next, etag);
        assert.equal((await rest.get(location)).headers.get('etag'), next);
      });

      it('PATCH with the current ETag is 200', async () => {
        const { location, etag } = await create();
        const response = await rest.patch(location, { name: 'B' }, { headers: { 'if-match': etag } });
        assert.equal(response.status, 200, response.text);
      });

      it('If-Match: * matches any current version', async () => {
        const { location } = await create();
        assert.equal((await rest.put(location, VALID, { headers: { 'if-match': '*' } })).status, 200);
      });

      it('PUT, PATCH and DELETE with a stale ETag are 412 precondition-failed and the record is unchanged', async () => {
        const { id, location, etag: stale } = await create();
        const updated = await rest.put(
          location,
          { email: 'current@example.com', name: 'Current' },
          { headers: { 'if-match': stale } },
        );
        assert.equal(updated.status, 200);
        const current = { id, email: 'current@example.com', name: 'Current' };
        const currentEtag = updated.headers.get('etag');

        assertProblem(
          await rest.put(location, { email: 'lost@example.com' }, { headers: { 'if-match': stale } }),
          412,
          'precondition-failed',
        );
        assertProblem(
          await rest.patch(location, { name: 'Lost' }, { headers: { 'if-match': stale } }),
          412,
          'precondition-failed',
        );
        assertProblem(await rest.delete(location, { headers: { 'if-match': stale } }), 412, 'precondition-failed');

        const read = await rest.get(location);
        assert.equal(read.status, 200);
        assert.deepEqual(read.body, current);
        assert.equal(read.headers.get('etag'), currentEtag);
      });

      it('DELETE is 204 with no body, then GET is 404 and a second DELETE is 404', async () => {
        const { location, etag } = await create();
        const deleted = await rest.delete(location, { headers: { 'if-match': etag } });
        assert.equal(deleted.status, 204);
        assert.equal(deleted.text, '');
        assertProblem(await rest.get(location), 404, 'not-found');
        assertProblem(await rest.delete(location), 404, 'not-found');
      });

      it('DELETE without If-Match is 204', async () => {
        const { location } = await create();
        assert.equal((await rest.delete(location)).status, 204);
        assertProblem(await rest.get(location), 404, 'not-found');
      });
    });

    describe('a record as GET returned it can be PUT back (readOnly id)', () => {
      it('PUT of the GET body, id included, is 200 and changes nothing but the version', async () => {
        const { location } = await create();
        const read = await rest.get(location);
        const replaced = await rest.put(location, read.body);
        assert.equal(replaced.status, 200, replaced.text);
        assert.deepEqual(replaced.body, read.body);
      });

      it("PUT with another record's id is 422 invalid-field-value naming id, and the record is unchanged", async () => {
        const { location } = await create();
        const other = await create({ email: 'other@example.com' });
        const before = await rest.get(location);
        const response = await rest.put(location, { ...before.body, id: other.id });
        assertInvalidValue(response, 'id');
        assert.equal(response.body.detail, "Field 'id' is read-only: send the record's own value or leave it out");
        assert.deepEqual((await rest.get(location)).body, before.body);
      });

      it('POST with an id is 422: the server assigns ids', async () => {
        assertInvalidValue(await rest.post('/v2/contacts', { ...VALID, id: 'mine' }), 'id');
      });

      it("PATCH with the record's own id is 200; with another id it is 422", async () => {
        const { id, location } = await create();
        assert.equal((await rest.patch(location, { id, name: 'Same' })).status, 200);
        assertInvalidValue(await rest.patch(location, { id: `${id}x` }), 'id');
      });

      it('an unknown field is 422, as the schema says (additionalProperties: false)', async () => {
        assertInvalidValue(await rest.post('/v2/contacts', { ...VALID, nickname: 'A' }), 'nickname');
      });
    });

    describe('error pages: every problem type and error_uri resolves', () => {
      it('GET /problems/missing-required-field is an HTML page saying what the client must do', async () => {
        const response = await fetch(`${server.url}/problems/missing-required-field`);
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^text\/html\b/);
        const html = await response.text();
        assert.match(html, /Missing required field/);
        assert.match(html, /What the client must do/);
        assert.match(html, /Add the field with a valid value/);
        assert.match(html, /Changing POST to PUT does not avoid the validation/);
      });

      it('GET /problems/missing-required-field with Accept: application/json is the same page as JSON', async () => {
        const response = await fetch(`${server.url}/problems/missing-required-field`, {
          headers: { accept: 'application/json' },
        });
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/);
        const page = (await response.json()) as Record<string, unknown>;
        assert.equal(page.status, 400);
        assert.equal(page.title, 'Missing required field');
        assert.match(String(page.client_action), /Add the field with a valid value/);
      });

      it('GET /problems/invalid-grant (the OAuth error_uri target) exists and says to run the authorization flow again', async () => {
        const response = await fetch(`${server.url}/problems/invalid-grant`);
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^text\/html\b/);
        assert.match(await response.text(), /authoriz/i);
      });

      it('an unknown problem page is a 404 problem', async () => {
        assertProblem(await anonymous.get('/problems/no-such-problem'), 404, 'not-found');
      });

      // Runs last: every suite above has filled receivedProblemTypes.
      it('every problem type this file received resolves to a page (GET → 200, HTML and JSON)', async () => {
        const expected = [
          'invalid-token',
          'insufficient-scope',
          'unsupported-media-type',
          'malformed-json',
          'invalid-field-value',
          'payload-too-large',
          'not-found',
          'method-not-allowed',
          'invalid-parameter',
          'precondition-failed',
        ].map((slug) => `/problems/${slug}`);
        for (const type of expected) assert.ok(receivedProblemTypes.has(type), `the tests received ${type}`);
        for (const type of receivedProblemTypes) {
          assert.match(type, /^\/problems\/[a-z-]+$/);
          const html = await fetch(`${server.url}${type}`);
          assert.equal(html.status, 200, type);
          assert.match(await html.text(), /What the client must do/, type);
          const json = await fetch(`${server.url}${type}`, { headers: { accept: 'application/problem+json' } });
          assert.equal(json.status, 200, type);
          assert.equal(((await json.json()) as { slug: string }).slug, type.slice('/problems/'.length));
        }
      });
    });
  });
