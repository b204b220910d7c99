import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { createOrganization, putMember } from '../src/organizations/index.js';
import { newId } from '../src/primitives/ids.js';
import { addUser } from '../src/users/users.js';
import { signedInToAccount } from './_account-mail.js';
import { assertPageHeaders, hiddenField, PageBrowser, PASSWORD, type PageAnswer } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';

/** Posts one of the account page's forms, with its CSRF token. */
const postForm = (browser: PageBrowser, account: PageAnswer, path: string, form: Record<string, string> = {}) =>
  browser.post(path, { csrf_token: hiddenField(account.html, 'csrf_token'), ...form });

for (const dialect of DIALECTS)
  describe(`the user's own data [${dialect}]`, () => {
    let server: TestServer;
    let client: TestClient;
    let users = 0;

    before(async () => {
      server = await startTestServer({ dialect });
      client = await server.addClient({
        id: 'app',
        redirectUris: ['http://127.0.0.1:8765/callback'],
        scope: ['openid', 'email', 'profile', 'contacts:read'],
      });
    });
    after(() => server?.close());

    /** A user with an address, a grant, a group, an organization and a failed sign-in. */
    async function fullUser() {
      const username = `olivia-${++users}`;
      const { store, audit } = server.context;
      const now = server.clock.now();
      const user = await addUser(store, username, PASSWORD, now, { email: `${username}@example.com`, name: 'Olivia' });
      const tokens = await server.issueGrant(client, username, ['openid', 'email', 'contacts:read']);
      const groupId = newId();
      await store.insertGroupIfAbsent({ id: groupId, name: `readers-${users}`, parentId: null, createdAt: now });
      await store.addGroupMember(groupId, user.subject, now);
      await createOrganization(audit, { slug: `acme-${users}`, name: 'Acme Inc.' }, now, CLI_ACTOR);
      await putMember(audit, `acme-${users}`, username, [], now, CLI_ACTOR);
      // A wrong password, typed from an address: an event that names the username and the address.
      const browser = new PageBrowser(server);
      const form = await browser.get('/account');
      const wrong = await browser.post('/account/login', {
        csrf_token: hiddenField(form.html, 'csrf_token'),
        username,
        password: 'not the password',
      });
      assert.ok(wrong.status >= 400);
      return { username, user, tokens };
    }

    it('"Download my data" answers a JSON file of everything stored about the user, and no secret (GDPR Art. 15, 20)', async () => {
      const { username, user } = await fullUser();
      const { browser, account } = await signedInToAccount(server, username);
      assert.match(account.html, /Download my data/);
      assert.match(account.html, /Delete my account/);
      const answer = await postForm(browser, account, '/account/data');
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      assert.match(answer.headers.get('content-disposition') ?? '', /^attachment; filename="account-data\.json"$/);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      const data = JSON.parse(answer.html) as Record<string, any>;
      assert.equal(data.user.subject, user.subject);
      assert.equal(data.user.username, username);
      assert.deepEqual(data.user.claims, { email: `${username}@example.com`, name: 'Olivia' });
      assert.deepEqual(
        data.grants.map((g: { client_id: string; scope: string }) => [g.client_id, g.scope]),
        [['app', 'openid email contacts:read']],
      );
      assert.deepEqual(data.groups, [`readers-${users}`]);
      assert.deepEqual(
        data.organizations.map((o: { slug: string }) => o.slug),
        [`acme-${users}`],
      );
      assert.ok(data.sessions.length >= 1, 'this browser session');
      assert.ok(
        data.sessions.every(
          (s: Record<string, unknown>) => s.signed_in_at === null || typeof s.signed_in_at === 'string',
        ),
      );
      const events = data.audit_events.map((e: { event: string }) => e.event);
      assert.ok(events.includes('login_failed'), `the failed sign-in: ${events}`);
      assert.ok(events.includes('sign_in_step_passed'), `the sign-in: ${events}`);
      // No secret: no password hash, no session cookie digest or CSRF token, no token.
      const text = answer.html;
      assert.doesNotMatch(text, /scrypt\$/);
      assert.ok(!text.includes(hiddenField(account.html, 'csrf_token')), 'no CSRF token');
      assert.doesNotMatch(text, /password_hash|passwordHash|csrf|public_key|secret/i);
      const exported = await server.context.store.listAuditEvents({ event: 'account_data_exported', limit: 10 });
      assert.equal(exported.at(-1)?.subject, user.subject);
    });

    it('"Delete my account" needs a fresh sign-in and the username typed; then the user, its sessions and factors are gone, its grants revoked, its audit kept without personal data (GDPR Art. 17)', async () => {
      const { username, user, tokens } = await fullUser();
      const elsewhere = await signedInToAccount(server, username);
      const { browser, account } = await signedInToAccount(server, username);

      const wrong = await postForm(browser, account, '/account/delete', { username: 'someone-else' });
      assert.equal(wrong.status, 422);
      assert.match(wrong.html, /Type your username to delete the account/);
      assert.ok(await server.context.store.findUser(username), 'nothing deleted');

      // Eleven minutes later the sign-in is stale: the page offers no form, and a post is refused.
      server.clock.advance(11 * 60);
      const stale = await browser.get('/account');
      assert.match(stale.html, /confirm it is you above first/);
      assert.doesNotMatch(stale.html, /name="username" type="text" autocomplete="off"/);
      const refused = await postForm(browser, account, '/account/delete', { username });
      assert.equal(refused.status, 403);
      assert.match(refused.html, /Sign in again to change this/);

      const again = await signedInToAccount(server, username);
      const done = await postForm(again.browser, again.account, '/account/delete', {
        username: username.toUpperCase(),
      });
      assert.equal(done.status, 200, done.html);
      assertPageHeaders(done);
      assert.match(done.html, /Account deleted/);

      const { store } = server.context;
      assert.equal(await store.findUser(username), undefined);
      assert.equal(await store.findUserBySubject(user.subject), undefined);
      assert.deepEqual(await store.listSecondFactors(user.subject), []);
      assert.deepEqual(await store.listMembershipsOf(user.subject), []);
      assert.deepEqual(await store.listGroupNamesOf(user.subject), []);
      // Every browser is signed out, and every application lost its access.
      assert.doesNotMatch((await elsewhere.browser.get('/account')).html, /Download my data/);
      const refreshed = await refresh(server, client, tokens.refresh_token);
      assert.equal(refreshed.status, 400);
      assert.equal(refreshed.body.error, 'invalid_grant');
      const info = await fetch(`${server.url}/userinfo`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      assert.equal(info.status, 401);

      // The audit trail keeps the events, without addresses or the username.
      const kept = await store.listAuditEventsAbout(user.subject, username);
      const names: string[] = kept.map((e) => e.event);
      for (const name of ['login_failed', 'sign_in_step_passed', 'grant_revoked', 'account_deleted'])
        assert.ok(names.includes(name), `${name} kept: ${names.join(', ')}`);
      for (const event of kept) {
        assert.equal(event.address, null, `${event.event} without its address`);
        assert.equal(event.subject, user.subject, `${event.event} names the subject`);
        assert.ok(!(event.reason ?? '').includes(username), `${event.event}'s reason without the username`);
      }
      const all = await store.listAuditEvents({ limit: 10_000 });
      assert.ok(!all.some((e) => e.subject === username), 'no event names the username');
    });

    it('the forms refuse a browser that is not signed in, or a form without its CSRF token', async () => {
      const browser = new PageBrowser(server);
      const form = await browser.get('/account');
      const anonymous = await postForm(browser, form, '/account/data');
      assert.equal(anonymous.status, 303);
      assert.equal(anonymous.location, '/account');
      assert.equal((await browser.post('/account/delete', { username: 'alice' })).status, 403);
      assert.equal((await browser.post('/account/data', {})).status, 403);
    });
  });
