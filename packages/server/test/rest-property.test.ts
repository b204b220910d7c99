import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { api, clientWithToken, missingMessage, type Api, type ApiResponse } from './_api.js';
import { startTestServer, type TestServer } from './_server.js';
import { REST_SUITES } from './_documents.js';

// The 3.1 twin runs on one dialect here: these properties are about the body contract, which the
// dialect does not touch, and each run costs seconds (rest-api and rest-missing-field run every pair).
for (const { dialect, version, api: document } of REST_SUITES.filter(
  (s) => s.version === '3.0' || s.dialect === 'sqlite',
))
  describe(`REST API v2 properties [${dialect}, OpenAPI ${version}]`, () => {
    /**
     * Properties of the contract over generated bodies: omitted-or-null email is always the exact 400;
     * a valid email never is; arbitrary JSON never yields a 5xx and every error matches the catalog;
     * and a refused request never writes anything.
     */
    // The SQLite + 3.0 suite runs every property in full; its twins (the other store, the other
    // validator) run a third of the inputs: they show that the same contract holds there, which the
    // full runs above have already explored (the twins cost 60 s of the server tier at full size).
    const runs = (full: number) => ({
      numRuns: dialect === 'sqlite' && version === '3.0' ? full : Math.ceil(full / 3),
    });
    const RUNS = runs(150);
    const ID_PATH = /^\/v2\/contacts\/[^/]+$/;

    let server: TestServer;
    let rest: Api;
    let readOnly: Api;
    /** A record every PUT/PATCH of the properties targets. */
    let target: { location: string; etag: string };

    before(async () => {
      server = await startTestServer({ dialect, api: document });
      rest = api(server, (await clientWithToken(server, 'app', ['contacts:read', 'contacts:write'])).access_token);
      readOnly = api(server, (await clientWithToken(server, 'reader', ['contacts:read'])).access_token);
      const created = await rest.post('/v2/contacts', { email: 'target@example.com', name: 'Target' });
      assert.equal(created.status, 201);
      target = { location: created.headers.get('location') ?? '', etag: created.headers.get('etag') ?? '' };
      assert.match(target.location, ID_PATH);
    });
    after(() => server.close());

    const snapshot = () => server.context.store.listRecords('contacts', undefined, 1000);

    // --- generators from the contacts schema -------------------------------------------------------

    const validEmail = fc.oneof(
      fc.constantFrom(
        'ada@example.com',
        'grace.hopper@navy.mil',
        'a@b.co',
        'first.last+tag@sub.example.org',
        'x_y-z@example-domain.io',
      ),
      fc.emailAddress(),
    );
    /** Any string, lone surrogates and control characters included. */
    const anyName = fc.string({ unit: 'binary', maxLength: 40 });
    /** A contacts body with a valid email and an optional name. */
    const validContact = fc.record({ email: validEmail, name: anyName }, { requiredKeys: ['email'] });
    /** The same bodies with email then removed or set to null. */
    const withoutEmail = fc.tuple(validContact, fc.constantFrom('remove', 'null')).map(([body, how]) => {
      const { email: _email, ...rest } = body;
      return how === 'remove' ? rest : { ...rest, email: null };
    });

    type Method = 'POST' | 'PUT' | 'PATCH';
    const method = fc.constantFrom<Method>('POST', 'PUT', 'PATCH');

    function send(m: Method, body: unknown, options: { raw?: string } = {}): Promise<ApiResponse> {
      if (m === 'POST') return rest.post('/v2/contacts', body, options);
      if (m === 'PUT') return rest.put(target.location, body, options);
      return rest.patch(target.location, body, options);
    }

    /** Every error body is a catalog problem whose `status` is the HTTP status. */
    function assertCatalogProblem(response: ApiResponse): void {
      assert.ok(response.status < 500, `no 5xx: ${response.status} ${response.text}`);
      if (response.status < 400) return;
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json\b/, response.text);
      assert.equal(typeof response.body.type, 'string');
      assert.ok(response.body.type.startsWith('/problems/'), response.body.type);
      assert.equal(response.body.status, response.status);
      assert.equal(typeof response.body.title, 'string');
      assert.equal(typeof response.body.detail, 'string');
    }

    describe('property: email omitted or null', () => {
      it("POST or PUT of any contacts body without 'email' (removed or null) is always 400 with the exact detail and errors[0].field 'email'", async () => {
        await fc.assert(
          fc.asyncProperty(withoutEmail, fc.constantFrom<Method>('POST', 'PUT'), async (body, m) => {
            const response = await send(m, body);
            assert.equal(response.status, 400, response.text);
            assert.equal(response.body.type, '/problems/missing-required-field');
            assert.equal(response.body.detail, missingMessage('email'));
            assert.equal(response.body.errors[0].field, 'email');
            assert.equal(response.body.errors[0].pointer, '/email');
            assert.equal(response.body.errors[0].code, 'missing_required_field');
          }),
          RUNS,
        );
      });

      it("PATCH setting 'email' to null, with any name, is always 400 with the exact detail", async () => {
        await fc.assert(
          fc.asyncProperty(fc.record({ name: anyName }, { requiredKeys: [] }), async (patch) => {
            const response = await send('PATCH', { ...patch, email: null });
            assert.equal(response.status, 400, response.text);
            assert.equal(response.body.detail, missingMessage('email'));
            assert.equal(response.body.errors[0].field, 'email');
          }),
          runs(50),
        );
      });
    });

    describe('property: email present and valid', () => {
      it('a contacts body with a valid email is always created (201) and echoed, never the missing-field message', async () => {
        await fc.assert(
          fc.asyncProperty(validContact, async (body) => {
            const response = await rest.post('/v2/contacts', body);
            assert.doesNotMatch(response.text, /Missing required field/);
            assert.equal(response.status, 201, `${JSON.stringify(body)} → ${response.text}`);
            assert.deepEqual(response.body, { id: response.body.id, ...body });
          }),
          RUNS,
        );
      });
    });

    describe('property: arbitrary JSON never yields a 5xx', () => {
      const fieldValue = fc.jsonValue({ maxDepth: 3 });
      const extraKeys = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      const arbitraryObject = fc
        .tuple(fc.record({ email: fieldValue, name: fieldValue }, { requiredKeys: [] }), extraKeys)
        .map(([known, extra]) => ({ ...extra, ...known }));

      it('bodies with arbitrary JSON values for email, name and extra keys get a catalog answer: no 5xx, type /problems/…, status = HTTP status', async () => {
        await fc.assert(
          fc.asyncProperty(arbitraryObject, method, async (body, m) => {
            const response = await send(m, body);
            assertCatalogProblem(response);
            if (response.status === 400) assert.equal(response.body.type, '/problems/missing-required-field');
            // Only a missing email may produce the missing-field message.
            if (typeof body.email === 'string') assert.doesNotMatch(response.text, /Missing required field/);
          }),
          RUNS,
        );
      });

      it('any JSON document as the body (not only objects) gets a catalog answer and never a 5xx', async () => {
        await fc.assert(
          fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), method, async (body, m) => {
            assertCatalogProblem(await send(m, body));
          }),
          RUNS,
        );
      });

      it('any text as the body gets a catalog answer and never a 5xx', async () => {
        await fc.assert(
          fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 60 }), method, async (raw, m) => {
            assertCatalogProblem(await send(m, undefined, { raw }));
          }),
          RUNS,
        );
      });

      it('deeply nested JSON is refused with a 4xx, not a crash: nested over 64 levels, it is malformed-json on every method', async () => {
        for (const depth of [100, 5_000]) {
          const raw = `{"email":"a@b.co","name":${'['.repeat(depth)}${']'.repeat(depth)}}`;
          for (const m of ['POST', 'PUT', 'PATCH'] as const) {
            const response = await send(m, undefined, { raw });
            assertCatalogProblem(response);
            assert.equal(response.status, 400, response.text.slice(0, 300));
            assert.equal(response.body.type, '/problems/malformed-json');
          }
        }
      });

      it("a '__proto__' or 'constructor' key is an unknown field (422), never a prototype write", async () => {
        for (const raw of [
          '{"email":"a@b.co","__proto__":{"admin":true}}',
          '{"email":"a@b.co","constructor":{"prototype":{}}}',
        ]) {
          const response = await send('POST', undefined, { raw });
          assert.equal(response.status, 422, response.text);
          assert.equal(response.body.type, '/problems/invalid-field-value');
        }
        const patched = await send('PATCH', undefined, { raw: '{"__proto__":{"email":null}}' });
        assert.equal(patched.status, 422, patched.text);
      });
    });

    describe('no 4xx writes anything', () => {
      /** Each refused request, with the status it must get. */
      const refusals: Record<string, { status: number; send: () => Promise<ApiResponse> }> = {
        'POST without email': { status: 400, send: () => rest.post('/v2/contacts', { name: 'x' }) },
        'POST email null': { status: 400, send: () => rest.post('/v2/contacts', { email: null }) },
        'POST empty email': { status: 422, send: () => rest.post('/v2/contacts', { email: '' }) },
        'POST invalid email': { status: 422, send: () => rest.post('/v2/contacts', { email: 'nope' }) },
        'POST unknown field': { status: 422, send: () => rest.post('/v2/contacts', { email: 'a@b.co', extra: 1 }) },
        'POST malformed JSON': { status: 400, send: () => rest.post('/v2/contacts', undefined, { raw: '{bad' }) },
        'POST text/plain': {
          status: 415,
          send: () => rest.post('/v2/contacts', undefined, { raw: '{}', headers: { 'content-type': 'text/plain' } }),
        },
        'POST too large': {
          status: 413,
          send: () => rest.post('/v2/contacts', { email: 'a@b.co', name: 'x'.repeat(70_000) }),
        },
        'POST unauthorized': { status: 401, send: () => api(server).post('/v2/contacts', { email: 'a@b.co' }) },
        'POST read-only scope': { status: 403, send: () => readOnly.post('/v2/contacts', { email: 'a@b.co' }) },
        'PUT without email': { status: 400, send: () => rest.put(target.location, { name: 'x' }) },
        'PUT invalid email': { status: 422, send: () => rest.put(target.location, { email: 'nope' }) },
        'PUT stale If-Match': {
          status: 412,
          send: () => rest.put(target.location, { email: 'a@b.co' }, { headers: { 'if-match': '"0"' } }),
        },
        'PUT unauthorized': {
          status: 401,
          send: () => api(server, 'garbage').put(target.location, { email: 'a@b.co' }),
        },
        'PATCH email null': { status: 400, send: () => rest.patch(target.location, { email: null }) },
        'PATCH empty email': { status: 422, send: () => rest.patch(target.location, { email: '' }) },
        'PATCH as application/json': {
          status: 415,
          send: () => rest.patch(target.location, { name: 'y' }, { headers: { 'content-type': 'application/json' } }),
        },
        'PATCH stale If-Match': {
          status: 412,
          send: () => rest.patch(target.location, { name: 'y' }, { headers: { 'if-match': '"0"' } }),
        },
        'DELETE stale If-Match': {
          status: 412,
          send: () => rest.delete(target.location, { headers: { 'if-match': '"0"' } }),
        },
        'DELETE read-only scope': { status: 403, send: () => readOnly.delete(target.location) },
        'DELETE collection': { status: 405, send: () => rest.delete('/v2/contacts') },
      };

      it('a batch of refused requests (missing, invalid, malformed, unauthorized, stale If-Match, PATCH to null) leaves every record exactly as it was', async () => {
        const before = await snapshot();
        assert.ok(before.length > 0);
        for (const [label, { status, send: refuse }] of Object.entries(refusals)) {
          const response = await refuse();
          assert.equal(response.status, status, `${label}: ${response.text.slice(0, 200)}`);
          assertCatalogProblem(response);
        }
        assert.deepEqual(await snapshot(), before);
      });

      it('property: any sequence of refused requests leaves the store unchanged', async () => {
        const labels = Object.keys(refusals);
        await fc.assert(
          fc.asyncProperty(fc.array(fc.constantFrom(...labels), { minLength: 1, maxLength: 8 }), async (sequence) => {
            const before = await snapshot();
            for (const label of sequence) {
              const refusal = refusals[label];
              assert.ok(refusal);
              assert.equal((await refusal.send()).status, refusal.status, label);
            }
            assert.deepEqual(await snapshot(), before);
          }),
          runs(30),
        );
      });
    });
  });
