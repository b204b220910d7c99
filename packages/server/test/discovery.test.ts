import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { assertOkJson, ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';
import { DIALECTS } from './_dialects.js';

for (const dialect of DIALECTS)
  describe(`server metadata (RFC 8414) and access tokens (RFC 9068) [${dialect}]`, () => {
    let server: TestServer;
    let app: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      app = await server.addClient({ id: 'app' });
    });
    after(() => server.close());

    async function getJson(path: string): Promise<{ response: Response; body: Record<string, unknown> }> {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 200);
      return { response, body: (await response.json()) as Record<string, unknown> };
    }

    /** The verification options of RFC 9068 §4, at the server's (manual) time. */
    const verifyOptions = () => ({
      issuer: ISSUER,
      audience: ISSUER,
      typ: 'at+jwt',
      algorithms: ['ES256'],
      currentDate: new Date(server.clock.now() * 1000),
    });

    it('GET /.well-known/oauth-authorization-server names the issuer and every endpoint under it', async () => {
      const { response, body } = await getJson('/.well-known/oauth-authorization-server');
      assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/);
      assert.equal(body.issuer, 'http://gatehouse.test');
      assert.equal(body.token_endpoint, 'http://gatehouse.test/token');
      assert.equal(body.introspection_endpoint, 'http://gatehouse.test/introspect');
      assert.equal(body.revocation_endpoint, 'http://gatehouse.test/revoke');
      assert.equal(body.jwks_uri, 'http://gatehouse.test/jwks');
    });

    it('the metadata lists the supported grant types, PKCE S256 only, and the client authentication methods', async () => {
      const { body } = await getJson('/.well-known/oauth-authorization-server');
      assert.deepEqual([...(body.grant_types_supported as string[])].sort(), [
        'authorization_code',
        'client_credentials',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:device_code',
        'urn:ietf:params:oauth:grant-type:token-exchange',
      ]);
      assert.deepEqual(body.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(body.response_types_supported, ['code']);
      assert.deepEqual([...(body.token_endpoint_auth_methods_supported as string[])].sort(), [
        'client_secret_basic',
        'client_secret_post',
        'none',
        'private_key_jwt',
      ]);
    });

    it('every endpoint the metadata names answers on the server (not a 404)', async () => {
      const { body } = await getJson('/.well-known/oauth-authorization-server');
      for (const key of ['token_endpoint', 'introspection_endpoint', 'revocation_endpoint']) {
        const path = new URL(body[key] as string).pathname;
        const response = await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: '',
        });
        assert.ok(response.status === 400 || response.status === 401, `${key} ${path} answered ${response.status}`);
      }
      const jwks = await fetch(`${server.url}${new URL(body.jwks_uri as string).pathname}`);
      assert.equal(jwks.status, 200);
    });

    it('GET /jwks serves EC P-256 (ES256) and RSA (RS256) public keys, each with a kid, and no private parts', async () => {
      const { response, body } = await getJson('/jwks');
      assert.match(response.headers.get('content-type') ?? '', /^application\/jwk-set\+json\b/);
      const keys = body.keys as Array<Record<string, unknown>>;
      assert.ok(Array.isArray(keys) && keys.length >= 2);
      assert.deepEqual([...new Set(keys.map((k) => k.alg))].sort(), ['ES256', 'RS256']);
      for (const key of keys) {
        if (key.alg === 'ES256') {
          assert.equal(key.kty, 'EC');
          assert.equal(key.crv, 'P-256');
          assert.equal(typeof key.x, 'string');
          assert.equal(typeof key.y, 'string');
        } else {
          assert.equal(key.kty, 'RSA');
          assert.equal(typeof key.n, 'string');
          assert.ok(Buffer.from(key.n as string, 'base64url').length >= 256, 'RSA keys of 2048 bits at least');
          assert.equal(key.e, 'AQAB');
        }
        assert.equal(typeof key.kid, 'string');
        assert.ok((key.kid as string).length > 0);
        for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi'])
          assert.equal(secret in key, false, 'a JWKS must not carry the private key');
      }
    });

    it('GET /.well-known/openid-configuration has every required and recommended field and agrees with the RFC 8414 document', async () => {
      const { body: openid } = await getJson('/.well-known/openid-configuration');
      const { body: oauth } = await getJson('/.well-known/oauth-authorization-server');
      for (const [key, value] of Object.entries(oauth)) assert.deepEqual(openid[key], value, key);
      // OIDC Discovery 1.0 §3: required, then recommended.
      for (const key of [
        'issuer',
        'authorization_endpoint',
        'token_endpoint',
        'jwks_uri',
        'response_types_supported',
        'subject_types_supported',
        'id_token_signing_alg_values_supported',
        'userinfo_endpoint',
        'scopes_supported',
        'claims_supported',
        'end_session_endpoint',
      ])
        assert.ok(openid[key] !== undefined, `${key} is present`);
      assert.equal(openid.userinfo_endpoint, `${ISSUER}/userinfo`);
      assert.equal(openid.end_session_endpoint, `${ISSUER}/end-session`);
      assert.deepEqual(openid.id_token_signing_alg_values_supported, ['RS256', 'ES256']);
      assert.deepEqual(openid.subject_types_supported, ['public']);
      assert.ok((openid.scopes_supported as string[]).includes('openid'));
    });

    it('the OpenID Provider metadata lists the languages of the pages in ui_locales_supported and locale among the claims, and no claims_locales_supported: no claim is stored in several languages (OIDC Discovery 1.0 §3, OIDC Core §5.2)', async () => {
      const { body: openid } = await getJson('/.well-known/openid-configuration');
      const locales = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN', 'ar'];
      assert.deepEqual(openid.ui_locales_supported, locales);
      assert.equal(openid.claims_locales_supported, undefined);
      assert.ok((openid.claims_supported as string[]).includes('locale'));
    });

    it('an access token from /token verifies against the JWKS as an at+jwt signed with ES256, carrying every RFC 9068 claim and the grant id', async () => {
      const { refresh_token } = await server.issueGrant(app);
      const issuedAt = server.clock.now();
      const tokens = await assertOkJson(
        await server.post('/token', { grant_type: 'refresh_token', refresh_token }, { as: app }),
      );
      const accessToken = tokens.access_token as string;
      const jwks = (await getJson('/jwks')).body as unknown as JSONWebKeySet;
      const { payload, protectedHeader } = await jwtVerify(accessToken, createLocalJWKSet(jwks), verifyOptions());
      assert.equal(protectedHeader.typ, 'at+jwt');
      assert.equal(protectedHeader.alg, 'ES256');
      assert.ok(
        jwks.keys.some((k) => k.kid === protectedHeader.kid),
        'the header kid names a key of the JWKS',
      );
      for (const claim of ['iss', 'sub', 'aud', 'client_id', 'scope', 'jti', 'iat', 'exp', 'grant_id'])
        assert.ok(claim in payload, `claim ${claim}`);
      assert.equal(payload.iss, ISSUER);
      // RFC 9068 §2.2: the user's opaque subject, never the username.
      assert.equal(payload.sub, (await server.context.store.findUser('alice'))?.subject);
      assert.equal(payload.aud, ISSUER);
      assert.equal(payload.client_id, 'app');
      assert.equal(payload.scope, 'contacts:read');
      assert.equal(payload.iat, issuedAt);
      assert.equal(payload.exp, issuedAt + (tokens.expires_in as number));
      assert.equal(typeof payload.grant_id, 'string');
      assert.equal(typeof payload.jti, 'string');
    });

    it("an access token verifies with jose's remote JWKS fetched from the server's real URL", async () => {
      const { access_token } = await server.issueGrant(app);
      const { payload } = await jwtVerify(
        access_token,
        createRemoteJWKSet(new URL(`${server.url}/jwks`)),
        verifyOptions(),
      );
      assert.equal(payload.client_id, 'app');
    });

    it('every access token has its own jti, and a client_credentials token carries no grant_id', async () => {
      const one = await assertOkJson(await server.post('/token', { grant_type: 'client_credentials' }, { as: app }));
      const two = await assertOkJson(await server.post('/token', { grant_type: 'client_credentials' }, { as: app }));
      const jwks = createLocalJWKSet((await getJson('/jwks')).body as unknown as JSONWebKeySet);
      const a = (await jwtVerify(one.access_token as string, jwks, verifyOptions())).payload;
      const b = (await jwtVerify(two.access_token as string, jwks, verifyOptions())).payload;
      assert.notEqual(a.jti, b.jti);
      assert.equal(a.sub, 'app');
      assert.equal('grant_id' in a, false);
      assert.equal(decodeProtectedHeader(one.access_token as string).typ, 'at+jwt');
    });
  });
