import assert from 'node:assert/strict';
import { confirmOtpEnrolment } from '../src/factors/factors.js';
import { totpCode } from '../src/factors/totp.js';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { api, assertInvalidValue, assertMissingFields, assertProblem, type Api, type ApiResponse } from './_api.js';
import { authorizationQuery, CALLBACK, PageBrowser, pkce } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';
import { assertionFields, clientAssertion, clientKeyPair } from './_client-keys.js';

const ADMIN = '/admin/v1';

describe('the admin API /admin/v1', () => {
  for (const dialect of DIALECTS)
    describe(dialect, () => {
      let server: TestServer;
      /** Clients made as an operator makes them: `gatehouse clients add … --admin`. */
      let ops: TestClient;
      let admin: Api;
      let reader: Api;
      /** A resource server, which may introspect every client's tokens. */
      let rs: TestClient;

      /** Runs the CLI on the server's database; the JSON it printed, after checking it exited 0. */
      async function cli(...argv: string[]): Promise<{ code: number; json: Record<string, unknown> | null }> {
        const out: string[] = [];
        const env = { DATABASE_URL: server.databaseUrl, ISSUER };
        const code = await runCli(argv, env, { out: (t) => out.push(t), err: () => {} });
        return { code, json: code === 0 ? (JSON.parse(out.join('\n')) as Record<string, unknown>) : null };
      }

      async function adminClient(id: string, ...options: string[]): Promise<TestClient> {
        const { code, json } = await cli('clients', 'add', '--id', id, '--name', id, '--admin', ...options);
        assert.equal(code, 0);
        return { id, secret: json?.client_secret as string };
      }

      /** RFC 6749 §4.4: the client-credentials grant; the token endpoint's answer. */
      async function clientCredentials(client: TestClient, scope?: string) {
        const response = await server.post(
          '/token',
          { grant_type: 'client_credentials', ...(scope === undefined ? {} : { scope }) },
          { as: client },
        );
        return { status: response.status, body: (await response.json()) as Record<string, string> };
      }

      async function tokenOf(client: TestClient, scope?: string): Promise<string> {
        const { status, body } = await clientCredentials(client, scope);
        assert.equal(status, 200, JSON.stringify(body));
        return body.access_token as string;
      }

      async function introspect(token: string): Promise<boolean> {
        const response = await server.post('/introspect', { token }, { as: rs });
        return ((await response.json()) as { active: boolean }).active;
      }

      async function auditCount(): Promise<number> {
        return (await server.context.store.listAuditEvents({ limit: 100_000 })).length;
      }

      before(async () => {
        server = await startTestServer({ dialect });
        ops = await adminClient('ops');
        admin = api(server, await tokenOf(ops));
        const auditor = await adminClient('auditor', '--scope', 'gatehouse:admin:read');
        reader = api(server, await tokenOf(auditor));
        rs = await server.addClient({ id: 'rs', resourceServer: true });
      });
      after(() => server.close());

      it('serves its OpenAPI 3.0 document, which describes every answer these tests receive', async () => {
        const response = await fetch(`${server.url}${ADMIN}/openapi.json`);
        assert.equal(response.status, 200);
        const document = (await response.json()) as { openapi: string; servers: { url: string }[] };
        assert.equal(document.openapi, '3.0.3');
        assert.equal(document.servers[0]?.url, `${ISSUER}${ADMIN}`);
      });

      it('drives a client through its life with a client-credentials token: its tokens end with it', async () => {
        const created = await admin.post(`${ADMIN}/clients`, { client_id: 'svc', name: 'Service', scope: 'a b' });
        assert.equal(created.status, 201);
        assert.equal(created.headers.get('location'), `${ADMIN}/clients/svc`);
        const firstSecret = created.body.client_secret as string;
        assert.ok(firstSecret.length >= 32, 'the secret is shown once, on create');
        const read = await admin.get(`${ADMIN}/clients/svc`);
        assert.equal(read.body.scope, 'a b');
        assert.equal(read.body.client_secret, undefined, 'and never again');
        const updated = await admin.put(`${ADMIN}/clients/svc`, { name: 'Service 2', scope: 'a', rotation_limit: 2 });
        assert.equal(updated.status, 200);
        assert.deepEqual([updated.body.name, updated.body.scope, updated.body.rotation_limit], ['Service 2', 'a', 2]);
        assert.equal(updated.body.type, 'confidential', 'the type stays');
        const rotated = await admin.post(`${ADMIN}/clients/svc/secret`);
        assert.equal(rotated.status, 200);
        const secret = rotated.body.client_secret as string;
        assert.notEqual(secret, firstSecret);
        assert.equal((await clientCredentials({ id: 'svc', secret: firstSecret })).status, 401, 'the old secret');
        const token = await tokenOf({ id: 'svc', secret });
        const grant = await server.issueGrant({ id: 'svc', secret }, 'alice', ['a']);
        assert.equal(await introspect(token), true);
        assert.equal(await introspect(grant.refresh_token), true);
        assert.equal((await admin.delete(`${ADMIN}/clients/svc`)).status, 204);
        assert.equal(await introspect(token), false, 'a client-credentials token of a deleted client');
        assert.equal(await introspect(grant.refresh_token), false, 'a refresh token of a deleted client');
        assertProblem(await admin.get(`${ADMIN}/clients/svc`), 404, 'not-found');
        const audited = await admin.get(`${ADMIN}/audit-events?actor=ops&event=client_deleted`);
        assert.deepEqual(
          audited.body.items.map((e: { client_id: string; actor: string }) => [e.client_id, e.actor]),
          [['svc', 'ops']],
        );
        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        assert.match(metrics, /gatehouse_audit_events_total\{event="client_deleted"\} 1\b/, 'and counted, as logged');
        const trail = await admin.get(`${ADMIN}/audit-events?actor=ops`);
        assert.deepEqual(
          trail.body.items
            .filter((e: { client_id: string }) => e.client_id === 'svc')
            .map((e: { event: string }) => e.event),
          ['client_created', 'client_updated', 'client_secret_rotated', 'client_deleted'],
        );
      });

      it('sets token_exchange.refresh_tokens (RFC 8693 §2.1 requested_token_type refresh_token), off by default', async () => {
        const created = await admin.post(`${ADMIN}/clients`, {
          client_id: 'exchanger',
          name: 'Exchanger',
          token_exchange: { refresh_tokens: true },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal(created.body.token_exchange.refresh_tokens, true);
        const updated = await admin.put(`${ADMIN}/clients/exchanger`, {
          name: 'Exchanger',
          token_exchange: { refresh_tokens: false },
        });
        assert.equal(updated.status, 200, JSON.stringify(updated.body));
        assert.equal((await admin.get(`${ADMIN}/clients/exchanger`)).body.token_exchange.refresh_tokens, false);
        assert.equal((await admin.delete(`${ADMIN}/clients/exchanger`)).status, 204);
      });

      it('answers the overview: the store reached, the mail outbox by state, the signing keys’ age, the counts', async () => {
        const before_ = await admin.get(`${ADMIN}/overview`);
        assert.equal(before_.status, 200, JSON.stringify(before_.body));
        assert.equal(before_.body.store.reachable, true);
        assert.equal(typeof before_.body.store.round_trip_ms, 'number');
        assert.deepEqual(Object.keys(before_.body.mail).sort(), [
          'failed',
          'oldest_waiting_at',
          'queued',
          'sending',
          'sent',
        ]);
        assert.ok(before_.body.signing_keys.length >= 1, 'a key signs');
        assert.ok(before_.body.signing_keys.every((k: { age_seconds: number }) => k.age_seconds >= 0));
        const users = (await server.context.store.listUsers()).length;
        assert.equal(before_.body.counts.users, users);
        await server.issueGrant(await server.addClient({ id: 'counted' }), 'counted-user');
        const after_ = await admin.get(`${ADMIN}/overview`);
        assert.equal(after_.body.counts.users, users + 1);
        assert.equal(after_.body.counts.clients, before_.body.counts.clients + 1);
        assert.equal(after_.body.counts.live_grants, before_.body.counts.live_grants + 1);
        assert.equal((await reader.get(`${ADMIN}/overview`)).status, 200, 'a read');
      });

      it('sets dpop_bound_access_tokens (RFC 9449 §5.2): a token request without a proof is refused then', async () => {
        const created = await admin.post(`${ADMIN}/clients`, {
          client_id: 'bound',
          name: 'Bound',
          grant_types: ['client_credentials'],
          scope: 'a',
        });
        assert.equal(created.body.dpop_bound_access_tokens, undefined, 'off by default');
        const secret = created.body.client_secret as string;
        assert.equal((await clientCredentials({ id: 'bound', secret })).status, 200);
        const updated = await admin.put(`${ADMIN}/clients/bound`, {
          name: 'Bound',
          grant_types: ['client_credentials'],
          scope: 'a',
          dpop_bound_access_tokens: true,
        });
        assert.equal(updated.status, 200, JSON.stringify(updated.body));
        assert.equal(updated.body.dpop_bound_access_tokens, true);
        assert.equal((await clientCredentials({ id: 'bound', secret })).status, 400, 'no DPoP proof');
        assert.equal((await admin.delete(`${ADMIN}/clients/bound`)).status, 204);
      });

      it('registers a client with jwks (RFC 7591 §2): no secret, private_key_jwt (RFC 7523 §2.2), PAR required when asked', async () => {
        const keys = await clientKeyPair();
        const created = await admin.post(`${ADMIN}/clients`, {
          client_id: 'signed',
          name: 'Signed',
          grant_types: ['client_credentials'],
          scope: 'a',
          jwks: keys.jwks,
          require_pushed_authorization_requests: true,
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal(created.body.client_secret, undefined);
        assert.equal(created.body.token_endpoint_auth_method, 'private_key_jwt');
        assert.equal(created.body.require_pushed_authorization_requests, true);
        const assertion = await clientAssertion(keys, 'signed', ISSUER, server.clock.now());
        const answer = await server.post('/token', {
          grant_type: 'client_credentials',
          client_id: 'signed',
          ...assertionFields(assertion),
        });
        assert.equal(answer.status, 200, await answer.text());
        const refused = await admin.put(`${ADMIN}/clients/signed`, { name: 'Signed', jwks_uri: 'http://a.example/k' });
        assert.ok(refused.status >= 400 && refused.status < 500, JSON.stringify(refused.body));
        assert.equal((await admin.delete(`${ADMIN}/clients/signed`)).status, 204);
      });

      it('refuses bad input on every operation with a catalog error, and writes nothing', async () => {
        await admin.post(`${ADMIN}/clients`, { client_id: 'kept', name: 'Kept' });
        await admin.post(`${ADMIN}/users`, { username: 'kept', password: 'a long enough password' });
        const clientBefore = (await admin.get(`${ADMIN}/clients/kept`)).body;
        const userBefore = (await admin.get(`${ADMIN}/users/kept`)).body;
        const events = await auditCount();
        const missing = (response: ApiResponse, ...fields: string[]) =>
          assertMissingFields(
            response,
            fields.map((field) => ({ field, pointer: `/${field}` })),
          );

        missing(await admin.post(`${ADMIN}/clients`, {}), 'client_id', 'name');
        missing(await admin.post(`${ADMIN}/clients`, { client_id: 'x', name: null }), 'name');
        assertInvalidValue(await admin.post(`${ADMIN}/clients`, { client_id: 5, name: 'x' }), 'client_id');
        assertInvalidValue(await admin.post(`${ADMIN}/clients`, { client_id: 'x', name: 'x', colour: 'red' }));
        assertProblem(await admin.post(`${ADMIN}/clients`, { client_id: 'kept', name: 'x' }), 409, 'conflict');
        const rules = [
          { scope: 'gatehouse:admin' },
          { redirect_uris: ['http://app.example/cb'] },
          { public: true, grant_types: ['client_credentials'] },
        ];
        for (const rule of rules)
          assertProblem(
            await admin.post(`${ADMIN}/clients`, { client_id: 'x', name: 'x', ...rule }),
            422,
            'invalid-operator-input',
          );
        missing(await admin.put(`${ADMIN}/clients/kept`, {}), 'name');
        missing(await admin.put(`${ADMIN}/clients/kept`, { name: null }), 'name');
        assertInvalidValue(
          await admin.put(`${ADMIN}/clients/kept`, { name: 'x', rotation_limit: '2' }),
          'rotation_limit',
        );
        assertProblem(
          await admin.put(`${ADMIN}/clients/kept`, { name: 'x', scope: 'gatehouse:admin:read' }),
          422,
          'invalid-operator-input',
        );
        assertProblem(await admin.put(`${ADMIN}/clients/nope`, { name: 'x' }), 404, 'not-found');
        assertProblem(await admin.get(`${ADMIN}/clients/nope`), 404, 'not-found');
        assertProblem(await admin.post(`${ADMIN}/clients/nope/secret`), 404, 'not-found');
        assertProblem(await admin.delete(`${ADMIN}/clients/nope`), 404, 'not-found');

        missing(await admin.post(`${ADMIN}/users`, {}), 'username');
        missing(await admin.post(`${ADMIN}/users`, { username: null }), 'username');
        assertInvalidValue(await admin.post(`${ADMIN}/users`, { username: 'x', password: 5 }), 'password');
        assertProblem(
          await admin.post(`${ADMIN}/users`, { username: 'x', email: 'no' }),
          422,
          'invalid-operator-input',
        );
        assertProblem(
          await admin.post(`${ADMIN}/users`, { username: 'x', password: 'short' }),
          422,
          'invalid-operator-input',
        );
        assertProblem(await admin.post(`${ADMIN}/users`, { username: 'KEPT' }), 409, 'conflict');
        assertInvalidValue(await admin.put(`${ADMIN}/users/kept/claims`, { name: 5 }), 'name');
        assertProblem(await admin.put(`${ADMIN}/users/nope/claims`, {}), 404, 'not-found');
        missing(await admin.put(`${ADMIN}/users/kept/password`, {}), 'password');
        missing(await admin.put(`${ADMIN}/users/kept/password`, { password: null }), 'password');
        assertInvalidValue(await admin.put(`${ADMIN}/users/kept/password`, { password: 12345678 }), 'password');
        assertProblem(
          await admin.put(`${ADMIN}/users/nope/password`, { password: 'a long enough password' }),
          404,
          'not-found',
        );
        assertProblem(await admin.get(`${ADMIN}/users/nope`), 404, 'not-found');
        assertProblem(await admin.post(`${ADMIN}/users/nope/disable`), 404, 'not-found');
        assertProblem(await admin.post(`${ADMIN}/users/nope/enable`), 404, 'not-found');
        assertProblem(await admin.delete(`${ADMIN}/users/nope`), 404, 'not-found');

        assertProblem(await admin.get(`${ADMIN}/grants`), 400, 'invalid-parameter');
        assertProblem(await admin.get(`${ADMIN}/grants?user=a&client_id=b`), 400, 'invalid-parameter');
        assertProblem(await admin.post(`${ADMIN}/grants/nope/revoke`), 404, 'not-found');
        assertProblem(await admin.post(`${ADMIN}/keys/nope/retire`), 404, 'not-found');
        assertProblem(await admin.post(`${ADMIN}/keys/rotate?now=soon`), 400, 'invalid-parameter');
        assertProblem(await admin.get(`${ADMIN}/audit-events?event=nonsense`), 400, 'invalid-parameter');
        assertProblem(await admin.get(`${ADMIN}/audit-events?since=yesterday`), 400, 'invalid-parameter');
        assertProblem(await admin.get(`${ADMIN}/clients?cursor=!`), 400, 'invalid-parameter');
        assertProblem(await admin.get(`${ADMIN}/users?limit=1000`), 400, 'invalid-parameter');
        assertProblem(await admin.post(`${ADMIN}/clients`, undefined, { raw: '{"client_id":' }), 400, 'malformed-json');
        assertProblem(await admin.post(`${ADMIN}/clients`), 400, 'malformed-json');
        const patched = await admin.patch(`${ADMIN}/clients/kept`, { name: 'x' });
        assertProblem(patched, 405, 'method-not-allowed');
        assert.equal(patched.headers.get('allow'), 'GET, PUT, DELETE, HEAD');
        const asText = { headers: { 'content-type': 'text/plain' } };
        assertProblem(await admin.post(`${ADMIN}/users`, { username: 'x' }, asText), 415, 'unsupported-media-type');

        assert.equal(await auditCount(), events, 'no refused request is audited');
        assert.deepEqual((await admin.get(`${ADMIN}/clients/kept`)).body, clientBefore);
        assert.deepEqual((await admin.get(`${ADMIN}/users/kept`)).body, userBefore);
        const names = (await admin.get(`${ADMIN}/clients?limit=100`)).body.items.map(
          (c: { client_id: string }) => c.client_id,
        );
        assert.ok(!names.includes('x'), 'no client was half-made');
        assertProblem(await admin.get(`${ADMIN}/users/x`), 404, 'not-found');
      });

      it("lists a user's second factors (never a secret) and resets them with an audit record of the actor", async () => {
        const created = await admin.post(`${ADMIN}/users`, { username: 'frank', second_factor_required: true });
        assert.equal(created.status, 201);
        assert.equal(created.body.second_factor_required, true);
        const frank = await server.context.store.findUser('frank');
        assert.ok(frank);
        const enrolled = await confirmOtpEnrolment(server.context.audit, server.context.signIn.factors, {
          subject: frank.subject,
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          code: totpCode('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', server.clock.now()),
          now: server.clock.now(),
        });
        assert.ok(enrolled.ok);
        await server.context.store.insertPasskey({
          id: `cred-frank-${dialect}`,
          subject: frank.subject,
          publicKey: 'pQECAyYgASFYIPublicKeyNeverListed',
          counter: 3,
          transports: ['usb'],
          backupEligible: false,
          backedUp: false,
          name: 'Frank key',
          createdAt: server.clock.now() - 60,
          lastUsedAt: server.clock.now(),
        });
        const listed = await reader.get(`${ADMIN}/users/frank/factors`);
        assert.equal(listed.status, 200);
        assert.deepEqual(
          listed.body.factors.map((f: { kind: string }) => f.kind),
          ['otp', 'recovery_codes', 'passkey'],
        );
        assert.deepEqual(listed.body.factors[2], {
          kind: 'passkey',
          name: 'Frank key',
          created_at: new Date((server.clock.now() - 60) * 1000).toISOString(),
          last_used_at: new Date(server.clock.now() * 1000).toISOString(),
        });
        assert.ok(!listed.text.includes('JBSWY3DP'), 'no secret');
        assert.ok(!listed.text.includes('PublicKeyNeverListed'), "no passkey's public key");
        assert.equal((await reader.post(`${ADMIN}/users/frank/factors/reset`)).status, 403, 'a read-only token');
        const reset = await admin.post(`${ADMIN}/users/frank/factors/reset?require_enrolment=true`);
        assert.equal(reset.status, 200);
        assert.deepEqual(reset.body, { removed: 2, second_factor_required: true }, 'the app and the passkey');
        assert.deepEqual((await admin.get(`${ADMIN}/users/frank/factors`)).body.factors, []);
        assert.deepEqual(await server.context.store.listPasskeys(frank.subject), [], 'the passkey is gone');
        assert.equal((await admin.get(`${ADMIN}/users/frank`)).body.second_factor_required, true);
        assertProblem(await admin.get(`${ADMIN}/users/nobody/factors`), 404, 'not-found');
        const audited = await admin.get(`${ADMIN}/audit-events?event=second_factor_reset`);
        assert.deepEqual(
          audited.body.items.map((e: { subject: string; actor: string }) => [e.subject, e.actor]),
          [[frank.subject, 'ops']],
        );
      });

      it('answers the read-only scope on reads only (403 insufficient_scope on writes) and no token with 401', async () => {
        assert.equal((await reader.get(`${ADMIN}/clients`)).status, 200);
        assert.equal((await reader.get(`${ADMIN}/audit-events`)).status, 200);
        const refused = await reader.post(`${ADMIN}/clients`, { client_id: 'r', name: 'r' });
        assertProblem(refused, 403, 'insufficient-scope');
        assert.match(
          refused.headers.get('www-authenticate') ?? '',
          /error="insufficient_scope", scope="gatehouse:admin"/,
        );
        assertProblem(await reader.delete(`${ADMIN}/clients/ops`), 403, 'insufficient-scope');
        const anonymous = await api(server).get(`${ADMIN}/clients`);
        assertProblem(anonymous, 401, 'invalid-token');
        assert.ok(anonymous.headers.get('www-authenticate'));
        assertProblem(await reader.get(`${ADMIN}/clients/r`), 404, 'not-found');
      });

      it('a client not made with --admin never gets the admin scopes, however it was registered', async () => {
        const plain = await server.addClient({ id: 'plain', scope: ['a'] });
        assert.equal((await clientCredentials(plain, 'gatehouse:admin')).body.error, 'invalid_scope');
        assert.equal(
          (await cli('clients', 'add', '--id', 'sneaky', '--name', 's', '--scope', 'gatehouse:admin')).code,
          1,
        );
        // A client stored before admin clients existed, with the scope in its registration.
        const legacy = await server.addClient({ id: 'legacy', scope: ['a'] });
        const stored = await server.context.store.findClient('legacy');
        await server.context.store.replaceClient({ ...stored!, scope: ['gatehouse:admin'] });
        assert.equal((await clientCredentials(legacy, 'gatehouse:admin')).body.error, 'invalid_scope');
        const forged = server.context.accessTokens.mint({
          subject: 'legacy',
          clientId: 'legacy',
          scope: ['gatehouse:admin'],
          grantId: null,
          ttl: 300,
          now: server.clock.now(),
        });
        assertProblem(await api(server, forged).get(`${ADMIN}/clients`), 403, 'insufficient-scope');
      });

      it('manages users: made with a password shown once, claims replaced, disabled (grants revoked), deleted', async () => {
        const created = await admin.post(`${ADMIN}/users`, { username: 'Carol', name: 'Carol' });
        assert.equal(created.status, 201);
        assert.equal(created.body.username, 'carol');
        assert.ok((created.body.password as string).length >= 8);
        const claims = await admin.put(`${ADMIN}/users/carol/claims`, {
          email: 'carol@example.com',
          email_verified: true,
        });
        assert.deepEqual(
          [claims.body.name, claims.body.email, claims.body.email_verified],
          [undefined, 'carol@example.com', true],
        );
        assert.equal(
          (await admin.put(`${ADMIN}/users/carol/password`, { password: 'another long password' })).status,
          204,
        );
        const client = await server.addClient({ id: 'app', scope: ['a'], redirectUris: [CALLBACK] });
        const grant = await server.issueGrant(client, 'carol', ['a']);
        /** The status of a sign-in as carol with her password: 401 refused, 303 on to the consent page. */
        const signIn = async (): Promise<number> => {
          const browser = new PageBrowser(server);
          const page = await browser.authorize(authorizationQuery('app', pkce().challenge, { scope: 'a' }));
          return (await browser.login(page, 'carol', 'another long password')).status;
        };
        assert.equal(await signIn(), 303);
        const listed = await admin.get(`${ADMIN}/grants?user=carol`);
        assert.deepEqual(
          listed.body.items.map((g: { grant_id: string }) => g.grant_id),
          [grant.grant_id],
        );
        const disabled = await admin.post(`${ADMIN}/users/carol/disable`);
        assert.equal(typeof disabled.body.disabled_at, 'string');
        assert.equal(await introspect(grant.refresh_token), false, 'the grants of a disabled user are revoked');
        assert.equal(await signIn(), 401, 'a disabled user cannot sign in');
        const refusal = await admin.get(`${ADMIN}/audit-events?event=login_failed`);
        assert.equal(refusal.body.items.at(-1).reason, 'user_disabled');
        const enabled = await admin.post(`${ADMIN}/users/carol/enable`);
        assert.equal(enabled.body.disabled_at, undefined);
        assert.equal(await signIn(), 303, 'an enabled one can');
        assert.equal((await admin.delete(`${ADMIN}/users/carol`)).status, 204);
        const events = await admin.get(`${ADMIN}/audit-events?actor=ops&limit=100`);
        assert.deepEqual(
          events.body.items
            // The events name carol by her subject, as her grants do.
            .filter((e: { subject: string }) => e.subject === created.body.subject)
            .map((e: { event: string }) => e.event),
          ['user_created', 'user_claims_updated', 'user_password_set', 'user_disabled', 'user_enabled', 'user_deleted'],
        );
      });

      it('searches the users in the store by part of the username, filters them by state, and pages the result by cursor', async () => {
        for (const name of ['ops.anna', 'ops.bert', 'ops_carl', 'opsxdora', 'sales.eva'])
          assert.equal((await admin.post(`${ADMIN}/users`, { username: name })).status, 201);
        await admin.post(`${ADMIN}/users/ops.bert/disable`);
        const names = (body: { items: { username: string }[] }): string[] => body.items.map((u) => u.username);
        // Any case; `_` and `%` are the text itself, not a LIKE wildcard.
        assert.deepEqual(names((await admin.get(`${ADMIN}/users?q=OPS.`)).body), ['ops.anna', 'ops.bert']);
        assert.deepEqual(names((await admin.get(`${ADMIN}/users?q=s_c`)).body), ['ops_carl']);
        assert.deepEqual(names((await admin.get(`${ADMIN}/users?q=%25`)).body), []);
        assert.deepEqual(names((await admin.get(`${ADMIN}/users?q=ops&state=disabled`)).body), ['ops.bert']);
        assert.deepEqual(names((await admin.get(`${ADMIN}/users?q=ops&state=enabled`)).body), [
          'ops.anna',
          'ops_carl',
          'opsxdora',
        ]);
        // Each page is full: the filter is the store's, and the cursor a username.
        const first = await admin.get(`${ADMIN}/users?q=ops&state=enabled&limit=2`);
        assert.deepEqual(names(first.body), ['ops.anna', 'ops_carl']);
        const second = await reader.get(`${ADMIN}/users?q=ops&state=enabled&limit=2&cursor=${first.body.next_cursor}`);
        assert.deepEqual(names(second.body), ['opsxdora']);
        assert.equal(second.body.next_cursor, null);
        for (const query of ['q=', 'q=%20', `q=${'a'.repeat(65)}`, 'state=gone', 'q=a&q=b'])
          assertProblem(await admin.get(`${ADMIN}/users?${query}`), 400, 'invalid-parameter');
        for (const name of ['ops.anna', 'ops.bert', 'ops_carl', 'opsxdora', 'sales.eva'])
          assert.equal((await admin.delete(`${ADMIN}/users/${name}`)).status, 204);
      });

      it('lists grants by user or client in pages, and revokes one (again: already revoked)', async () => {
        const client = await server.addClient({ id: 'paged', scope: ['a'] });
        const grants = [await server.issueGrant(client, 'dave', ['a']), await server.issueGrant(client, 'dave', ['a'])];
        const first = await admin.get(`${ADMIN}/grants?client_id=paged&limit=1`);
        assert.equal(first.body.items.length, 1);
        const second = await admin.get(`${ADMIN}/grants?client_id=paged&limit=1&cursor=${first.body.next_cursor}`);
        assert.equal(second.body.next_cursor, null);
        assert.deepEqual(
          [...first.body.items, ...second.body.items].map((g: { grant_id: string }) => g.grant_id).sort(),
          grants.map((g) => g.grant_id).sort(),
        );
        const id = grants[0]?.grant_id as string;
        assert.deepEqual((await admin.post(`${ADMIN}/grants/${id}/revoke`)).body, {
          grant_id: id,
          revoked: true,
          already_revoked: false,
        });
        assert.equal((await admin.post(`${ADMIN}/grants/${id}/revoke`)).body.already_revoked, true);
        assert.equal(await introspect(grants[0]?.refresh_token as string), false);
        const revoked = await admin.get(`${ADMIN}/audit-events?event=grant_revoked&actor=ops`);
        assert.equal(revoked.body.items.filter((e: { grant_id: string }) => e.grant_id === id).length, 1);
      });

      it('pages the audit trail by cursor and filters it by time', async () => {
        const all = await admin.get(`${ADMIN}/audit-events?limit=100`);
        const seen: string[] = [];
        for (let cursor: string | null = ''; cursor !== null;) {
          const page = await admin.get(`${ADMIN}/audit-events?limit=3${cursor === '' ? '' : `&cursor=${cursor}`}`);
          seen.push(...page.body.items.map((e: { id: string }) => e.id));
          cursor = page.body.next_cursor;
        }
        assert.deepEqual(
          seen,
          all.body.items.map((e: { id: string }) => e.id),
        );
        // The CLI records on the wall clock, the server on the test's (in 2027): before it, the CLI's changes.
        const at = new Date(server.clock.now() * 1000).toISOString();
        const byCli = await admin.get(`${ADMIN}/audit-events?until=${at}`);
        assert.deepEqual(
          byCli.body.items.map((e: { event: string; actor: string }) => [e.event, e.actor]),
          [
            ['client_created', 'cli'],
            ['client_created', 'cli'],
          ],
        );
        const since = await admin.get(`${ADMIN}/audit-events?since=${at}&limit=100`);
        assert.equal(since.body.items.length, all.body.items.length - 2);
      });

      it('rotates and retires signing keys (refused while no other key signs)', async () => {
        const before = await admin.get(`${ADMIN}/keys`);
        const signing = before.body.items.find(
          (k: { alg: string; status: string }) => k.alg === 'ES256' && k.status === 'signing',
        );
        const rotated = await admin.post(`${ADMIN}/keys/rotate`);
        assert.equal(rotated.status, 201);
        assert.deepEqual(
          rotated.body.keys.map((k: { status: string }) => k.status),
          ['published', 'published'],
        );
        assertProblem(await admin.post(`${ADMIN}/keys/${signing.kid}/retire`), 422, 'invalid-operator-input');
        await admin.post(`${ADMIN}/keys/rotate?now=true`);
        server.clock.advance(1); // a key rotated in "now" signs from the next second, after the current one
        const retired = await admin.post(`${ADMIN}/keys/${signing.kid}/retire`);
        assert.equal(retired.body.status, 'retired');
        // The admin token was signed by the retired key: it no longer works; a new one does.
        assertProblem(await admin.get(`${ADMIN}/keys`), 401, 'invalid-token');
        const page = await api(server, await tokenOf(ops)).get(`${ADMIN}/keys?limit=2`);
        assert.equal(page.body.items.length, 2);
        assert.ok(page.body.next_cursor);
      });
    });
});
