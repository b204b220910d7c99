import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { runCli } from '../src/cli/run.js';
import {
  addTestUser,
  authorizationQuery,
  CALLBACK,
  callbackParams,
  obtainCode,
  PageBrowser,
  pkce,
} from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';

const SIGNED_OUT = 'http://127.0.0.1:8765/signed-out';

for (const dialect of DIALECTS)
  describe(`OpenID Connect at the provider [${dialect}]`, () => {
    let server: TestServer;
    let rp: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      rp = await server.addClient({
        id: 'rp',
        name: 'Relying Party',
        redirectUris: [CALLBACK],
        scope: ['openid', 'profile', 'email', 'offline_access', 'contacts:read'],
        postLogoutRedirectUris: [SIGNED_OUT],
      });
      await addTestUser(server, 'alice');
      await addTestUser(server, 'bob');
    });
    after(() => server.close());

    /** Signs `username` in on a fresh browser and exchanges the code; the token response. */
    async function signIn(
      overrides: Record<string, string | undefined> = {},
      username = 'alice',
      browser = new PageBrowser(server),
    ): Promise<Record<string, string>> {
      const { verifier, challenge } = pkce();
      const params = await obtainCode(
        browser,
        authorizationQuery('rp', challenge, { scope: 'openid profile contacts:read', nonce: 'n-1', ...overrides }),
        username,
      );
      const response = await server.post(
        '/token',
        {
          grant_type: 'authorization_code',
          code: params.code as string,
          redirect_uri: CALLBACK,
          code_verifier: verifier,
        },
        { as: rp },
      );
      assert.equal(response.status, 200);
      return (await response.json()) as Record<string, string>;
    }

    /** The redirect an authorization request answers at once, as query parameters. */
    async function refusal(overrides: Record<string, string | undefined>, browser = new PageBrowser(server)) {
      const answer = await browser.authorize(authorizationQuery('rp', pkce().challenge, overrides));
      assert.equal(answer.status, 302, answer.html.slice(0, 300));
      return callbackParams(answer.location);
    }

    it('the ID token of a user names the opaque subject, never the username, and the subject is the same for every client and sign-in', async () => {
      const first = decodeJwt((await signIn()).id_token as string);
      const second = decodeJwt((await signIn()).id_token as string);
      assert.match(first.sub as string, /^[0-9a-f]{32}$/);
      assert.equal(first.sub, second.sub);
      const bob = decodeJwt((await signIn({}, 'bob')).id_token as string);
      assert.notEqual(bob.sub, first.sub);
      assert.equal((await server.context.store.findUser('alice'))?.subject, first.sub);
    });

    it('a request without openid gets no ID token', async () => {
      const tokens = await signIn({ scope: 'contacts:read', nonce: undefined });
      assert.equal(tokens.id_token, undefined);
    });

    it('a refresh narrowed to a scope without openid answers no ID token', async () => {
      const tokens = await signIn();
      const narrowed = await refresh(server, rp, tokens.refresh_token as string, { scope: 'contacts:read' });
      assert.equal(narrowed.status, 200);
      assert.equal(narrowed.body.id_token, undefined);
    });

    it('offline_access is dropped without prompt=consent and kept with it (OIDC Core §11)', async () => {
      assert.equal((await signIn({ scope: 'openid offline_access' })).scope, 'openid');
      const kept = await signIn({ scope: 'openid offline_access', prompt: 'consent' });
      assert.equal(kept.scope, 'openid offline_access');
    });

    it('prompt=none with another prompt value, a malformed max_age, or a forged id_token_hint is invalid_request at the redirect URI', async () => {
      for (const overrides of [
        { prompt: 'none login' },
        { max_age: 'soon' },
        { max_age: '-1' },
        { id_token_hint: 'e30.e30.AAAA' },
      ]) {
        const params = await refusal({ scope: 'openid', ...overrides });
        assert.equal(params.error, 'invalid_request', JSON.stringify(overrides));
        assert.equal(params.state, 'state-123');
      }
    });

    it('prompt=none with an id_token_hint of another user is interaction_required, with no page', async () => {
      const bobs = (await signIn({}, 'bob')).id_token as string;
      const browser = new PageBrowser(server);
      await signIn({}, 'alice', browser);
      const params = await refusal(
        { scope: 'openid profile contacts:read', prompt: 'none', id_token_hint: bobs },
        browser,
      );
      assert.equal(params.error, 'interaction_required');
    });

    it('userinfo without a token is a bare Bearer challenge, and a token without openid is insufficient_scope (RFC 6750 §3.1)', async () => {
      const none = await fetch(`${server.url}/userinfo`);
      assert.equal(none.status, 401);
      assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="gatehouse"');
      const tokens = await signIn({ scope: 'contacts:read', nonce: undefined });
      const narrow = await fetch(`${server.url}/userinfo`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      assert.equal(narrow.status, 403);
      assert.match(narrow.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
    });

    it('gatehouse users add and update set the claims; the subject does not change', async () => {
      const env = { DATABASE_URL: server.databaseUrl, ISSUER: 'http://gatehouse.test' };
      const out: string[] = [];
      const io = {
        out: (t: string) => out.push(t),
        err: (t: string) => out.push(t),
        readInput: async () => 'a long enough password 123',
      };
      assert.equal(
        await runCli(
          [
            'users',
            'add',
            '--username',
            'carol',
            '--password-stdin',
            '--name',
            'Carol King',
            '--email',
            'carol@example.com',
          ],
          env,
          io,
        ),
        0,
        out.join('\n'),
      );
      const before = await server.context.store.findUser('carol');
      assert.deepEqual(before?.claims, { name: 'Carol King', email: 'carol@example.com' });
      assert.equal(
        await runCli(['users', 'update', 'carol', '--email-verified', 'true', '--name', ''], env, io),
        0,
        out.join('\n'),
      );
      const after = await server.context.store.findUser('carol');
      assert.deepEqual(after?.claims, { email: 'carol@example.com', email_verified: true });
      assert.equal(after?.subject, before?.subject);
      assert.equal(await runCli(['users', 'update', 'carol', '--email', 'not an address'], env, io), 1);
    });

    it('the end_session_endpoint takes a POST form too, and a client_id with an unregistered URI gets a page', async () => {
      const browser = new PageBrowser(server);
      const tokens = await signIn({}, 'alice', browser);
      const refused = await browser.post('/end-session', {
        client_id: 'rp',
        post_logout_redirect_uri: `${SIGNED_OUT}/x`,
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.location, undefined);
      const answer = await browser.post('/end-session', {
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: SIGNED_OUT,
        state: 'st',
      });
      assert.equal(answer.status, 302);
      assert.equal(answer.location, `${SIGNED_OUT}?state=st`);
      const silent = await refusal({ scope: 'openid', prompt: 'none' }, browser);
      assert.equal(silent.error, 'login_required');
    });

    it("the ID token's amr and auth_time are the sign-in session's, on the code and on a refresh (OIDC Core §2, §12.2; RFC 8176 §2)", async () => {
      const tokens = await signIn();
      const first = decodeJwt(tokens.id_token as string);
      assert.deepEqual(first.amr, ['pwd']);
      assert.equal(typeof first.auth_time, 'number');
      const refreshed = await refresh(server, rp, tokens.refresh_token as string);
      assert.equal(refreshed.status, 200);
      const again = decodeJwt(refreshed.body.id_token as string);
      assert.deepEqual(again.amr, ['pwd']);
      assert.equal(again.auth_time, first.auth_time);
    });

    it('renaming a user (users update --username) keeps the sub: the grant refreshes to an ID token and userinfo of the same subject', async () => {
      await addTestUser(server, 'dora');
      const tokens = await signIn({}, 'dora');
      const sub = decodeJwt(tokens.id_token as string).sub;
      const out: string[] = [];
      const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
      const env = { DATABASE_URL: server.databaseUrl, ISSUER: 'http://gatehouse.test' };
      assert.equal(await runCli(['users', 'update', 'dora', '--username', 'dorothy'], env, io), 0, out.join('\n'));
      assert.equal(await server.context.store.findUser('dora'), undefined);
      const refreshed = await refresh(server, rp, tokens.refresh_token as string);
      assert.equal(refreshed.status, 200);
      assert.equal(decodeJwt(refreshed.body.id_token as string).sub, sub);
      for (const token of [tokens.access_token, refreshed.body.access_token as string]) {
        const info = await fetch(`${server.url}/userinfo`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(info.status, 200);
        assert.equal(((await info.json()) as { sub: string }).sub, sub);
      }
    });
  });
