import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { addTestUser, authorizationQuery, CALLBACK, PageBrowser, PASSWORD, pkce } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { refresh, startTestServer, VERIFIER, type TestClient, type TestServer } from './_server.js';

for (const dialect of DIALECTS)
  describe(`the audit trail [${dialect}]`, () => {
    let server: TestServer;
    let client: TestClient;
    /** Every credential the tests issued or typed: none may appear in an audit row. */
    const secrets: string[] = [];

    before(async () => {
      server = await startTestServer({ dialect });
      client = await server.addClient({ id: 'svc', grantTypes: ['refresh_token', 'authorization_code'] });
      secrets.push(client.secret as string);
    });
    after(() => server.close());

    async function events(event?: string) {
      return (await server.context.store.listAuditEvents({ limit: 1000 })).filter(
        (e) => event === undefined || e.event === event,
      );
    }

    async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(
        argv,
        { DATABASE_URL: server.databaseUrl, ISSUER: 'http://gatehouse.test' },
        { out: (t) => out.push(t), err: (t) => err.push(t) },
      );
      return { code, out: out.join('\n'), err: err.join('\n') };
    }

    it('a replayed refresh token records reuse_detected and grant_revoked once, not again on retry', async () => {
      const issued = await server.issueGrant(client);
      const first = await refresh(server, client, issued.refresh_token);
      assert.equal(first.status, 200);
      secrets.push(
        issued.refresh_token,
        issued.access_token,
        first.body.refresh_token as string,
        first.body.access_token as string,
      );
      assert.equal(await events().then((e) => e.length), 0, 'a successful rotation records nothing');
      for (let attempt = 0; attempt < 3; attempt++)
        assert.equal((await refresh(server, client, issued.refresh_token)).status, 400);
      const reuse = await events('refresh_token_reuse_detected');
      assert.equal(reuse.length, 1);
      assert.deepEqual(
        { ...reuse[0], id: undefined, at: undefined },
        {
          id: undefined,
          at: undefined,
          event: 'refresh_token_reuse_detected',
          clientId: 'svc',
          subject: (await server.context.store.findUser('alice'))?.subject,
          grantId: issued.grant_id,
          reason: null,
          address: null,
          actor: null,
        },
      );
      const revoked = await events('grant_revoked');
      assert.equal(revoked.length, 1);
      assert.equal(revoked[0]?.reason, 'reuse_detected');
      assert.equal(revoked[0]?.grantId, issued.grant_id);
    });

    it('a wrong client secret records client_authentication_failed with the client id and address', async () => {
      const wrong = 'not-the-secret-at-all';
      secrets.push(wrong);
      const response = await server.post(
        '/token',
        { grant_type: 'refresh_token', refresh_token: 'x' },
        { as: { id: 'svc', secret: wrong } },
      );
      assert.equal(response.status, 401);
      const unknown = await server.post(
        '/token',
        { grant_type: 'refresh_token', refresh_token: 'x' },
        { as: { id: 'n'.repeat(300), secret: wrong } },
      );
      assert.equal(unknown.status, 401);
      const failed = await events('client_authentication_failed');
      assert.equal(failed.length, 2);
      assert.equal(failed[0]?.clientId, 'svc');
      assert.equal(failed[0]?.reason, 'wrong_secret');
      assert.equal(failed[0]?.address, '127.0.0.1');
      assert.equal(failed[1]?.clientId, 'n'.repeat(128), 'a presented client id is truncated');
      assert.equal(failed[1]?.reason, 'unknown_client');
    });

    it('a failed sign-in records login_failed with the username, the reason and the address; an unknown name is not recorded', async () => {
      await server.addClient({ id: 'app', name: 'App', public: true, redirectUris: [CALLBACK] });
      await addTestUser(server, 'alice');
      secrets.push(PASSWORD);
      const browser = new PageBrowser(server);
      const wrong = 'wrong password 12345';
      secrets.push(wrong);
      assert.equal(
        (await browser.login(await browser.authorize(authorizationQuery('app', pkce().challenge)), 'alice', wrong))
          .status,
        401,
      );
      const failed = await events('login_failed');
      assert.equal(failed.length, 1);
      assert.equal(failed[0]?.subject, 'alice');
      assert.equal(failed[0]?.reason, 'wrong_password');
      assert.equal(failed[0]?.clientId, 'app');
      assert.equal(failed[0]?.address, '127.0.0.1');
      // A password typed into the username field: refused, and not kept.
      const typedPassword = 'hunter2hunter2';
      secrets.push(typedPassword);
      assert.equal(
        (
          await browser.login(
            await browser.authorize(authorizationQuery('app', pkce().challenge)),
            typedPassword,
            wrong,
          )
        ).status,
        401,
      );
      const unknown = (await events('login_failed'))[1];
      assert.equal(unknown?.subject, null);
      assert.equal(unknown?.reason, 'unknown_user');
    });

    it('revocation through /revoke and through `gatehouse grants revoke` is recorded once each', async () => {
      const byClient = await server.issueGrant(client);
      const byAdmin = await server.issueGrant(client);
      secrets.push(byClient.refresh_token, byClient.access_token, byAdmin.refresh_token, byAdmin.access_token);
      for (let i = 0; i < 2; i++)
        assert.equal((await server.post('/revoke', { token: byClient.refresh_token }, { as: client })).status, 200);
      for (let i = 0; i < 2; i++) assert.equal((await cli('grants', 'revoke', byAdmin.grant_id)).code, 0);
      const revoked = await events('grant_revoked');
      assert.deepEqual(
        revoked.filter((e) => e.grantId === byClient.grant_id).map((e) => e.reason),
        ['revoked_by_client'],
      );
      assert.deepEqual(
        revoked.filter((e) => e.grantId === byAdmin.grant_id).map((e) => e.reason),
        ['revoked_by_admin'],
      );
    });

    it("a replayed authorization code records its grant's revocation (code_replayed) once", async () => {
      const redirectUri = 'https://app.example/callback';
      const code = await server.createCode(client, { verifier: VERIFIER, redirectUri });
      secrets.push(code);
      const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: VERIFIER };
      const first = await server.post('/token', form, { as: client });
      assert.equal(first.status, 200);
      const tokens = (await first.json()) as { refresh_token: string; access_token: string };
      secrets.push(tokens.refresh_token, tokens.access_token);
      for (let i = 0; i < 2; i++) assert.equal((await server.post('/token', form, { as: client })).status, 400);
      assert.equal((await events('grant_revoked')).filter((e) => e.reason === 'code_replayed').length, 1);
    });

    it('`gatehouse audit` prints the events as JSON, filtered by --event, --limit and --since', async () => {
      const all = await cli('audit');
      assert.equal(all.code, 0, all.err);
      const printed = JSON.parse(all.out) as Record<string, unknown>[];
      assert.equal(printed.length, (await events()).length);
      assert.deepEqual(Object.keys(printed[0] ?? {}), [
        'id',
        'at',
        'event',
        'client_id',
        'subject',
        'grant_id',
        'reason',
        'address',
      ]);
      const logins = JSON.parse((await cli('audit', '--event', 'login_failed')).out) as Record<string, unknown>[];
      assert.deepEqual(
        logins.map((e) => e.subject),
        ['alice', null],
      );
      const last = JSON.parse((await cli('audit', '--limit', '1')).out) as Record<string, unknown>[];
      assert.deepEqual(last, printed.slice(-1), 'the newest events');
      // The test clock is in 2027: events recorded by the server are after 2027-01-01, none after 2100.
      assert.equal((JSON.parse((await cli('audit', '--since', '2100-01-01T00:00:00Z')).out) as unknown[]).length, 0);
      assert.ok((JSON.parse((await cli('audit', '--since', '2027-01-01')).out) as unknown[]).length > 0);
      assert.equal((await cli('audit', '--event', 'nonsense')).code, 2);
      assert.equal((await cli('audit', '--since', 'yesterday')).code, 2);
    });

    it('no audit row holds a token, secret or password', async () => {
      const rows = JSON.stringify(await events());
      assert.ok(secrets.length >= 10);
      for (const secret of secrets) assert.ok(!rows.includes(secret), 'a credential appears in the audit trail');
    });
  });
