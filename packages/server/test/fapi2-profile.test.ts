import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { runCli } from '../src/cli/run.js';
import { updateClient } from '../src/oauth/clients/client-administration.js';
import { digestOf } from '../src/primitives/secrets.js';
import { issueRegistrationToken } from '../src/oauth/clients/registration-tokens.js';
import { api, assertInvalidValue, assertProblem } from './_api.js';
import {
  addTestUser,
  authorizationQuery,
  CALLBACK,
  callbackParams,
  obtainCode,
  PageBrowser,
  pkce,
} from './_authorize.js';
import { assertionFields, clientAssertion, clientKeyPair, type ClientKeyPair } from './_client-keys.js';
import { DIALECTS } from './_dialects.js';
import { dpopKey, type DpopKey } from './_dpop.js';
import { assertOAuthError, ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

/** FAPI 2.0 Security Profile (final) §5.3, per client: `profile: fapi2`. */
for (const dialect of DIALECTS)
  describe(`FAPI 2.0 Security Profile per client (profile fapi2) [${dialect}]`, () => {
    let server: TestServer;
    /** The profile's client: keys (ES256, PS256, RS256), no secret, no refresh rotation. */
    let fapi: TestClient;
    /** The same keys, no profile: what the profile changes must not change for it. */
    let plain: TestClient;
    let es256: ClientKeyPair;
    let ps256: ClientKeyPair;
    let rs256: ClientKeyPair;
    let dpop: DpopKey;

    before(async () => {
      // Codes live 300 s on this server (AUTHORIZATION_CODE_TTL), so the profile's 60 s is its own rule.
      server = await startTestServer({ dialect, authorizationCodeTtl: 300, clientRegistration: 'token' });
      [es256, ps256, rs256] = await Promise.all([
        clientKeyPair('ES256'),
        clientKeyPair('PS256'),
        clientKeyPair('RS256'),
      ]);
      dpop = await dpopKey();
      const jwks = { keys: [...es256.jwks.keys, ...ps256.jwks.keys, ...rs256.jwks.keys] };
      const common = { redirectUris: [CALLBACK], scope: ['openid', 'contacts:read'], jwks };
      fapi = await server.addClient({ id: 'fapi', name: 'FAPI', ...common, profile: 'fapi2', rotation: false });
      plain = await server.addClient({ id: 'plain', name: 'Plain', ...common });
      await addTestUser(server);
    });
    after(async () => server?.close());

    const now = (): number => server.clock.now();
    const assertion = async (client: TestClient, keys = es256, claims: Record<string, unknown> = {}) =>
      assertionFields(await clientAssertion(keys, client.id, ISSUER, now(), claims));
    const proof = async () => ({ dpop: await dpop.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: now() }) });

    async function pushed(client: TestClient, challenge: string, keys = es256): Promise<string> {
      const form = Object.fromEntries(new URLSearchParams(authorizationQuery(client.id, challenge)));
      const response = await server.post('/par', { ...form, ...(await assertion(client, keys)) }, { as: client });
      const text = await response.text();
      assert.equal(response.status, 201, text);
      return (JSON.parse(text) as { request_uri: string }).request_uri;
    }

    /** A code obtained through PAR (RFC 9126), with its PKCE verifier. */
    async function code(client: TestClient): Promise<{ code: string; verifier: string; iss: string | undefined }> {
      const { verifier, challenge } = pkce();
      const requestUri = await pushed(client, challenge);
      const query = new URLSearchParams({ client_id: client.id, request_uri: requestUri }).toString();
      const params = await obtainCode(new PageBrowser(server), query);
      assert.ok(params.code, JSON.stringify(params));
      return { code: params.code, verifier, iss: params.iss };
    }

    const exchange = (client: TestClient, c: { code: string; verifier: string }, extra: Record<string, string>) => ({
      grant_type: 'authorization_code',
      code: c.code,
      redirect_uri: CALLBACK,
      code_verifier: c.verifier,
      ...extra,
    });

    it('a fapi2 client completes the code flow with PAR, private_key_jwt and DPoP; iss in the response (FAPI 2.0 §5.3.2.2, RFC 9207)', async () => {
      const c = await code(fapi);
      assert.equal(c.iss, ISSUER);
      const response = await server.post('/token', exchange(fapi, c, await assertion(fapi)), {
        as: fapi,
        auth: 'none',
        headers: await proof(),
      });
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.equal(body.token_type, 'DPoP');
      // Rotation off for this client (FAPI 2.0 §5.3.2.1 recommends it for sender-constrained clients).
      const refreshed = await server.post(
        '/token',
        { grant_type: 'refresh_token', refresh_token: body.refresh_token as string, ...(await assertion(fapi)) },
        { as: fapi, auth: 'none', headers: await proof() },
      );
      const again = (await refreshed.json()) as Record<string, unknown>;
      assert.equal(refreshed.status, 200, JSON.stringify(again));
      assert.equal(again.token_type, 'DPoP');
      assert.ok(again.refresh_token === undefined || again.refresh_token === body.refresh_token);
    });

    it('an authorization request not pushed is refused at the redirect URI, with iss (FAPI 2.0 §5.3.2.2, RFC 9126 §5)', async () => {
      const page = await new PageBrowser(server).authorize(authorizationQuery(fapi.id, pkce().challenge));
      assert.equal(page.status, 302);
      const params = callbackParams(page.location);
      assert.equal(params.error, 'invalid_request');
      assert.equal(
        params.error_description,
        'authorization requests of this client must be pushed to the pushed authorization request endpoint',
      );
      assert.equal(params.iss, ISSUER);
      // A client without the profile still may send its request to /authorize.
      const plainPage = await new PageBrowser(server).authorize(authorizationQuery(plain.id, pkce().challenge));
      assert.equal(plainPage.status, 200);
    });

    it('a client holding a secret cannot take profile fapi2: the compliance check refuses it (FAPI 2.0 §5.3.2.1, §5.4.1)', async () => {
      const web = await server.addClient({ id: 'fapi-web', name: 'Web', redirectUris: [CALLBACK], scope: ['openid'] });
      assert.ok(web.secret);
      const trail = server.context.audit;
      await assert.rejects(
        updateClient(trail, web.id, (c) => ({ ...c, jwks: es256.jwks, profile: 'fapi2' }), now(), { id: 'cli' }),
        /cannot have profile fapi2: it authenticates with a client secret/,
      );
      assert.equal((await server.context.store.findClient(web.id))?.profile, undefined);
    });

    it('client_secret authentication is refused for a fapi2 client even when its secret is right: invalid_client (FAPI 2.0 §5.4.1, §5.3.2.1)', async () => {
      // Registration never makes such a client (above); a row changed in the database can (and a
      // refetched client ID metadata document can make a keyless one: client-id-metadata.test.ts). The
      // profile, not a missing secret, is what refuses it: the same record without the profile
      // authenticates with that secret.
      const secret = 'a-secret-of-the-record';
      const stored = await server.context.store.findClient(plain.id);
      assert.ok(stored);
      const { authMethod: _keysOnly, ...keyed } = stored;
      const record = { ...keyed, secretDigest: digestOf(secret) };
      await server.context.store.insertClient({ ...record, id: 'fapi-held-secret', profile: 'fapi2' });
      await server.context.store.insertClient({ ...record, id: 'plain-held-secret' });
      const par = (id: string, auth: 'basic' | 'post') =>
        server.post('/par', Object.fromEntries(new URLSearchParams(authorizationQuery(id, pkce().challenge))), {
          as: { id, secret },
          auth,
        });
      for (const auth of ['basic', 'post'] as const) {
        const accepted = await par('plain-held-secret', auth);
        assert.equal(accepted.status, 201, await accepted.text());
        await assertOAuthError(await par('fapi-held-secret', auth), {
          error: 'invalid_client',
          description: 'client authentication failed',
        });
      }
      const failures = await server.context.store.listAuditEvents({ event: 'client_authentication_failed', limit: 10 });
      assert.ok(failures.some((e) => e.clientId === 'fapi-held-secret' && e.reason === 'method_not_allowed'));
    });

    it('a token request without a DPoP proof is refused (FAPI 2.0 §5.3.2.1, RFC 9449 §5.2)', async () => {
      const c = await code(fapi);
      await assertOAuthError(
        await server.post('/token', exchange(fapi, c, await assertion(fapi)), { as: fapi, auth: 'none' }),
        {
          error: 'invalid_dpop_proof',
          description: 'this client must send a DPoP proof (dpop_bound_access_tokens or profile fapi2)',
        },
      );
      // A client without the profile may still send no proof.
      const p = await code(plain);
      const response = await server.post('/token', exchange(plain, p, await assertion(plain)), {
        as: plain,
        auth: 'none',
      });
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.equal(body.token_type, 'Bearer');
    });

    it('an RS256-signed client assertion is refused; PS256 and ES256 are accepted (FAPI 2.0 §5.4.1)', async () => {
      const form = Object.fromEntries(new URLSearchParams(authorizationQuery(fapi.id, pkce().challenge)));
      await assertOAuthError(await server.post('/par', { ...form, ...(await assertion(fapi, rs256)) }, { as: fapi }), {
        error: 'invalid_client',
      });
      for (const keys of [ps256, es256]) {
        const response = await server.post('/par', { ...form, ...(await assertion(fapi, keys)) }, { as: fapi });
        assert.equal(response.status, 201, `${keys.alg}: ${await response.text()}`);
      }
      // Without the profile, RS256 stays accepted.
      const plainForm = Object.fromEntries(new URLSearchParams(authorizationQuery(plain.id, pkce().challenge)));
      const response = await server.post('/par', { ...plainForm, ...(await assertion(plain, rs256)) }, { as: plain });
      assert.equal(response.status, 201, await response.text());
    });

    it('an RS256-signed request object is refused (FAPI 2.0 §5.4.1, RFC 9101 §6.2)', async () => {
      const parameters = Object.fromEntries(new URLSearchParams(authorizationQuery(fapi.id, pkce().challenge)));
      const object = await new SignJWT({ ...parameters, iss: fapi.id, aud: ISSUER, iat: now(), exp: now() + 60 })
        .setProtectedHeader({ alg: rs256.alg, kid: rs256.kid })
        .sign(rs256.privateKey);
      await assertOAuthError(await server.post('/par', { request: object, ...(await assertion(fapi)) }, { as: fapi }), {
        error: 'invalid_request_object',
      });
    });

    it("an authorization code older than 60 s is refused, on a server whose codes live 300 s; a plain client's is accepted (FAPI 2.0 §5.3.2.2)", async () => {
      const [c, p] = [await code(fapi), await code(plain)];
      server.clock.advance(61);
      await assertOAuthError(
        await server.post('/token', exchange(fapi, c, await assertion(fapi)), {
          as: fapi,
          auth: 'none',
          headers: await proof(),
        }),
        { error: 'invalid_grant', description: 'authorization code has expired' },
      );
      const accepted = await server.post('/token', exchange(plain, p, await assertion(plain)), {
        as: plain,
        auth: 'none',
      });
      assert.equal(accepted.status, 200, await accepted.text());
    });

    it('clock skew: iat and nbf up to 10 s ahead accepted, iat more than 60 s ahead refused (FAPI 2.0 §5.3.2.1)', async () => {
      const form = Object.fromEntries(new URLSearchParams(authorizationQuery(fapi.id, pkce().challenge)));
      const ahead = { iat: now() + 9, nbf: now() + 9, exp: now() + 120 };
      const accepted = await server.post('/par', { ...form, ...(await assertion(fapi, es256, ahead)) }, { as: fapi });
      assert.equal(accepted.status, 201, await accepted.text());
      const far = { iat: now() + 90, exp: now() + 180 };
      await assertOAuthError(
        await server.post('/par', { ...form, ...(await assertion(fapi, es256, far)) }, { as: fapi }),
        {
          error: 'invalid_client',
        },
      );
      // Without the profile, the leeway stays 5 s: nbf 9 s ahead is refused.
      const plainForm = Object.fromEntries(new URLSearchParams(authorizationQuery(plain.id, pkce().challenge)));
      await assertOAuthError(
        await server.post('/par', { ...plainForm, ...(await assertion(plain, es256, ahead)) }, { as: plain }),
        { error: 'invalid_client' },
      );
    });

    it('a fapi2 client that cannot comply is refused at registration with an operator error', async () => {
      await assert.rejects(
        server.addClient({ id: 'fapi-secret', profile: 'fapi2' }),
        /cannot have profile fapi2: it has no keys/,
      );
      await assert.rejects(
        server.addClient({ id: 'fapi-public', profile: 'fapi2', public: true }),
        /cannot have profile fapi2: it is public/,
      );
      await assert.rejects(server.addClient({ id: 'fapi-x', profile: 'fapi3' }), /unknown client profile 'fapi3'/);
    });

    /** POST /register (RFC 7591 §3.1) with an initial access token; PUT or GET /register/{id} (RFC 7592) with `rat`. */
    async function registration(body?: unknown, at?: { uri: string; rat: string }): Promise<Response> {
      const token =
        at?.rat ??
        (await issueRegistrationToken(server.context.store, { ttl: 600, uses: 1, now: now() })).initial_access_token;
      return fetch(at === undefined ? `${server.url}/register` : at.uri.replace(ISSUER, server.url), {
        method: at === undefined ? 'POST' : body === undefined ? 'GET' : 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    }

    it('dynamic registration takes profile fapi2 under the same compliance check, and the client is held to the profile (RFC 7591 §2, §3.2.2; FAPI 2.0 §5.3.2.1, §5.3.2.2)', async () => {
      const metadata = {
        client_name: 'Registered bank app',
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: es256.jwks,
        scope: 'openid contacts:read',
      };
      await assertOAuthError(
        await registration({ ...metadata, token_endpoint_auth_method: 'client_secret_basic', profile: 'fapi2' }),
        {
          error: 'invalid_client_metadata',
          description: 'profile fapi2 needs token_endpoint_auth_method private_key_jwt, never a client secret',
        },
      );
      const response = await registration({ ...metadata, profile: 'fapi2' });
      const info = (await response.json()) as Record<string, string>;
      assert.equal(response.status, 201, JSON.stringify(info));
      assert.equal(info.profile, 'fapi2');
      const registered: TestClient = { id: info.client_id as string, secret: null };
      // Held to it: an authorization request not pushed is refused (FAPI 2.0 §5.3.2.2); a pushed one is taken.
      const page = await new PageBrowser(server).authorize(authorizationQuery(registered.id, pkce().challenge));
      assert.equal(callbackParams(page.location).error, 'invalid_request');
      await pushed(registered, pkce().challenge);
    });

    it('a dynamically registered client an operator gave profile fapi2 keeps it through its own RFC 7592 update, which shows it', async () => {
      const metadata = {
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: es256.jwks,
        scope: 'openid',
      };
      const info = (await (await registration(metadata)).json()) as Record<string, string>;
      assert.equal(info.profile, 'none');
      const at = { uri: info.registration_client_uri as string, rat: info.registration_access_token as string };
      await updateClient(server.context.audit, info.client_id as string, (c) => ({ ...c, profile: 'fapi2' }), now(), {
        id: 'cli',
      });
      assert.equal(((await (await registration(undefined, at)).json()) as Record<string, string>).profile, 'fapi2');
      const updated = await registration({ ...metadata, client_id: info.client_id, client_name: 'Renamed' }, at);
      assert.equal(updated.status, 200, await updated.clone().text());
      assert.equal(((await updated.json()) as Record<string, string>).profile, 'fapi2');
      assert.equal((await server.context.store.findClient(info.client_id as string))?.profile, 'fapi2');
    });

    /** Runs the CLI on the server's database. */
    async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(
        argv,
        { DATABASE_URL: server.databaseUrl, ISSUER },
        {
          out: (t) => out.push(t),
          err: (t) => err.push(t),
        },
      );
      return { code, out: out.join('\n'), err: err.join('\n') };
    }

    it('the CLI sets and shows the profile (clients add/update --profile, clients show); a client that cannot comply is refused', async () => {
      const refused = await cli(
        'clients',
        'add',
        '--id',
        'cli-secret',
        '--name',
        'x',
        '--scope',
        'openid',
        '--profile',
        'fapi2',
      );
      assert.notEqual(refused.code, 0);
      assert.match(refused.err, /cannot have profile fapi2: it has no keys/);
      const added = await cli(
        'clients',
        'add',
        '--id',
        'cli-fapi',
        '--name',
        'x',
        '--scope',
        'openid',
        '--redirect-uri',
        CALLBACK,
        '--jwks',
        JSON.stringify(es256.jwks),
        '--profile',
        'fapi2',
        '--no-rotation',
      );
      assert.equal(added.code, 0, added.err);
      const record = JSON.parse(added.out) as Record<string, unknown>;
      assert.equal(record.profile, 'fapi2');
      assert.equal(record.rotation, false);
      assert.equal(record.token_endpoint_auth_method, 'private_key_jwt');
      const shown = await cli('clients', 'show', 'cli-fapi');
      assert.equal((JSON.parse(shown.out) as Record<string, unknown>).profile, 'fapi2');
      const updated = await cli('clients', 'update', 'cli-fapi', '--profile', 'none');
      assert.equal(updated.code, 0, updated.err);
      assert.equal(
        (JSON.parse((await cli('clients', 'show', 'cli-fapi')).out) as Record<string, unknown>).profile,
        'none',
      );
      // A client with a secret cannot take the profile, even with keys.
      assert.equal((await cli('clients', 'add', '--id', 'cli-web', '--name', 'x', '--scope', 'openid')).code, 0);
      const withSecret = await cli(
        'clients',
        'update',
        'cli-web',
        '--jwks',
        JSON.stringify(es256.jwks),
        '--profile',
        'fapi2',
      );
      assert.notEqual(withSecret.code, 0);
      assert.match(withSecret.err, /it authenticates with a client secret/);
    });

    it('the admin API takes and answers profile; a fapi2 client that cannot comply is 422 invalid-operator-input', async () => {
      const ops = await cli('clients', 'add', '--id', 'fapi-ops', '--name', 'ops', '--admin');
      assert.equal(ops.code, 0, ops.err);
      const secret = (JSON.parse(ops.out) as { client_secret: string }).client_secret;
      const token = await server.post(
        '/token',
        { grant_type: 'client_credentials' },
        { as: { id: 'fapi-ops', secret } },
      );
      const admin = api(server, ((await token.json()) as { access_token: string }).access_token);
      const base = { name: 'x', scope: 'openid', redirect_uris: [CALLBACK] };
      assertProblem(
        await admin.post('/admin/v1/clients', { client_id: 'api-secret', ...base, profile: 'fapi2' }),
        422,
        'invalid-operator-input',
      );
      assertInvalidValue(
        await admin.post('/admin/v1/clients', { client_id: 'api-x', ...base, profile: 'fapi3' }),
        'profile',
      );
      const created = await admin.post('/admin/v1/clients', {
        client_id: 'api-fapi',
        ...base,
        jwks: es256.jwks,
        profile: 'fapi2',
        rotation: false,
      });
      assert.equal(created.status, 201, created.text);
      assert.equal((created.body as Record<string, unknown>).profile, 'fapi2');
      const read = await admin.get('/admin/v1/clients/api-fapi');
      assert.equal((read.body as Record<string, unknown>).profile, 'fapi2');
      assert.equal((read.body as Record<string, unknown>).rotation, false);
      const other = await admin.post('/admin/v1/clients', { client_id: 'api-plain', ...base });
      assert.equal((other.body as Record<string, unknown>).profile, 'none');
    });
  });
