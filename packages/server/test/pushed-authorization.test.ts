import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import {
  addTestUser,
  authorizationQuery,
  CALLBACK,
  callbackParams,
  obtainCode,
  PageBrowser,
  pkce,
} from './_authorize.js';
import { assertionFields, clientAssertion, clientKeyPair, unsecuredJwt, type ClientKeyPair } from './_client-keys.js';
import { DIALECTS } from './_dialects.js';
import { assertOAuthError, ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

const REQUEST_URI = /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/;

/** The pushed request's parameters, as a form (the client's authentication added by `post`). */
function pushedForm(clientId: string, challenge: string, overrides: Record<string, string | undefined> = {}) {
  return Object.fromEntries(new URLSearchParams(authorizationQuery(clientId, challenge, overrides)));
}

for (const dialect of DIALECTS)
  describe(`pushed authorization requests (RFC 9126) and signed request objects (RFC 9101) [${dialect}]`, () => {
    let server: TestServer;
    let web: TestClient;
    let strict: TestClient;
    let keyed: TestClient;
    let keys: ClientKeyPair;

    before(async () => {
      server = await startTestServer({ dialect });
      keys = await clientKeyPair();
      const common = { redirectUris: [CALLBACK], scope: ['openid', 'contacts:read', 'contacts:write'] };
      web = await server.addClient({ id: 'web', name: 'Web', ...common });
      strict = await server.addClient({
        id: 'strict',
        name: 'Strict',
        ...common,
        requirePushedAuthorizationRequests: true,
      });
      keyed = await server.addClient({ id: 'keyed', name: 'Keyed', ...common, jwks: keys.jwks });
      await addTestUser(server);
    });
    after(async () => server?.close());

    async function push(client: TestClient, form: Record<string, string>) {
      return server.post('/par', form, { as: client });
    }

    async function pushed(client: TestClient, challenge: string, overrides = {}): Promise<string> {
      const response = await push(client, pushedForm(client.id, challenge, overrides));
      const text = await response.text();
      assert.equal(response.status, 201, text);
      const body = JSON.parse(text) as { request_uri: string; expires_in: number };
      assert.match(body.request_uri, REQUEST_URI);
      // RFC 9126 §2.2: a short lifetime, under 600 seconds.
      assert.ok(body.expires_in > 0 && body.expires_in < 600, `expires_in ${body.expires_in}`);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      return body.request_uri;
    }

    const byReference = (clientId: string, requestUri: string): string =>
      new URLSearchParams({ client_id: clientId, request_uri: requestUri }).toString();

    it('the metadata names the PAR endpoint, its requirement and request objects (RFC 9126 §5, RFC 9101 §10.5)', async () => {
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        unknown
      >;
      assert.equal(metadata.pushed_authorization_request_endpoint, `${ISSUER}/par`);
      assert.equal(metadata.require_pushed_authorization_requests, false);
      assert.equal(metadata.request_parameter_supported, true);
      assert.ok((metadata.request_object_signing_alg_values_supported as string[]).includes('ES256'));
      assert.ok(!(metadata.request_object_signing_alg_values_supported as string[]).includes('none'));
    });

    it('a pushed request runs the code flow: /authorize takes client_id and the request_uri alone (RFC 9126 §4)', async () => {
      const { verifier, challenge } = pkce();
      const requestUri = await pushed(web, challenge, { state: 'pushed-state' });
      const params = await obtainCode(new PageBrowser(server), byReference(web.id, requestUri));
      assert.equal(params.state, 'pushed-state');
      assert.equal(params.iss, ISSUER);
      const token = await server.post(
        '/token',
        {
          grant_type: 'authorization_code',
          code: params.code as string,
          redirect_uri: CALLBACK,
          code_verifier: verifier,
        },
        { as: web },
      );
      assert.equal(token.status, 200, await token.text());
    });

    it('a request_uri is used once (RFC 9126 §4): a second /authorize with it, from another browser, is refused with a page', async () => {
      const { challenge } = pkce();
      const requestUri = await pushed(web, challenge);
      const first = await new PageBrowser(server).authorize(byReference(web.id, requestUri));
      assert.equal(first.status, 200);
      for (const browser of [new PageBrowser(server), new PageBrowser(server)]) {
        const again = await browser.authorize(byReference(web.id, requestUri));
        assert.equal(again.status, 400);
        assert.match(again.html, /problems\/invalid-request-uri/);
        assert.equal(again.location, undefined);
      }
    });

    it('a request_uri used by many browsers at once is used by exactly one (one conditional update)', async () => {
      const { challenge } = pkce();
      const requestUri = await pushed(web, challenge);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => new PageBrowser(server).authorize(byReference(web.id, requestUri))),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
    });

    it('a request_uri past its expires_in is refused (RFC 9126 §2.2)', async () => {
      const { challenge } = pkce();
      const response = await push(web, pushedForm(web.id, challenge));
      const { request_uri, expires_in } = (await response.json()) as { request_uri: string; expires_in: number };
      server.clock.advance(expires_in + 1);
      const page = await new PageBrowser(server).authorize(byReference(web.id, request_uri));
      assert.equal(page.status, 400);
      assert.match(page.html, /problems\/invalid-request-uri/);
    });

    it("a request_uri is another client's to use: named with another client_id it is refused", async () => {
      const { challenge } = pkce();
      const requestUri = await pushed(web, challenge);
      const page = await new PageBrowser(server).authorize(byReference(keyed.id, requestUri));
      assert.equal(page.status, 400);
      assert.match(page.html, /problems\/invalid-request-uri/);
    });

    it('a client requiring PAR is refused at /authorize without it, at its redirect URI (RFC 9126 §5)', async () => {
      const { challenge } = pkce();
      const page = await new PageBrowser(server).authorize(authorizationQuery(strict.id, challenge));
      assert.equal(page.status, 302);
      const params = callbackParams(page.location);
      assert.equal(params.error, 'invalid_request');
      assert.equal(
        params.error_description,
        'authorization requests of this client must be pushed to the pushed authorization request endpoint',
      );
      const requestUri = await pushed(strict, challenge);
      assert.ok((await obtainCode(new PageBrowser(server), byReference(strict.id, requestUri))).code);
    });

    it('the pushed request is checked as /authorize checks it: a bad one is refused at /par (RFC 9126 §2.3)', async () => {
      const { challenge } = pkce();
      await assertOAuthError(await push(web, pushedForm(web.id, challenge, { code_challenge: undefined })), {
        error: 'invalid_request',
        description: 'code_challenge is required: PKCE with S256 is required for every client',
      });
      await assertOAuthError(
        await push(web, pushedForm(web.id, challenge, { redirect_uri: 'https://evil.example/cb' })),
        { error: 'invalid_request', description: 'redirect_uri is missing, repeated or not registered for the client' },
      );
      await assertOAuthError(await push(web, pushedForm(web.id, challenge, { scope: 'gatehouse:admin' })), {
        error: 'invalid_scope',
      });
      await assertOAuthError(await push(web, { ...pushedForm(web.id, challenge), request_uri: 'urn:x' }), {
        error: 'invalid_request',
        description: 'a pushed authorization request must not carry request_uri',
      });
      // RFC 6749 §2.3: a client_id naming another client than the credentials is refused as such.
      await assertOAuthError(await push(web, pushedForm(keyed.id, challenge)), {
        error: 'invalid_request',
        description: 'client used more than one authentication method',
      });
    });

    it('/par authenticates the client as /token does: a wrong secret is invalid_client', async () => {
      const { challenge } = pkce();
      await assertOAuthError(
        await server.post('/par', pushedForm(web.id, challenge), { as: { id: web.id, secret: 'wrong' } }),
        { error: 'invalid_client' },
      );
    });

    it('a request_uri of another kind than the PAR endpoint answers is refused (RFC 9101 §5.2: no fetching)', async () => {
      const page = await new PageBrowser(server).authorize(byReference(web.id, 'https://app.example/request.jwt'));
      assert.equal(page.status, 400);
      assert.match(page.html, /problems\/invalid-request-uri/);
    });

    async function requestObject(claims: Record<string, unknown>, signer = keys): Promise<string> {
      const now = server.clock.now();
      return new SignJWT({ iss: keyed.id, aud: ISSUER, client_id: keyed.id, iat: now, exp: now + 300, ...claims })
        .setProtectedHeader({ alg: signer.alg, kid: signer.kid })
        .sign(signer.privateKey);
    }

    it('a signed request object at /par: the parameters are the object’s only (RFC 9126 §3, RFC 9101 §6.3)', async () => {
      const { verifier, challenge } = pkce();
      const object = await requestObject(
        Object.fromEntries(new URLSearchParams(authorizationQuery(keyed.id, challenge))),
      );
      const now = server.clock.now();
      const response = await push(keyed, {
        client_id: keyed.id,
        request: object,
        // Outside the object: ignored.
        scope: 'contacts:write',
        state: 'outside',
        ...assertionFields(await clientAssertion(keys, keyed.id, ISSUER, now)),
      });
      assert.equal(response.status, 201, await response.clone().text());
      const { request_uri } = (await response.json()) as { request_uri: string };
      const params = await obtainCode(new PageBrowser(server), byReference(keyed.id, request_uri));
      assert.equal(params.state, 'state-123');
      const token = await server.post(
        '/token',
        {
          grant_type: 'authorization_code',
          code: params.code as string,
          redirect_uri: CALLBACK,
          code_verifier: verifier,
          ...assertionFields(await clientAssertion(keys, keyed.id, ISSUER, now)),
        },
        { auth: 'none', as: keyed },
      );
      const body = (await token.json()) as { scope: string };
      assert.equal(body.scope, 'contacts:read');
    });

    it('a signed request object at /authorize: the object’s parameters win over the query’s (RFC 9101 §6.3)', async () => {
      const { challenge } = pkce();
      const object = await requestObject(
        Object.fromEntries(new URLSearchParams(authorizationQuery(keyed.id, challenge, { state: 'inside' }))),
      );
      const query = new URLSearchParams({ client_id: keyed.id, request: object, state: 'outside', scope: 'openid' });
      const params = await obtainCode(new PageBrowser(server), query.toString());
      assert.equal(params.state, 'inside');
      assert.ok(params.code);
    });

    it('a request object with a wrong aud, past exp, alg none or another key is refused with a page (RFC 9101 §6.2)', async () => {
      const { challenge } = pkce();
      const parameters = Object.fromEntries(new URLSearchParams(authorizationQuery(keyed.id, challenge)));
      const other = await clientKeyPair();
      const now = server.clock.now();
      const objects = [
        await requestObject({ ...parameters, aud: 'https://another.example' }),
        await requestObject({ ...parameters, exp: now - 60 }),
        await requestObject(parameters, other),
        unsecuredJwt({ ...parameters, iss: keyed.id, aud: ISSUER, exp: now + 300 }),
      ];
      for (const object of objects) {
        const page = await new PageBrowser(server).authorize(
          new URLSearchParams({ client_id: keyed.id, request: object }).toString(),
        );
        assert.equal(page.status, 400);
        assert.match(page.html, /problems\/invalid-request-object/);
        assert.equal(page.location, undefined);
      }
    });

    it('a request object of a client without keys is refused at /par with invalid_request_object', async () => {
      const { challenge } = pkce();
      const object = await requestObject(
        Object.fromEntries(new URLSearchParams(authorizationQuery(web.id, challenge))),
      );
      await assertOAuthError(await push(web, { request: object }), { error: 'invalid_request_object' });
    });
  });

describe('REQUIRE_PUSHED_AUTHORIZATION_REQUESTS: every client must push (RFC 9126 §5)', () => {
  let server: TestServer;
  let client: TestClient;

  before(async () => {
    server = await startTestServer({ requirePushedAuthorizationRequests: true });
    client = await server.addClient({ id: 'any', name: 'Any', redirectUris: [CALLBACK], scope: ['contacts:read'] });
  });
  after(async () => server?.close());

  it('the metadata says so, and a request not pushed is refused at the redirect URI', async () => {
    const metadata = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(metadata.require_pushed_authorization_requests, true);
    const page = await new PageBrowser(server).authorize(authorizationQuery(client.id, pkce().challenge));
    assert.equal(callbackParams(page.location).error, 'invalid_request');
  });
});
