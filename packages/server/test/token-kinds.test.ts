/**
 * Every kind of access token Gatehouse issues is known alike to introspection (RFC 7662), revocation
 * (RFC 7009) and userinfo, whatever its grant, its audience or its binding: an authorization code's,
 * one restricted to a resource (RFC 8707), client credentials, the device grant (RFC 8628), DPoP-bound
 * ones (RFC 9449), and token exchange's (RFC 8693), for this server or for an audience of the client's
 * policy. While live, introspection answers it active for its client and for resource servers, says to
 * whom (`aud`, RFC 7662 §2.2), who acts (`act`, RFC 8693 §4.1) and to what key it is bound (`cnf`,
 * RFC 9449 §6.2); once ended it is exactly `{"active":false}`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { digestOf } from '../src/primitives/secrets.js';
import { DIALECTS } from './_dialects.js';
import { dpopKey } from './_dpop.js';
import { assertOAuthError, assertOkJson, ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
const REFRESH_TOKEN = 'urn:ietf:params:oauth:token-type:refresh_token';
const BILLING = 'https://billing.example';
const API = `${ISSUER}/v2`;
const SCOPE = ['openid', 'contacts:read'];

/** A token of one kind, who holds it, and what introspection must say of it besides the common members. */
interface Kind {
  readonly token: string;
  readonly client: TestClient;
  readonly expected: Readonly<Record<string, unknown>>;
  /** Whether userinfo serves it: a user's token, with openid, for this server itself. */
  readonly userinfo: boolean;
}

for (const dialect of DIALECTS)
  describe(`introspection, revocation and userinfo know every token Gatehouse issues [${dialect}]`, () => {
    let server: TestServer;
    let app: TestClient;
    let agent: TestClient;
    let other: TestClient;
    let billingApi: TestClient;
    const kinds = new Map<string, () => Promise<Kind>>();

    before(async () => {
      server = await startTestServer({ dialect });
      app = await server.addClient({
        id: 'app',
        scope: SCOPE,
        grantTypes: ['authorization_code', 'refresh_token', 'client_credentials', DEVICE],
      });
      // The README's agent: exchanges users' tokens for https://billing.example, with refresh tokens.
      agent = await server.addClient({
        id: 'agent',
        scope: SCOPE,
        grantTypes: [EXCHANGE, 'refresh_token'],
        exchangeAudiences: [BILLING],
        exchangeSubjectAudiences: [ISSUER],
        exchangeRefreshTokens: true,
      });
      other = await server.addClient({ id: 'other' });
      // The resource server of https://billing.example.
      billingApi = await server.addClient({ id: 'billing-api', resourceServer: true });
    });
    after(() => server.close());

    const subjectOf = async (username: string) => (await server.context.store.findUser(username))?.subject;
    const token = (as: TestClient, form: Record<string, string>, headers: Record<string, string> = {}) =>
      server.post('/token', form, { as, headers }).then(assertOkJson);
    const exchange = (form: Record<string, string>) =>
      token(agent, { grant_type: EXCHANGE, subject_token_type: ACCESS_TOKEN, ...form });
    const introspect = (value: string, as: TestClient) =>
      server.post('/introspect', { token: value }, { as }).then(assertOkJson);

    kinds.set('an authorization code grant', async () => {
      const issued = await server.issueGrant(app, 'alice', SCOPE);
      const sub = await subjectOf('alice');
      return { token: issued.access_token, client: app, expected: { sub, aud: ISSUER }, userinfo: true };
    });
    kinds.set('a refresh restricted to a resource (RFC 8707)', async () => {
      const issued = await server.issueGrant(app, 'alice', SCOPE);
      const refreshed = await token(app, {
        grant_type: 'refresh_token',
        refresh_token: issued.refresh_token,
        resource: API,
      });
      const expected = { sub: await subjectOf('alice'), aud: API };
      return { token: String(refreshed.access_token), client: app, expected, userinfo: false };
    });
    kinds.set('client credentials (RFC 6749 §4.4)', async () => {
      const issued = await token(app, { grant_type: 'client_credentials', scope: 'contacts:read' });
      const expected = { sub: 'app', aud: ISSUER, scope: 'contacts:read' };
      return { token: String(issued.access_token), client: app, expected, userinfo: false };
    });
    kinds.set('the device grant (RFC 8628)', async () => {
      const started = await server.post('/device_authorization', { scope: SCOPE.join(' ') }, { as: app });
      const { device_code } = (await assertOkJson(started)) as { device_code: string };
      const sub = (await subjectOf('alice')) ?? assert.fail('alice');
      const now = server.clock.now();
      const approval = { status: 'approved', subject: sub, authTime: now, amr: ['pwd'] } as const;
      assert.ok(await server.context.store.decideDeviceAuthorization(digestOf(device_code), approval, now));
      const issued = await token(app, { grant_type: DEVICE, device_code });
      return { token: String(issued.access_token), client: app, expected: { sub, aud: ISSUER }, userinfo: true };
    });
    kinds.set('a DPoP-bound client credentials token (RFC 9449)', async () => {
      const key = await dpopKey();
      const proof = await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: server.clock.now() });
      const issued = await token(app, { grant_type: 'client_credentials', scope: 'contacts:read' }, { dpop: proof });
      const expected = { sub: 'app', aud: ISSUER, scope: 'contacts:read', token_type: 'DPoP', cnf: { jkt: key.jkt } };
      return { token: String(issued.access_token), client: app, expected, userinfo: false };
    });
    kinds.set('token exchange for this server (RFC 8693)', async () => {
      const user = await server.issueGrant(app, 'alice', SCOPE);
      const issued = await exchange({ subject_token: user.access_token });
      const act = { sub: 'agent', client_id: 'agent' };
      const expected = { sub: await subjectOf('alice'), aud: ISSUER, act };
      return { token: String(issued.access_token), client: agent, expected, userinfo: true };
    });
    kinds.set(
      "token exchange for an audience of the client's policy (the README's https://billing.example)",
      async () => {
        const user = await server.issueGrant(app, 'alice', SCOPE);
        const issued = await exchange({ subject_token: user.access_token, audience: BILLING });
        const act = { sub: 'agent', client_id: 'agent' };
        const expected = { sub: await subjectOf('alice'), aud: BILLING, act };
        return { token: String(issued.access_token), client: agent, expected, userinfo: false };
      },
    );
    kinds.set('the refresh of a token exchange grant for a policy audience', async () => {
      const user = await server.issueGrant(app, 'alice', SCOPE);
      const child = await exchange({
        subject_token: user.access_token,
        audience: BILLING,
        requested_token_type: REFRESH_TOKEN,
      });
      const refreshed = await token(agent, { grant_type: 'refresh_token', refresh_token: String(child.refresh_token) });
      const act = { sub: 'agent', client_id: 'agent' };
      const expected = { sub: await subjectOf('alice'), aud: BILLING, act };
      return { token: String(refreshed.access_token), client: agent, expected, userinfo: false };
    });

    for (const [name, make] of kinds) {
      it(`${name}: introspected active, with aud, by its client and by a resource server; inactive for another client (RFC 7662 §2.2)`, async () => {
        const kind = await make();
        const claims = decodeJwt(kind.token);
        const body = await introspect(kind.token, kind.client);
        assert.deepEqual(body, {
          active: true,
          token_type: 'Bearer',
          client_id: kind.client.id,
          scope: SCOPE.join(' '),
          exp: claims.exp,
          iat: claims.iat,
          iss: ISSUER,
          ...kind.expected,
        });
        assert.deepEqual(await introspect(kind.token, billingApi), body);
        assert.deepEqual(await introspect(kind.token, other), { active: false });
      });

      it(`${name}: revocation answers as for every access token (RFC 7009 §2.2 unsupported_token_type)`, async () => {
        const kind = await make();
        await assertOAuthError(await server.post('/revoke', { token: kind.token }, { as: kind.client }), {
          error: 'unsupported_token_type',
          description: 'access tokens cannot be revoked; revoke the refresh token',
        });
      });

      it(`${name}: userinfo serves it only when it is a user's, with openid, for this server (OIDC Core §5.3.3)`, async () => {
        const kind = await make();
        const response = await fetch(`${server.url}/userinfo`, { headers: { authorization: `Bearer ${kind.token}` } });
        const body = (await response.json()) as Record<string, unknown>;
        if (kind.userinfo) {
          assert.equal(response.status, 200, JSON.stringify(body));
          assert.equal(body.sub, kind.expected.sub);
        } else {
          // RFC 6750 §3.1: no user, another audience, or a bound token sent as a bearer one (RFC 9449 §7.2).
          assert.equal(response.status, 401, JSON.stringify(body));
          assert.equal(body.error, 'invalid_token');
        }
      });
    }

    it("a token exchanged for a policy audience reads inactive, exactly, once its subject token's grant is revoked and once it expires", async () => {
      const user = await server.issueGrant(app, 'alice', SCOPE);
      const revoked = String((await exchange({ subject_token: user.access_token, audience: BILLING })).access_token);
      const expiring = await server.issueGrant(app, 'alice', SCOPE);
      const expired = String(
        (await exchange({ subject_token: expiring.access_token, audience: BILLING })).access_token,
      );
      assert.equal((await introspect(revoked, billingApi)).active, true);
      assert.equal((await server.post('/revoke', { token: user.refresh_token }, { as: app })).status, 200);
      for (const as of [agent, billingApi]) assert.deepEqual(await introspect(revoked, as), { active: false });
      server.clock.advance(3600);
      for (const as of [agent, billingApi]) assert.deepEqual(await introspect(expired, as), { active: false });
    });

    it("a token for another service, once introspected, is still refused by this server's own resources (RFC 9068 §4)", async () => {
      const user = await server.issueGrant(app, 'alice', SCOPE);
      const exchanged = await exchange({ subject_token: user.access_token, audience: BILLING });
      const bearer = { authorization: `Bearer ${String(exchanged.access_token)}` };
      assert.equal((await introspect(String(exchanged.access_token), billingApi)).active, true);
      for (const path of ['/v2/contacts', '/userinfo']) {
        const response = await fetch(`${server.url}${path}`, { headers: bearer });
        assert.equal(response.status, 401, path);
        assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token"/, path);
      }
    });

    it("an exchanged refresh token's introspection shows its act (RFC 8693 §4.1)", async () => {
      const user = await server.issueGrant(app, 'alice', SCOPE);
      const child = await exchange({
        subject_token: user.access_token,
        audience: BILLING,
        requested_token_type: REFRESH_TOKEN,
      });
      const body = await introspect(String(child.refresh_token), agent);
      assert.equal(body.token_type, 'refresh_token');
      assert.deepEqual(body.act, { sub: 'agent', client_id: 'agent' });
    });
  });
