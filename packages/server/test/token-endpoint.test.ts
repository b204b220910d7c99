import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OAUTH_ERRORS, type OAuthErrorCode } from '@gatehouse/contract';
import { assertOAuthError, assertOkJson, ISSUER } from './_oauth-assertions.js';
import {
  basicAuthorization,
  refresh,
  startTestServer,
  VERIFIER,
  type PostOptions,
  type TestClient,
  type TestServer,
} from './_server.js';
import { DIALECTS } from './_dialects.js';

const REDIRECT_URI = 'https://app.example/callback';
/** Well-formed (RFC 7636 §4.1) but not the verifier the codes are made for. */
const OTHER_VERIFIER = 'A'.repeat(43);
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

for (const dialect of DIALECTS)
  describe(`POST /token [${dialect}]`, () => {
    let server: TestServer;
    let app: TestClient;
    let other: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      app = await server.addClient({ id: 'app' });
      other = await server.addClient({ id: 'other' });
    });
    after(() => server.close());

    const token = (form: Record<string, string> | string, options?: PostOptions): Promise<Response> =>
      server.post('/token', form, options);
    const raw = (init: RequestInit): Promise<Response> => fetch(`${server.url}/token`, { method: 'POST', ...init });

    describe('bad input always gets a catalog error and never a 5xx', () => {
      it('a request without grant_type is refused with invalid_request "missing required parameter \'grant_type\'"', async () => {
        await assertOAuthError(await token({ refresh_token: 'x' }, { as: app }), {
          error: 'invalid_request',
          description: "missing required parameter 'grant_type'",
        });
      });

      it('an unknown grant_type is refused with unsupported_grant_type', async () => {
        await assertOAuthError(await token({ grant_type: 'password', username: 'a', password: 'b' }, { as: app }), {
          error: 'unsupported_grant_type',
          description: 'grant_type is not supported',
        });
      });

      it('a grant_type sent twice is refused with invalid_request, even when both values agree (RFC 6749 §3.2)', async () => {
        await assertOAuthError(await token('grant_type=refresh_token&grant_type=refresh_token'), {
          error: 'invalid_request',
          description: "parameter 'grant_type' was sent more than once",
        });
      });

      it('a refresh_token sent twice is refused with invalid_request and neither token is touched', async () => {
        const { refresh_token } = await server.issueGrant(app);
        await assertOAuthError(
          await token(`grant_type=refresh_token&refresh_token=${refresh_token}&refresh_token=${refresh_token}`, {
            as: app,
          }),
          {
            error: 'invalid_request',
            description: "parameter 'refresh_token' was sent more than once",
          },
        );
        assert.equal((await refresh(server, app, refresh_token)).status, 200);
      });

      it('a JSON body is refused with invalid_request "request body must be application/x-www-form-urlencoded"', async () => {
        const response = await raw({
          headers: { 'content-type': 'application/json', authorization: basicAuthorization(app.id, app.secret ?? '') },
          body: JSON.stringify({ grant_type: 'client_credentials' }),
        });
        await assertOAuthError(response, {
          error: 'invalid_request',
          description: 'request body must be application/x-www-form-urlencoded',
        });
      });

      it('an empty body is refused as a missing grant_type, with a form content-type and with no content-type at all', async () => {
        const expected = { error: 'invalid_request', description: "missing required parameter 'grant_type'" } as const;
        await assertOAuthError(await raw({ headers: FORM, body: '' }), expected);
        await assertOAuthError(await raw({}), expected);
      });

      it('a body over the 16 KiB limit is refused with 413 invalid_request', async () => {
        await assertOAuthError(await token(`grant_type=client_credentials&padding=${'a'.repeat(16 * 1024)}`), {
          status: 413,
          error: 'invalid_request',
          description: 'request body is larger than the server accepts',
        });
      });
    });

    describe('client authentication (RFC 6749 §2.3)', () => {
      const clientCredentials = { grant_type: 'client_credentials' };

      it('a wrong secret in the Basic header gets 401 invalid_client with a WWW-Authenticate: Basic challenge', async () => {
        const response = await token(clientCredentials, { as: { id: app.id, secret: 'wrong' } });
        assert.match(response.headers.get('www-authenticate') ?? '', /^Basic /);
        await assertOAuthError(response, { error: 'invalid_client', description: 'client authentication failed' });
      });

      it('a wrong client_secret in the body gets 401 invalid_client without WWW-Authenticate', async () => {
        const response = await token(clientCredentials, { as: { id: app.id, secret: 'wrong' }, auth: 'post' });
        assert.equal(response.headers.get('www-authenticate'), null);
        await assertOAuthError(response, { error: 'invalid_client', description: 'client authentication failed' });
      });

      it('an unknown client gets the same 401 invalid_client as a wrong secret', async () => {
        await assertOAuthError(await token(clientCredentials, { as: { id: 'nobody', secret: 'whatever' } }), {
          error: 'invalid_client',
          description: 'client authentication failed',
        });
        await assertOAuthError(await token(clientCredentials, { as: { id: 'nobody', secret: null } }), {
          error: 'invalid_client',
          description: 'client authentication failed',
        });
      });

      it('no client credentials at all gets 401 invalid_client', async () => {
        await assertOAuthError(await token(clientCredentials), {
          error: 'invalid_client',
          description: 'client authentication failed',
        });
      });

      it('Basic and client_secret_post at once are refused with 400 invalid_request', async () => {
        const response = await token(
          { ...clientCredentials, client_id: app.id, client_secret: app.secret ?? '' },
          { headers: { authorization: basicAuthorization(app.id, app.secret ?? '') } },
        );
        await assertOAuthError(response, {
          error: 'invalid_request',
          description: 'client used more than one authentication method',
        });
      });

      it('a malformed Basic header gets 401 invalid_client with a challenge', async () => {
        for (const authorization of ['Basic !!!', 'Basic ', `Basic ${Buffer.from('no-colon').toString('base64')}`]) {
          const response = await token(clientCredentials, { headers: { authorization } });
          assert.match(response.headers.get('www-authenticate') ?? '', /^Basic /);
          await assertOAuthError(response, { error: 'invalid_client' });
        }
      });
    });

    describe('grant types', () => {
      it('a client using a grant type it is not registered for gets unauthorized_client', async () => {
        const refreshOnly = await server.addClient({ id: 'refresh-only', grantTypes: ['refresh_token'] });
        await assertOAuthError(await token({ grant_type: 'client_credentials' }, { as: refreshOnly }), {
          error: 'unauthorized_client',
          description: 'client is not allowed to use this grant type',
        });
      });

      it("client_credentials gives a confidential client an access token, no refresh token, and the client's scopes by default", async () => {
        const body = await assertOkJson(await token({ grant_type: 'client_credentials' }, { as: app }));
        assert.equal(typeof body.access_token, 'string');
        assert.equal(body.token_type, 'Bearer');
        assert.equal(body.expires_in, 300);
        assert.equal(body.scope, 'contacts:read contacts:write');
        assert.equal('refresh_token' in body, false);
        const narrowed = await assertOkJson(
          await token({ grant_type: 'client_credentials', scope: 'contacts:read' }, { as: app, auth: 'post' }),
        );
        assert.equal(narrowed.scope, 'contacts:read');
      });

      it("client_credentials asking for a scope beyond the client's gets invalid_scope", async () => {
        await assertOAuthError(
          await token({ grant_type: 'client_credentials', scope: 'contacts:read admin' }, { as: app }),
          {
            error: 'invalid_scope',
            description: 'requested scope exceeds the scope the client may request',
          },
        );
      });

      it('a public client authenticating with none refreshes its own token', async () => {
        const spa = await server.addClient({ id: 'spa', public: true });
        assert.equal(spa.secret, null);
        const { refresh_token } = await server.issueGrant(spa);
        const { status, body } = await refresh(server, spa, refresh_token);
        assert.equal(status, 200);
        assert.equal(typeof body.access_token, 'string');
        assert.equal(typeof body.refresh_token, 'string');
      });
    });

    describe('authorization_code grant with PKCE (RFC 6749 §4.1.3, RFC 7636 §4.5)', () => {
      const newCode = (client: TestClient = app): Promise<string> =>
        server.createCode(client, { verifier: VERIFIER, redirectUri: REDIRECT_URI });
      const exchange = (
        code: string,
        overrides: Record<string, string> = {},
        as: TestClient = app,
      ): Promise<Response> =>
        token(
          { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER, ...overrides },
          { as },
        );

      it('a correct exchange gives an access token and a refresh token, and the refresh token works', async () => {
        const body = await assertOkJson(await exchange(await newCode()));
        assert.equal(typeof body.access_token, 'string');
        assert.equal(body.token_type, 'Bearer');
        assert.equal(body.scope, 'contacts:read');
        assert.equal(typeof body.refresh_token, 'string');
        assert.equal((await refresh(server, app, body.refresh_token as string)).status, 200);
      });

      it('a wrong code_verifier gets invalid_grant, and the code still works with the right verifier afterwards', async () => {
        const code = await newCode();
        await assertOAuthError(await exchange(code, { code_verifier: OTHER_VERIFIER }), {
          error: 'invalid_grant',
          description: 'code_verifier does not match the code_challenge',
        });
        await assertOkJson(await exchange(code));
      });

      it('a wrong redirect_uri gets invalid_grant, and the code still works with the right one afterwards', async () => {
        const code = await newCode();
        await assertOAuthError(await exchange(code, { redirect_uri: 'https://app.example/other' }), {
          error: 'invalid_grant',
          description: 'redirect_uri does not match the authorization request',
        });
        await assertOkJson(await exchange(code));
      });

      it('a code used twice is refused the second time, and the refresh token of the first exchange is then revoked (RFC 6749 §4.1.2)', async () => {
        const code = await newCode();
        const first = await assertOkJson(await exchange(code));
        await assertOAuthError(await exchange(code), {
          error: 'invalid_grant',
          description: 'authorization code has already been used',
        });
        const { status, body } = await refresh(server, app, first.refresh_token as string);
        assert.equal(status, 400);
        assert.deepEqual(body, {
          error: 'invalid_grant',
          error_description: 'refresh token has been revoked',
          error_uri: `${ISSUER}/problems/invalid-grant`,
        });
      });

      it('a code presented after its 60 s lifetime gets invalid_grant "authorization code has expired"', async () => {
        const code = await newCode();
        server.clock.advance(61);
        await assertOAuthError(await exchange(code), {
          error: 'invalid_grant',
          description: 'authorization code has expired',
        });
      });

      it("another client's code gets invalid_grant, and its own client can still exchange it", async () => {
        const code = await newCode(other);
        await assertOAuthError(await exchange(code, {}, app), {
          error: 'invalid_grant',
          description: 'authorization code was issued to another client',
        });
        await assertOkJson(await exchange(code, {}, other));
      });

      it('an unknown code gets invalid_grant "authorization code is invalid"', async () => {
        await assertOAuthError(await exchange('no-such-code'), {
          error: 'invalid_grant',
          description: 'authorization code is invalid',
        });
      });

      it('a malformed code_verifier (too short) gets invalid_request', async () => {
        await assertOAuthError(await exchange(await newCode(), { code_verifier: 'short' }), {
          error: 'invalid_request',
          description: 'code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]',
        });
      });
    });

    it("every error's error_uri is the issuer's page for that error in the catalog, and the server serves that page", async () => {
      const provoked: Response[] = [
        await token({}),
        await token({ grant_type: 'client_credentials' }, { as: { id: app.id, secret: 'wrong' } }),
        await token({ grant_type: 'refresh_token', refresh_token: 'unknown' }, { as: app }),
        await token(
          { grant_type: 'client_credentials' },
          { as: await server.addClient({ id: 'uri-check', grantTypes: ['refresh_token'] }) },
        ),
        await token({ grant_type: 'implicit' }),
        await token({ grant_type: 'client_credentials', scope: 'admin' }, { as: app }),
      ];
      const seen = new Set<string>();
      for (const response of provoked) {
        const body = (await response.json()) as { error: OAuthErrorCode; error_uri: string };
        assert.equal(body.error_uri, `http://gatehouse.test/problems/${OAUTH_ERRORS[body.error].page}`);
        seen.add(body.error);
        assert.equal(
          (await fetch(`${server.url}${new URL(body.error_uri).pathname}`)).status,
          200,
          `page ${body.error_uri}`,
        );
      }
      assert.deepEqual([...seen].sort(), [
        'invalid_client',
        'invalid_grant',
        'invalid_request',
        'invalid_scope',
        'unauthorized_client',
        'unsupported_grant_type',
      ]);
    });

    it('GET /token answers a 404 problem+json, not a 5xx', async () => {
      const response = await fetch(`${server.url}/token`);
      assert.equal(response.status, 404);
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json\b/);
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(body.type, '/problems/not-found');
      assert.equal(body.status, 404);
      assert.equal(body.instance, '/token');
    });
  });
