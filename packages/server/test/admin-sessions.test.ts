/**
 * A user's browser sessions through the admin API, on both dialects: listed (signed-in ones only,
 * named by a handle that is neither the cookie nor its stored digest), one ended, and the user
 * signed out everywhere (every session ended, every live grant revoked with its tokens), each
 * audited with the operator as actor. Every answer is checked against the document.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api } from './_api.js';
import { addTestUser, authorizationQuery, CALLBACK, obtainCode, PageBrowser, pkce } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';

for (const dialect of DIALECTS)
  describe(`a user's sessions in the admin API [${dialect}]`, () => {
    let server: TestServer;
    let admin: ReturnType<typeof api>;

    /** A browser of rita's, signed in and holding a grant of `app`: its refresh token. */
    async function ritaSignsIn(browser: PageBrowser): Promise<string> {
      const { verifier, challenge } = pkce();
      const { code } = await obtainCode(browser, authorizationQuery('app', challenge), 'rita');
      const response = await server.post(
        '/token',
        {
          grant_type: 'authorization_code',
          code: code as string,
          code_verifier: verifier,
          redirect_uri: CALLBACK,
          client_id: 'app',
        },
        { auth: 'none' },
      );
      const body = (await response.json()) as { refresh_token: string };
      assert.equal(response.status, 200, JSON.stringify(body));
      return body.refresh_token;
    }

    const refreshes = async (refreshToken: string): Promise<boolean> =>
      (
        await server.post(
          '/token',
          { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'app' },
          { auth: 'none' },
        )
      ).status === 200;

    before(async () => {
      server = await startTestServer({ dialect });
      await server.addClient({ id: 'app', public: true, scope: ['contacts:read'], redirectUris: [CALLBACK] });
      await addTestUser(server, 'rita');
      const ops = await server.addClient({
        id: 'ops',
        admin: true,
        scope: ['gatehouse:admin', 'gatehouse:admin:read'],
      });
      const response = await server.post('/token', { grant_type: 'client_credentials' }, { as: ops });
      admin = api(server, ((await response.json()) as { access_token: string }).access_token);
    });
    after(() => server?.close());

    it('lists the signed-in sessions by a handle, ends one: that browser signs in again, its grant stays', async () => {
      const laptop = new PageBrowser(server);
      const phone = new PageBrowser(server);
      const laptopRefresh = await ritaSignsIn(laptop);
      const [first] = (await admin.get('/admin/v1/users/rita/sessions')).body.items as {
        session_id: string;
        methods: string[];
      }[];
      await ritaSignsIn(phone);
      const listed = await admin.get('/admin/v1/users/rita/sessions');
      assert.equal(listed.status, 200);
      assert.equal(listed.body.items.length, 2);
      assert.deepEqual(first?.methods, ['pwd']);
      assert.match(first?.session_id ?? '', /^[0-9a-f]{22}$/);
      const cookie = (laptop.cookie ?? '').split('=')[1] ?? '';
      assert.ok(!JSON.stringify(listed.body).includes(cookie), 'never the cookie');

      assert.equal((await admin.delete(`/admin/v1/users/rita/sessions/${first?.session_id}`)).status, 204);
      assert.equal((await admin.get('/admin/v1/users/rita/sessions')).body.items.length, 1);
      const again = await laptop.authorize(authorizationQuery('app', pkce().challenge));
      assert.ok(again.html.includes('action="/login"'), 'the ended session signs in again');
      assert.equal(await refreshes(laptopRefresh), true, 'its grant stays');
      const gone = await admin.delete(`/admin/v1/users/rita/sessions/${first?.session_id}`);
      assert.equal(gone.status, 404);
      assert.equal((await admin.get('/admin/v1/users/nobody/sessions')).status, 404);
    });

    it('signs the user out everywhere: every session ends, every live grant is revoked; audited with the operator', async () => {
      const browser = new PageBrowser(server);
      const refreshToken = await ritaSignsIn(browser);
      const before_ = (await admin.get('/admin/v1/users/rita/sessions')).body.items.length;
      const answer = await admin.post('/admin/v1/users/rita/sign-out');
      assert.equal(answer.status, 200);
      assert.equal(answer.body.sessions_ended, before_);
      assert.ok(answer.body.grants_revoked >= 3, JSON.stringify(answer.body));
      assert.deepEqual((await admin.get('/admin/v1/users/rita/sessions')).body.items, []);
      assert.equal(await refreshes(refreshToken), false, 'the grant is revoked');
      const events = await admin.get('/admin/v1/audit-events?actor=ops');
      const names = (events.body.items as { event: string }[]).map((e) => e.event);
      assert.ok(names.includes('user_session_ended'), names.join());
      assert.ok(names.includes('user_signed_out_everywhere'), names.join());
      const page = await browser.authorize(authorizationQuery('app', pkce().challenge));
      assert.ok(page.html.includes('action="/login"'), 'and may sign in again');
    });
  });
