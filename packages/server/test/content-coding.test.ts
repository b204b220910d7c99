import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { api, assertProblem, clientWithToken, type Api, type ApiResponse } from './_api.js';
import { DIALECTS } from './_dialects.js';
import { assertOAuthError } from './_oauth-assertions.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';

/**
 * A body labelled `Content-Encoding: gzip` was read as plain JSON. RFC 9110 §15.5.16:
 * a body in a content coding the server does not support is a 415, with `Accept-Encoding` saying
 * which codings would do (§12.5.3): `identity`, none. The OAuth endpoints answer RFC 6749
 * invalid_request, as they do for a body that is not a form.
 */
for (const dialect of DIALECTS)
  describe(`request bodies with a content coding are refused [${dialect}]`, () => {
    let server: TestServer;
    let rest: Api;
    let client: TestClient;
    let refreshToken: string;
    let accessToken: string;

    before(async () => {
      server = await startTestServer({ dialect });
      const issued = await clientWithToken(server, 'app', ['contacts:read', 'contacts:write']);
      rest = api(server, issued.access_token);
      client = issued.client;
      refreshToken = issued.refresh_token;
      accessToken = issued.access_token;
    });
    after(() => server.close());

    async function stored(): Promise<number> {
      return (await server.context.store.listRecords('contacts', undefined, 100)).length;
    }

    /** A POST of `body` bytes as JSON with the given Content-Encoding, over fetch. */
    async function postEncoded(body: Buffer | string, encoding: string, token?: string): Promise<Response> {
      return fetch(`${server.url}/v2/contacts`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-encoding': encoding,
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        body: typeof body === 'string' ? body : new Uint8Array(body),
      });
    }

    function assertRefusedCoding(response: ApiResponse): void {
      assertProblem(response, 415, 'unsupported-media-type');
      assert.equal(response.headers.get('accept-encoding'), 'identity');
      assert.match(response.body.detail, /Content-Encoding/);
    }

    it('a gzip JSON body labelled Content-Encoding: gzip is 415 unsupported-media-type with Accept-Encoding: identity, and nothing is stored', async () => {
      const before = await stored();
      const gzipped = gzipSync(JSON.stringify({ email: 'gzip@example.com' }));
      const answer = await postEncoded(gzipped, 'gzip', accessToken);
      const text = await answer.text();
      assertRefusedCoding({ status: answer.status, headers: answer.headers, body: JSON.parse(text), text });
      assert.equal(await stored(), before);
    });

    it('plain JSON labelled gzip (it was stored as if unlabelled) is 415; so is any coding listed with identity', async () => {
      const before = await stored();
      const plain = JSON.stringify({ email: 'plain@example.com' });
      for (const coding of ['gzip', 'deflate', 'br', 'identity, gzip', 'GZIP']) {
        assertRefusedCoding(
          await rest.post('/v2/contacts', undefined, { raw: plain, headers: { 'content-encoding': coding } }),
        );
      }
      assert.equal(await stored(), before);
    });

    it('Content-Encoding: identity (no coding) is read as usual', async () => {
      const created = await rest.post(
        '/v2/contacts',
        { email: 'identity@example.com' },
        {
          headers: { 'content-encoding': 'identity' },
        },
      );
      assert.equal(created.status, 201, created.text);
    });

    it('PATCH with a coded merge patch is 415 and the record is unchanged', async () => {
      const created = await rest.post('/v2/contacts', { email: 'patch@example.com', name: 'Before' });
      assert.equal(created.status, 201, created.text);
      const patched = await rest.patch(`/v2/contacts/${created.body.id}`, undefined, {
        raw: JSON.stringify({ name: 'After' }),
        headers: { 'content-encoding': 'deflate' },
      });
      assertRefusedCoding(patched);
      assert.equal((await rest.get(`/v2/contacts/${created.body.id}`)).body.name, 'Before');
    });

    it('the bearer token is checked first: without one, a coded body is 401', async () => {
      const answer = await postEncoded('{"email":"x@example.com"}', 'gzip');
      assert.equal(answer.status, 401);
    });

    it('POST /token with a form labelled gzip is invalid_request "request body must be sent without a Content-Encoding"; the refresh token in it is not used', async () => {
      const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
      const answer = await fetch(`${server.url}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-encoding': 'gzip',
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret ?? ''}`).toString('base64')}`,
        },
        body: form.toString(),
      });
      assert.equal(answer.headers.get('accept-encoding'), 'identity');
      await assertOAuthError(answer, {
        error: 'invalid_request',
        description: 'request body must be sent without a Content-Encoding',
      });
      assert.equal((await refresh(server, client, refreshToken)).status, 200);
    });

    it('the sign-in form refuses a coded body too: a 415 error page', async () => {
      const answer = await fetch(`${server.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
        body: 'username=alice&password=x',
      });
      assert.equal(answer.status, 415);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html\b/);
      assert.equal(answer.headers.get('accept-encoding'), 'identity');
    });
  });
