/**
 * RFC 8693 token exchange against a listening server, on both dialects: delegation (`act`), a chain
 * of two actors, down-scoping, targets, refusals that repeat identically, may_act, impersonation by
 * policy only, a trusted issuer's JWT as the subject, introspection and the audit trail.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWK } from 'jose';
import { assertOAuthError, assertOkJson, ISSUER } from './_oauth-assertions.js';
import { startTestServer, type IssuedTokens, type TestClient, type TestServer } from './_server.js';
import { DIALECTS } from './_dialects.js';

const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
const JWT = 'urn:ietf:params:oauth:token-type:jwt';
const REFRESH_TOKEN = 'urn:ietf:params:oauth:token-type:refresh_token';
const IDP = 'https://idp.example';
const BILLING = 'https://billing.example';
const LEDGER = 'https://ledger.example';

const { privateKey: idpKey, publicKey: idpPublic } = await generateKeyPair('ES256');
const idpJwk: JWK = { ...(await exportJWK(idpPublic)), kid: 'idp-1', alg: 'ES256' };
const { privateKey: strangerKey } = await generateKeyPair('ES256');

for (const dialect of DIALECTS)
  describe(`token exchange, RFC 8693 [${dialect}]`, () => {
    let server: TestServer;
    let spa: TestClient;
    let orders: TestClient;
    let billing: TestClient;
    let impersonator: TestClient;
    let agent: TestClient;
    let unlicensed: TestClient;
    let alice: IssuedTokens;

    before(async () => {
      server = await startTestServer({
        dialect,
        trustedIssuers: [{ issuer: IDP, jwks: { keys: [idpJwk] }, userClaim: 'preferred_username' }],
      });
      spa = await server.addClient({ id: 'spa' });
      // The orders API receives users' tokens for the whole Gatehouse API and calls billing for them.
      orders = await server.addClient({
        id: 'orders',
        grantTypes: [GRANT, 'client_credentials'],
        exchangeAudiences: [BILLING],
        exchangeSubjectAudiences: [ISSUER],
      });
      billing = await server.addClient({
        id: 'billing',
        grantTypes: [GRANT, 'client_credentials'],
        exchangeAudiences: [LEDGER],
        exchangeSubjectAudiences: [BILLING],
      });
      impersonator = await server.addClient({
        id: 'impersonator',
        grantTypes: [GRANT],
        exchangeSubjectAudiences: [ISSUER],
        exchangeImpersonation: true,
      });
      // May ask for refresh tokens by exchange (policy `refreshTokens`); `unlicensed` may not.
      agent = await server.addClient({
        id: 'agent',
        grantTypes: [GRANT, 'refresh_token', 'client_credentials'],
        exchangeAudiences: [BILLING],
        exchangeSubjectAudiences: [ISSUER],
        exchangeRefreshTokens: true,
      });
      unlicensed = await server.addClient({
        id: 'unlicensed',
        grantTypes: [GRANT, 'refresh_token'],
        exchangeSubjectAudiences: [ISSUER],
      });
      alice = await server.issueGrant(spa, 'alice', ['contacts:read', 'contacts:write']);
    });
    after(() => server.close());

    const exchange = (client: TestClient, form: Record<string, string>): Promise<Response> =>
      server.post('/token', { grant_type: GRANT, subject_token_type: ACCESS_TOKEN, ...form }, { as: client });
    const claimsOf = (token: unknown): Record<string, unknown> => decodeJwt(String(token));

    it('§2.1, §4.1: delegation issues a token for the target audience whose act names the client, sub the user', async () => {
      const body = await assertOkJson(await exchange(orders, { subject_token: alice.access_token, audience: BILLING }));
      assert.equal(body.issued_token_type, ACCESS_TOKEN);
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.refresh_token, undefined);
      assert.equal(body.scope, 'contacts:read contacts:write');
      const claims = claimsOf(body.access_token);
      const subject = claimsOf(alice.access_token);
      assert.equal(claims.sub, subject.sub);
      assert.equal(claims.aud, BILLING);
      assert.equal(claims.client_id, 'orders');
      assert.deepEqual(claims.act, { sub: 'orders', client_id: 'orders' });
      assert.equal(claims.grant_id, alice.grant_id);
      assert.ok((claims.exp as number) <= (subject.exp as number), 'never outlives the subject token');
    });

    it('§4.1: a chain of two nests the earlier actor inside the current one', async () => {
      const first = await assertOkJson(
        await exchange(orders, { subject_token: alice.access_token, audience: BILLING }),
      );
      const own = await assertOkJson(
        await server.post('/token', { grant_type: 'client_credentials', scope: 'contacts:read' }, { as: billing }),
      );
      const second = await assertOkJson(
        await exchange(billing, {
          subject_token: String(first.access_token),
          actor_token: String(own.access_token),
          actor_token_type: ACCESS_TOKEN,
          resource: LEDGER,
          scope: 'contacts:read',
        }),
      );
      const claims = claimsOf(second.access_token);
      assert.equal(claims.aud, LEDGER);
      assert.equal(claims.sub, claimsOf(alice.access_token).sub);
      assert.deepEqual(claims.act, {
        sub: 'billing',
        client_id: 'billing',
        act: { sub: 'orders', client_id: 'orders' },
      });
      assert.equal(second.scope, 'contacts:read');
    });

    it('down-scoping: a narrower scope is granted; a wider one is invalid_scope', async () => {
      const narrow = await assertOkJson(
        await exchange(orders, { subject_token: alice.access_token, audience: BILLING, scope: 'contacts:read' }),
      );
      assert.equal(claimsOf(narrow.access_token).scope, 'contacts:read');
      const readOnly = await server.issueGrant(spa, 'alice', ['contacts:read']);
      await assertOAuthError(
        await exchange(orders, { subject_token: readOnly.access_token, audience: BILLING, scope: 'contacts:write' }),
        {
          error: 'invalid_scope',
          description: "requested scope exceeds the subject token's scope or the scope this client may request",
        },
      );
    });

    it('§2.2.2 invalid_target: an audience the policy does not list, and resource and audience that differ', async () => {
      await assertOAuthError(
        await exchange(orders, { subject_token: alice.access_token, audience: 'https://unknown.example' }),
        { error: 'invalid_target' },
      );
      await assertOAuthError(
        await exchange(orders, { subject_token: alice.access_token, audience: BILLING, resource: LEDGER }),
        {
          error: 'invalid_target',
          description: 'resource and audience name different targets: one target per token exchange',
        },
      );
    });

    it("this server's own API is always a target: the token works at /v2 as the user's, act and all", async () => {
      const body = await assertOkJson(
        await exchange(orders, { subject_token: alice.access_token, scope: 'contacts:write contacts:read' }),
      );
      assert.equal(claimsOf(body.access_token).aud, ISSUER);
      const created = await fetch(`${server.url}/v2/contacts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${String(body.access_token)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.com', name: 'Ada' }),
      });
      assert.equal(created.status, 201);
      const list = await fetch(`${server.url}/v2/contacts`, {
        headers: { authorization: `Bearer ${alice.access_token}` },
      });
      const page = (await list.json()) as { items: { email: string }[] };
      assert.ok(
        page.items.some((c) => c.email === 'ada@example.com'),
        "the record is alice's",
      );
    });

    it('§2.2.2: a token issued neither to the client nor for an audience it serves is refused', async () => {
      await assertOAuthError(await exchange(billing, { subject_token: alice.access_token, audience: LEDGER }), {
        error: 'invalid_request',
        description:
          'this client may not exchange this subject token: it was issued neither to this client nor for an audience its token exchange policy names',
      });
    });

    it('§2.2.2: a revoked subject token is refused, identically on retry, and the tokens exchanged from it die with it', async () => {
      const victim = await server.issueGrant(spa, 'alice', ['contacts:read']);
      const exchanged = await assertOkJson(await exchange(orders, { subject_token: victim.access_token }));
      const revoked = await server.post('/revoke', { token: victim.refresh_token }, { as: spa });
      assert.equal(revoked.status, 200);
      const first = await exchange(orders, { subject_token: victim.access_token });
      const again = await exchange(orders, { subject_token: victim.access_token });
      const a = await assertOAuthError(first, { error: 'invalid_request' });
      const b = await assertOAuthError(again, { error: 'invalid_request' });
      assert.deepEqual(a, b);
      assert.match(String(a.error_description), /^subject_token is not an active token/);
      const introspected = await assertOkJson(
        await server.post('/introspect', { token: String(exchanged.access_token) }, { as: orders }),
      );
      assert.deepEqual(introspected, { active: false });
    });

    it('§1.1: without an actor token, only a client whose policy allows it impersonates (no act)', async () => {
      const delegated = await assertOkJson(await exchange(orders, { subject_token: alice.access_token }));
      assert.ok(claimsOf(delegated.access_token).act !== undefined);
      const impersonated = await assertOkJson(await exchange(impersonator, { subject_token: alice.access_token }));
      const claims = claimsOf(impersonated.access_token);
      assert.equal(claims.act, undefined);
      assert.equal(claims.sub, claimsOf(alice.access_token).sub);
    });

    it("§2.1: a trusted issuer's JWT names a local user by its claim; the token's sub is this server's subject", async () => {
      const jwt = await idpToken({ preferred_username: 'alice', aud: 'orders', scope: 'contacts:read' });
      const body = await assertOkJson(
        await exchange(orders, { subject_token: jwt, subject_token_type: JWT, audience: BILLING }),
      );
      const claims = claimsOf(body.access_token);
      assert.equal(claims.sub, claimsOf(alice.access_token).sub);
      assert.equal(claims.grant_id, undefined);
      assert.equal(body.scope, 'contacts:read');
    });

    it("§2.2.2: an untrusted issuer's JWT, and a trusted one naming no user, are refused", async () => {
      const stranger = await new SignJWT({ preferred_username: 'alice', scope: 'contacts:read', aud: 'orders' })
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer(IDP)
        .setSubject('x')
        .setIssuedAt(server.clock.now())
        .setExpirationTime(server.clock.now() + 300)
        .sign(strangerKey);
      await assertOAuthError(await exchange(orders, { subject_token: stranger, subject_token_type: JWT }), {
        error: 'invalid_request',
      });
      const nobody = await idpToken({ preferred_username: 'nobody', aud: 'orders', scope: 'contacts:read' });
      await assertOAuthError(await exchange(orders, { subject_token: nobody, subject_token_type: JWT }), {
        error: 'invalid_request',
        description: "the trusted issuer's token names no enabled user of this server",
      });
    });

    it('§4.4 may_act: only the named party may act for the subject', async () => {
      const forOrders = await idpToken({
        preferred_username: 'alice',
        aud: 'orders',
        scope: 'contacts:read',
        may_act: { sub: 'orders' },
      });
      await assertOkJson(await exchange(orders, { subject_token: forOrders, subject_token_type: JWT }));
      const forOther = await idpToken({
        preferred_username: 'alice',
        aud: 'orders',
        scope: 'contacts:read',
        may_act: { sub: 'someone-else' },
      });
      await assertOAuthError(await exchange(orders, { subject_token: forOther, subject_token_type: JWT }), {
        error: 'invalid_request',
        description: "the subject token's may_act claim does not name this actor",
      });
    });

    const refresh = (client: TestClient, token: unknown): Promise<Response> =>
      server.post('/token', { grant_type: 'refresh_token', refresh_token: String(token) }, { as: client });
    const exchangeForRefresh = async (subjectToken: string, form: Record<string, string> = {}) =>
      assertOkJson(
        await exchange(agent, { subject_token: subjectToken, requested_token_type: REFRESH_TOKEN, ...form }),
      );

    it('§2.1, §3: requested_token_type refresh_token is refused without the policy, identically on retry', async () => {
      const form = { subject_token: alice.access_token, requested_token_type: REFRESH_TOKEN };
      const a = await assertOAuthError(await exchange(unlicensed, form), {
        error: 'invalid_request',
        description:
          "requested_token_type must be urn:ietf:params:oauth:token-type:access_token or urn:ietf:params:oauth:token-type:jwt; urn:ietf:params:oauth:token-type:refresh_token only where the client's token exchange policy allows refresh tokens",
      });
      assert.deepEqual(await assertOAuthError(await exchange(unlicensed, form), { error: 'invalid_request' }), a);
    });

    it('a revocation racing an exchange for a refresh token never leaves a live child of the revoked grant', async () => {
      for (let round = 0; round < 12; round++) {
        const user = await server.issueGrant(spa, 'alice', ['contacts:read']);
        const [exchanged, revoked] = await Promise.all([
          exchange(agent, { subject_token: user.access_token, requested_token_type: REFRESH_TOKEN }),
          server.post('/revoke', { token: user.refresh_token }, { as: spa }),
        ]);
        assert.equal(revoked.status, 200);
        if (exchanged.status !== 200) {
          await assertOAuthError(exchanged, { error: 'invalid_request' });
          continue;
        }
        const body = (await exchanged.json()) as Record<string, unknown>;
        // The parent is revoked now: whichever committed first, the child must be refused.
        await assertOAuthError(await refresh(agent, body.refresh_token), { error: 'invalid_grant' });
      }
    });

    it('§2.1, §2.2.1: by policy, an access token (issued_token_type access_token) and a refresh token that rotates; every access token keeps act and audience (§4.1)', async () => {
      const user = await server.issueGrant(spa, 'alice', ['contacts:read', 'contacts:write']);
      const body = await exchangeForRefresh(user.access_token, { audience: BILLING, scope: 'contacts:read' });
      // §2.2.1: issued_token_type names the token in `access_token`, which is an access token.
      assert.equal(body.issued_token_type, ACCESS_TOKEN);
      assert.equal(typeof body.refresh_token, 'string');
      assert.equal(body.scope, 'contacts:read');
      const first = claimsOf(body.access_token);
      assert.deepEqual(first.act, { sub: 'agent', client_id: 'agent' });
      assert.equal(first.aud, BILLING);
      assert.equal(first.client_id, 'agent');
      assert.equal(first.sub, claimsOf(user.access_token).sub);
      assert.notEqual(first.grant_id, user.grant_id, 'a new grant of the exchanging client');
      let token = body.refresh_token;
      for (let i = 0; i < 2; i++) {
        const next = await assertOkJson(await refresh(agent, token));
        assert.equal(typeof next.refresh_token, 'string');
        assert.notEqual(next.refresh_token, token, 'rotated (RFC 9700 §4.14.2)');
        const claims = claimsOf(next.access_token);
        assert.deepEqual(claims.act, first.act);
        assert.equal(claims.aud, BILLING);
        assert.equal(claims.sub, first.sub);
        assert.equal(claims.grant_id, first.grant_id);
        assert.equal(next.scope, 'contacts:read');
        token = next.refresh_token;
      }
    });

    it("§2.1: revoking the subject token's grant revokes the exchanged grants (a chain too): invalid_grant identically on retry, access tokens inactive", async () => {
      const user = await server.issueGrant(spa, 'alice', ['contacts:read']);
      const child = await exchangeForRefresh(user.access_token);
      const childRefreshed = await assertOkJson(await refresh(agent, child.refresh_token));
      // The child's access token is the agent's own: exchanged again, a grandchild.
      const grandchild = await exchangeForRefresh(String(childRefreshed.access_token));
      const live = await assertOkJson(
        await server.post('/introspect', { token: String(childRefreshed.access_token) }, { as: agent }),
      );
      assert.equal(live.active, true);
      assert.deepEqual(live.act, { sub: 'agent', client_id: 'agent' }, 'introspection shows act after a refresh');
      assert.equal((await server.post('/revoke', { token: user.refresh_token }, { as: spa })).status, 200);
      for (const token of [childRefreshed.refresh_token, grandchild.refresh_token]) {
        const a = await assertOAuthError(await refresh(agent, token), { error: 'invalid_grant' });
        const b = await assertOAuthError(await refresh(agent, token), { error: 'invalid_grant' });
        assert.deepEqual(a, b);
      }
      for (const token of [child.access_token, childRefreshed.access_token, grandchild.access_token]) {
        const introspected = await assertOkJson(
          await server.post('/introspect', { token: String(token) }, { as: agent }),
        );
        assert.deepEqual(introspected, { active: false });
      }
      // One grant_revoked per grant revoked with it, reason parent_revoked, each of its own client.
      const childGrants = [child.access_token, grandchild.access_token].map((t) => String(claimsOf(t).grant_id));
      const events = await server.context.store.listAuditEvents({ limit: 1000, event: 'grant_revoked' });
      const revoked = (id: string) => events.filter((e) => e.grantId === id).map((e) => [e.clientId, e.reason]);
      assert.deepEqual(revoked(String(user.grant_id)), [['spa', 'revoked_by_client']]);
      for (const id of childGrants) {
        assert.deepEqual(revoked(id), [['agent', 'parent_revoked']], `the audit event of ${id}`);
        assert.equal((await server.context.store.findGrant(id))?.revokedReason, 'parent_revoked');
      }
    });

    it("deleting the subject token's client takes the grants exchanged from its grants with them", async () => {
      const doomed = await server.addClient({ id: 'doomed' });
      const user = await server.issueGrant(doomed, 'alice', ['contacts:read']);
      const child = await exchangeForRefresh(user.access_token);
      assert.equal(await server.context.store.removeClient('doomed'), true);
      await assertOAuthError(await refresh(agent, child.refresh_token), { error: 'invalid_grant' });
      const introspected = await assertOkJson(
        await server.post('/introspect', { token: String(child.access_token) }, { as: agent }),
      );
      assert.deepEqual(introspected, { active: false });
    });

    it('RFC 9700 §4.14.2: reuse of a rotated exchanged refresh token revokes its own family only', async () => {
      const user = await server.issueGrant(spa, 'alice', ['contacts:read']);
      const exchanged = await exchangeForRefresh(user.access_token);
      const sibling = await exchangeForRefresh(user.access_token);
      const rotated = await assertOkJson(await refresh(agent, exchanged.refresh_token));
      const a = await assertOAuthError(await refresh(agent, exchanged.refresh_token), { error: 'invalid_grant' });
      const b = await assertOAuthError(await refresh(agent, exchanged.refresh_token), { error: 'invalid_grant' });
      assert.deepEqual(a, b);
      await assertOAuthError(await refresh(agent, rotated.refresh_token), { error: 'invalid_grant' });
      // The subject's grant and another exchange from it live on.
      await assertOkJson(await refresh(agent, sibling.refresh_token));
      await assertOkJson(await refresh(spa, user.refresh_token));
    });

    it("§2.1: no refresh token for a trusted issuer's JWT or a grant-less token", async () => {
      const description =
        "a refresh token is issued by token exchange only for a subject_token of this server under a user's grant, not for a trusted issuer's or a grant-less token";
      const jwt = await idpToken({ preferred_username: 'alice', aud: 'agent', scope: 'contacts:read' });
      const form = { subject_token: jwt, subject_token_type: JWT, requested_token_type: REFRESH_TOKEN };
      await assertOAuthError(await exchange(agent, form), { error: 'invalid_request', description });
      const own = await assertOkJson(
        await server.post('/token', { grant_type: 'client_credentials', scope: 'contacts:read' }, { as: agent }),
      );
      await assertOAuthError(
        await exchange(agent, { subject_token: String(own.access_token), requested_token_type: REFRESH_TOKEN }),
        { error: 'invalid_request', description },
      );
    });

    it('§2.1: unknown token types are refused', async () => {
      await assertOAuthError(
        await exchange(orders, { subject_token: alice.access_token, requested_token_type: 'urn:example:saml' }),
        { error: 'invalid_request' },
      );
      await assertOAuthError(
        await exchange(orders, { subject_token: alice.access_token, subject_token_type: 'urn:example:saml' }),
        { error: 'invalid_request' },
      );
      await assertOAuthError(
        await exchange(orders, { subject_token: alice.access_token, actor_token: alice.access_token }),
        { error: 'invalid_request', description: "missing required parameter 'actor_token_type'" },
      );
    });

    it("an actor token must be the client's own", async () => {
      await assertOAuthError(
        await exchange(orders, {
          subject_token: alice.access_token,
          actor_token: alice.access_token,
          actor_token_type: ACCESS_TOKEN,
        }),
        { error: 'invalid_request' },
      );
    });

    it('a client without the grant type, and a public client, are unauthorized_client', async () => {
      await assertOAuthError(await exchange(spa, { subject_token: alice.access_token }), {
        error: 'unauthorized_client',
      });
      const pub = await server.addClient({ id: 'public-exchanger', public: true, grantTypes: [GRANT] });
      await assertOAuthError(await exchange(pub, { subject_token: alice.access_token }), {
        error: 'unauthorized_client',
      });
    });

    it('introspection shows act (RFC 8693 §4.1), and every exchange is in the audit trail with subject, actor and audience', async () => {
      const body = await assertOkJson(await exchange(orders, { subject_token: alice.access_token }));
      const introspected = await assertOkJson(
        await server.post('/introspect', { token: String(body.access_token) }, { as: orders }),
      );
      assert.deepEqual(introspected.act, { sub: 'orders', client_id: 'orders' });
      const events = await server.context.store.listAuditEvents({ limit: 1000 });
      const issued = events.filter((e) => e.event === 'token_exchanged' && e.clientId === 'orders');
      assert.ok(issued.length > 0);
      const last = issued.at(-1)!;
      assert.equal(last.subject, claimsOf(alice.access_token).sub);
      assert.equal(last.actor, 'orders');
      assert.equal(last.reason, `delegation for ${ISSUER}`);
      assert.ok(
        events.some((e) => e.event === 'token_exchange_refused' && e.reason === 'token_exchange_target_not_allowed'),
      );
    });

    it('the metadata lists the token exchange grant (RFC 8414 §2 grant_types_supported)', async () => {
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as {
        grant_types_supported: string[];
      };
      assert.ok(metadata.grant_types_supported.includes(GRANT));
    });

    it('§2.2.2: an expired subject token is refused, identically on retry', async () => {
      const short = await server.issueGrant(spa, 'alice', ['contacts:read']);
      // Last in the suite: time only moves forward (the rate limiter runs on this clock too).
      server.clock.advance(3600);
      const a = await assertOAuthError(await exchange(orders, { subject_token: short.access_token }), {
        error: 'invalid_request',
      });
      const b = await assertOAuthError(await exchange(orders, { subject_token: short.access_token }), {
        error: 'invalid_request',
      });
      assert.deepEqual(a, b);
    });

    async function idpToken(claims: Record<string, unknown>): Promise<string> {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'idp-1' })
        .setIssuer(IDP)
        .setSubject('idp-user-1')
        .setIssuedAt(server.clock.now())
        .setExpirationTime(server.clock.now() + 300)
        .sign(idpKey);
    }
  });
