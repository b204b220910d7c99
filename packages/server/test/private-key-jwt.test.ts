import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { assertionFields, clientAssertion, clientKeyPair, unsecuredJwt, type ClientKeyPair } from './_client-keys.js';
import { DIALECTS } from './_dialects.js';
import { assertOAuthError, ISSUER } from './_oauth-assertions.js';
import { basicAuthorization, startTestServer, type TestClient, type TestServer } from './_server.js';
import { startTlsServer, TEST_CA, type TlsServer } from './_tls.js';
import { safeJwksFetcher, type JwksFetchPolicy } from '../src/oauth/keys/jwks-fetcher.js';
import type { Resolver } from '../src/outbound/safe-fetch.js';

const CLIENT_CREDENTIALS = { grant_type: 'client_credentials', scope: 'contacts:read' };
const CLIENT_AUTHENTICATING = ['token', 'introspection', 'revocation', 'pushed_authorization_request'];

for (const dialect of DIALECTS)
  describe(`private_key_jwt client authentication (RFC 7523 §2.2, OIDC Core §9) [${dialect}]`, () => {
    let server: TestServer;
    let service: TestClient;
    let keys: ClientKeyPair;

    before(async () => {
      server = await startTestServer({ dialect });
      keys = await clientKeyPair();
      service = await server.addClient({
        id: 'service',
        name: 'Service',
        grantTypes: ['client_credentials'],
        jwks: keys.jwks,
      });
    });
    after(async () => server?.close());

    /** POST with the client authenticated by `assertion` alone (no Basic header). */
    function postAsserted(path: string, form: Record<string, string>, assertion: string): Promise<Response> {
      return server.post(path, { ...form, ...assertionFields(assertion) }, { auth: 'none', as: service });
    }

    const assertion = (claims: Record<string, unknown> = {}, audience = ISSUER): Promise<string> =>
      clientAssertion(keys, service.id, audience, server.clock.now(), claims);

    it('a client registered with keys gets no secret and is confidential', async () => {
      assert.equal(service.secret, null);
      const record = await server.context.store.findClient(service.id);
      assert.equal(record?.authMethod, 'private_key_jwt');
    });

    it('every client-authenticating endpoint lists private_key_jwt and asymmetric algorithms only in the metadata (RFC 8414 §2)', async () => {
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        string[]
      >;
      for (const stem of CLIENT_AUTHENTICATING) {
        assert.ok(metadata[`${stem}_endpoint_auth_methods_supported`]?.includes('private_key_jwt'), stem);
        const algs = metadata[`${stem}_endpoint_auth_signing_alg_values_supported`] ?? [];
        assert.ok(algs.includes('ES256') && algs.includes('PS256') && algs.includes('EdDSA'), stem);
        assert.ok(!algs.includes('none') && !algs.some((alg) => alg.startsWith('HS')), stem);
      }
    });

    it('an assertion with aud the issuer authenticates the client at /token (RFC 7523 §3 item 3)', async () => {
      const response = await postAsserted('/token', CLIENT_CREDENTIALS, await assertion());
      assert.equal(response.status, 200, await response.text());
    });

    it('aud the token endpoint URL is accepted too (RFC 7523 §3 item 3, OIDC Core §9)', async () => {
      const response = await postAsserted('/token', CLIENT_CREDENTIALS, await assertion({}, `${ISSUER}/token`));
      assert.equal(response.status, 200, await response.text());
    });

    it('aud the URL of the endpoint it is sent to is accepted there (RFC 9126 §2), and only there', async () => {
      const atIntrospection = await assertion({}, `${ISSUER}/introspect`);
      const introspected = await postAsserted('/introspect', { token: 'unknown' }, atIntrospection);
      assert.equal(introspected.status, 200, await introspected.text());
      await assertOAuthError(
        await postAsserted('/token', CLIENT_CREDENTIALS, await assertion({}, `${ISSUER}/introspect`)),
        { error: 'invalid_client' },
      );
    });

    it('a jti is used once (RFC 7523 §3 item 7): the same assertion again is invalid_client, again on retry', async () => {
      const once = await assertion();
      assert.equal((await postAsserted('/token', CLIENT_CREDENTIALS, once)).status, 200);
      for (let i = 0; i < 2; i++)
        await assertOAuthError(await postAsserted('/token', CLIENT_CREDENTIALS, once), {
          error: 'invalid_client',
          description: 'client authentication failed',
        });
    });

    it('one assertion sent 20 times at once authenticates exactly once', async () => {
      const once = await assertion();
      const statuses = (
        await Promise.all(Array.from({ length: 20 }, () => postAsserted('/token', CLIENT_CREDENTIALS, once)))
      ).map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 401).length, 19);
    });

    it('a wrong aud, a past exp, no exp, an exp too far ahead, another key, iss not the client: invalid_client (RFC 7523 §3)', async () => {
      const now = server.clock.now();
      const other = await clientKeyPair();
      const refused = [
        await assertion({}, 'https://another.example'),
        await assertion({ exp: now - 30 }),
        await assertion({ exp: undefined }),
        await assertion({ exp: now + 3600 }),
        await assertion({ nbf: now + 600 }),
        await assertion({ jti: undefined }),
        await assertion({ iss: 'someone-else' }),
        await clientAssertion(other, service.id, ISSUER, now),
      ];
      for (const jwt of refused)
        await assertOAuthError(await postAsserted('/token', CLIENT_CREDENTIALS, jwt), { error: 'invalid_client' });
    });

    it('alg none and HMAC are refused, whatever the claims (RFC 7523 §3 item 9, RFC 8725 §3.1)', async () => {
      const now = server.clock.now();
      const claims = { iss: service.id, sub: service.id, aud: ISSUER, jti: randomUUID(), exp: now + 60 };
      const none = unsecuredJwt(claims);
      const hmac = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('a shared secret the client does not have'));
      for (const jwt of [none, hmac])
        await assertOAuthError(await postAsserted('/token', CLIENT_CREDENTIALS, jwt), { error: 'invalid_client' });
    });

    it('a client of private_key_jwt cannot authenticate otherwise: no secret, not as a public client', async () => {
      await assertOAuthError(
        await server.post('/token', { ...CLIENT_CREDENTIALS, client_id: service.id }, { auth: 'none', as: service }),
        {
          error: 'invalid_client',
        },
      );
      await assertOAuthError(
        await server.post('/token', CLIENT_CREDENTIALS, {
          auth: 'none',
          headers: { authorization: basicAuthorization(service.id, 'guess') },
        }),
        { error: 'invalid_client' },
      );
    });

    it('a malformed assertion (wrong type, no JWT, client_id not its sub) is invalid_client (RFC 7521 §4.2)', async () => {
      const good = await assertion();
      const cases: Record<string, string>[] = [
        { ...assertionFields(good), client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer' },
        { ...assertionFields('not-a-jwt') },
        { ...assertionFields(good), client_id: 'another' },
        { client_assertion_type: assertionFields(good).client_assertion_type as string },
      ];
      for (const form of cases)
        await assertOAuthError(await server.post('/token', { ...CLIENT_CREDENTIALS, ...form }), {
          error: 'invalid_client',
          description:
            'client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer with one client_assertion JWT whose sub is the client_id',
        });
    });

    it('an assertion with a Basic header too is two methods at once (RFC 6749 §2.3)', async () => {
      const response = await server.post(
        '/token',
        { ...CLIENT_CREDENTIALS, ...assertionFields(await assertion()) },
        {
          auth: 'none',
          headers: { authorization: basicAuthorization(service.id, 'x') },
        },
      );
      await assertOAuthError(response, {
        error: 'invalid_request',
        description: 'client used more than one authentication method',
      });
    });

    it('the jti store stays bounded: an expired jti leaves (and a new assertion may reuse it)', async () => {
      const { store } = server.context;
      const now = server.clock.now();
      const jti = randomUUID();
      assert.equal(await store.useClientAssertionJti('service', jti, now + 10, now), true);
      assert.equal(await store.useClientAssertionJti('service', jti, now + 10, now + 5), false);
      // Any later use removes what expired before it.
      assert.equal(await store.useClientAssertionJti('service', randomUUID(), now + 100, now + 20), true);
      assert.equal(await store.useClientAssertionJti('service', jti, now + 100, now + 20), true);
    });
  });

describe('private_key_jwt with a jwks_uri, fetched by the SSRF-safe fetch and cached', () => {
  let keys: ClientKeyPair;
  let published: TlsServer;
  let fetches = 0;
  const loopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

  before(async () => {
    keys = await clientKeyPair('PS256');
    published = await startTlsServer((_request, response) => {
      fetches++;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(keys.jwks));
    });
  });
  after(async () => published?.close());

  async function serverWith(policy: JwksFetchPolicy): Promise<{ server: TestServer; client: TestClient }> {
    const server = await startTestServer({
      jwksFetcher: safeJwksFetcher({ ca: TEST_CA, resolve: loopback, ...policy }),
    });
    const client = await server.addClient({
      id: 'remote',
      name: 'Remote',
      grantTypes: ['client_credentials'],
      jwksUri: `${published.origin}/jwks.json`,
    });
    return { server, client };
  }

  async function tokenRequest(server: TestServer, client: TestClient): Promise<Response> {
    const assertion = await clientAssertion(keys, client.id, ISSUER, server.clock.now());
    return server.post(
      '/token',
      { ...CLIENT_CREDENTIALS, ...assertionFields(assertion) },
      { auth: 'none', as: client },
    );
  }

  it('the keys at the jwks_uri authenticate the client; the set is fetched once for many requests', async () => {
    const { server, client } = await serverWith({ allowAddresses: ['127.0.0.1/32'] });
    try {
      const before = fetches;
      for (let i = 0; i < 3; i++) assert.equal((await tokenRequest(server, client)).status, 200);
      assert.equal(fetches - before, 1);
    } finally {
      await server.close();
    }
  });

  it('a jwks_uri leading to a private address is never fetched unless allowed (JWKS_URI_ALLOW_ADDRESSES)', async () => {
    const { server, client } = await serverWith({});
    try {
      const before = fetches;
      await assertOAuthError(await tokenRequest(server, client), { error: 'invalid_client' });
      assert.equal(fetches, before);
    } finally {
      await server.close();
    }
  });

  it('a jwks_uri over http on loopback, accepted at registration (RFC 7591 §2, the one loopback rule), is fetched too once loopback is allowed', async () => {
    const plain = createServer((_request, response) => {
      fetches++;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(keys.jwks));
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const server = await startTestServer({ jwksFetcher: safeJwksFetcher({ allowAddresses: ['127.0.0.0/8'] }) });
    try {
      const client = await server.addClient({
        id: 'loopback',
        name: 'Loopback',
        grantTypes: ['client_credentials'],
        jwksUri: `http://127.0.0.1:${(plain.address() as AddressInfo).port}/jwks.json`,
      });
      const before = fetches;
      assert.equal((await tokenRequest(server, client)).status, 200);
      assert.equal(fetches - before, 1);
    } finally {
      await server.close();
      plain.closeAllConnections();
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});
