import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, assertInvalidValue, assertMissingFields, clientWithToken, type Api } from './_api.js';
import { startTestServer, type TestServer } from './_server.js';
import { REST_SUITES } from './_documents.js';

/**
 * Error contract, part B: a required field omitted or null → 400 with the exact message; an
 * unacceptable value → a different (422) error; PUT and PATCH do not avoid the validation.
 */
const EMAIL_MISSING = [{ field: 'email', pointer: '/email' }];

for (const { dialect, version, api: document } of REST_SUITES)
  describe(`REST API v2.0: the missing required field (error contract, part B) [${dialect}, OpenAPI ${version}]`, () => {
    let server: TestServer;
    let rest: Api;

    before(async () => {
      server = await startTestServer({ dialect, api: document });
      const { access_token } = await clientWithToken(server, 'app', ['contacts:read', 'contacts:write']);
      rest = api(server, access_token);
    });
    after(() => server.close());

    async function createContact(
      body: Record<string, unknown> = { email: 'ada@example.com', name: 'Ada' },
    ): Promise<{ id: string; location: string; etag: string }> {
      const created = await rest.post('/v2/contacts', body);
      assert.equal(created.status, 201, created.text);
      return {
        id: created.body.id,
        location: created.headers.get('location') ?? '',
        etag: created.headers.get('etag') ?? '',
      };
    }

    describe('POST /v2/contacts', () => {
      it("a body without 'email' ({}) is refused with 400 and the detail \"Missing required field 'email' in request body\"", async () => {
        const response = await rest.post('/v2/contacts', {});
        assertMissingFields(response, EMAIL_MISSING, '/v2/contacts');
        assert.equal(response.body.title, 'Missing required field');
      });

      it("a body with 'email' set to null is refused exactly as if it were omitted", async () => {
        assertMissingFields(await rest.post('/v2/contacts', { email: null }), EMAIL_MISSING, '/v2/contacts');
      });

      it("a body with only 'name' is refused with the missing-field 400 for 'email'", async () => {
        assertMissingFields(await rest.post('/v2/contacts', { name: 'x' }), EMAIL_MISSING, '/v2/contacts');
      });

      it('the missing-field problem body is exactly the one docs/rest-api.md shows', async () => {
        const response = await rest.post('/v2/contacts', { name: 'x' });
        assert.deepEqual(response.body, {
          type: '/problems/missing-required-field',
          title: 'Missing required field',
          status: 400,
          detail: "Missing required field 'email' in request body",
          instance: '/v2/contacts',
          errors: [
            {
              code: 'missing_required_field',
              field: 'email',
              pointer: '/email',
              detail: "Missing required field 'email' in request body",
            },
          ],
        });
      });

      it("an empty 'email' is a different error: 422 invalid-field-value, never the missing-field message", async () => {
        assertInvalidValue(await rest.post('/v2/contacts', { email: '' }), 'email');
      });

      it('a malformed \'email\' ("nope") is 422 invalid-field-value, never the missing-field message', async () => {
        assertInvalidValue(await rest.post('/v2/contacts', { email: 'nope' }), 'email');
      });

      it("an 'email' of the wrong type (42) is 422 invalid-field-value", async () => {
        assertInvalidValue(await rest.post('/v2/contacts', { email: 42 }), 'email');
      });

      it('a body with a missing field and an unknown one is the 400 for the missing field, and errors lists both', async () => {
        const response = await rest.post('/v2/contacts', { email: null, extra: 1 });
        assert.equal(response.status, 400);
        assert.equal(response.body.detail, "Missing required field 'email' in request body");
        assert.deepEqual(
          response.body.errors.map((e: { code: string; field: string }) => [e.code, e.field]),
          [
            ['missing_required_field', 'email'],
            ['invalid_field_value', 'extra'],
          ],
        );
      });

      it('an unknown field is refused with 422 invalid-field-value naming it', async () => {
        const response = await rest.post('/v2/contacts', { email: 'a@b.co', extra: 1 });
        assertInvalidValue(response, 'extra');
        assert.equal(response.body.errors.find((e: { field: string }) => e.field === 'extra').pointer, '/extra');
      });

      it('a valid body is created: 201, Location /v2/contacts/<id>, an ETag, and GET of the Location returns it', async () => {
        const response = await rest.post('/v2/contacts', { email: 'ada@example.com', name: 'Ada Lovelace' });
        assert.equal(response.status, 201, response.text);
        assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/);
        const id: unknown = response.body.id;
        assert.equal(typeof id, 'string');
        assert.deepEqual(response.body, { id, email: 'ada@example.com', name: 'Ada Lovelace' });
        assert.equal(response.headers.get('location'), `/v2/contacts/${String(id)}`);
        const etag = response.headers.get('etag');
        assert.match(etag ?? '', /^(W\/)?".+"$/);

        const read = await rest.get(response.headers.get('location') ?? '');
        assert.equal(read.status, 200);
        assert.deepEqual(read.body, response.body);
        assert.equal(read.headers.get('etag'), etag);
      });

      it("a valid body without the optional 'name' is created", async () => {
        const response = await rest.post('/v2/contacts', { email: 'grace@example.com' });
        assert.equal(response.status, 201, response.text);
        assert.deepEqual(response.body, { id: response.body.id, email: 'grace@example.com' });
      });
    });

    describe('PUT /v2/contacts/{id} is validated exactly like POST', () => {
      for (const [label, body] of [
        ['{}', {}],
        ['{"email":null}', { email: null }],
        ['{"name":"x"}', { name: 'x' }],
      ] as const) {
        it(`PUT with ${label} is refused with the missing-field 400 for 'email' and the record is unchanged`, async () => {
          const { id, location } = await createContact();
          const response = await rest.put(location, body);
          assertMissingFields(response, EMAIL_MISSING, `/v2/contacts/${id}`);
          assert.deepEqual((await rest.get(location)).body, { id, email: 'ada@example.com', name: 'Ada' });
        });
      }

      for (const [label, email] of [
        ['an empty', ''],
        ['a malformed ("nope")', 'nope'],
        ['a wrong-type (42)', 42],
      ] as const) {
        it(`PUT with ${label} 'email' is 422 invalid-field-value, not the missing-field message`, async () => {
          const { location } = await createContact();
          assertInvalidValue(await rest.put(location, { email }), 'email');
        });
      }

      it('PUT with an unknown field is 422 invalid-field-value', async () => {
        const { location } = await createContact();
        assertInvalidValue(await rest.put(location, { email: 'a@b.co', extra: 1 }), 'extra');
      });

      it('PUT with a valid body is a full replacement: 200, the new record, a new ETag; omitted fields are gone', async () => {
        const { id, location, etag } = await createContact();
        const response = await rest.put(location, { email: 'new@example.com' });
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(response.body, { id, email: 'new@example.com' });
        assert.notEqual(response.headers.get('etag'), etag);
        assert.deepEqual((await rest.get(location)).body, { id, email: 'new@example.com' });
      });
    });

    describe('PATCH /v2/contacts/{id} (JSON Merge Patch): the merged record is validated', () => {
      it("PATCH setting 'email' to null is the missing-field 400 for 'email', and the record is unchanged", async () => {
        const { id, location } = await createContact();
        const response = await rest.patch(location, { email: null });
        assertMissingFields(response, EMAIL_MISSING, `/v2/contacts/${id}`);
        assert.deepEqual((await rest.get(location)).body, { id, email: 'ada@example.com', name: 'Ada' });
      });

      it("PATCH setting only 'name' is 200 and answers the merged record", async () => {
        const { id, location, etag } = await createContact();
        const response = await rest.patch(location, { name: 'Augusta Ada King' });
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(response.body, { id, email: 'ada@example.com', name: 'Augusta Ada King' });
        assert.notEqual(response.headers.get('etag'), etag);
        assert.deepEqual((await rest.get(location)).body, response.body);
      });

      it("PATCH setting 'name' to null removes it (RFC 7396) and the record stays valid", async () => {
        const { id, location } = await createContact();
        const response = await rest.patch(location, { name: null });
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(response.body, { id, email: 'ada@example.com' });
      });

      it('PATCH setting \'email\' to "" is 422 invalid-field-value, not the missing-field message', async () => {
        const { id, location } = await createContact();
        assertInvalidValue(await rest.patch(location, { email: '' }), 'email');
        assert.deepEqual((await rest.get(location)).body, { id, email: 'ada@example.com', name: 'Ada' });
      });

      it('PATCH adding an unknown field is 422 invalid-field-value', async () => {
        const { location } = await createContact();
        assertInvalidValue(await rest.patch(location, { extra: 1 }), 'extra');
      });
    });
  });
