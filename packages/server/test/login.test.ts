import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { SESSION_IDLE_TTL } from '../src/authorize/sessions.js';
import { startServer } from '../src/server.js';
import { addUser } from '../src/users/users.js';
import {
  addTestUser,
  assertPageHeaders,
  authorizationQuery,
  CALLBACK,
  PageBrowser,
  PASSWORD,
  pkce,
  type PageAnswer,
} from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';
import { DEFAULT_RATE_LIMITS } from '../src/rate-limits.js';

/** The default sign-in limits (10 failures per username per hour), with 12 failures per address per hour. */
const LOGIN_LIMITS = {
  login_address: DEFAULT_RATE_LIMITS.login_address,
  login_client: DEFAULT_RATE_LIMITS.login_client,
  login_failure_user: DEFAULT_RATE_LIMITS.login_failure_user,
  login_failure_address: { limit: 12, periodMs: 3_600_000 },
};

for (const dialect of DIALECTS)
  describe(`POST /login: signing in on the authorization pages [${dialect}]`, () => {
    let server: TestServer;
    const { challenge } = pkce();
    const query = authorizationQuery('app', challenge);

    before(async () => {
      server = await startTestServer({ dialect, rateLimits: LOGIN_LIMITS });
      await server.addClient({ id: 'app', name: 'Contacts Sync', public: true, redirectUris: [CALLBACK] });
      await addTestUser(server, 'alice');
      await addTestUser(server, 'bob');
    });
    after(() => server.close());
    // Each test starts with the rate limits' periods behind it.
    beforeEach(() => server.clock.advance(3600));

    async function loginPage(): Promise<{ browser: PageBrowser; page: PageAnswer }> {
      const browser = new PageBrowser(server);
      return { browser, page: await browser.authorize(query) };
    }

    /** Signed in or not, as GET /authorize shows it. */
    async function isSignedIn(browser: PageBrowser): Promise<boolean> {
      const page = await browser.authorize(query);
      return !page.html.includes('action="/login"');
    }

    it('the right password starts a new session (a new cookie) and goes back to /authorize with 303', async () => {
      const { browser, page } = await loginPage();
      const anonymous = browser.cookie;
      const answer = await browser.login(page, 'alice', PASSWORD);
      assert.equal(answer.status, 303);
      assert.equal(answer.location, `/authorize?${query}`);
      assert.notEqual(browser.cookie, anonymous, 'session fixation: the cookie changes at sign-in');
      assert.ok(await isSignedIn(browser));
      const planted = new PageBrowser(server);
      planted.cookie = anonymous;
      assert.equal(await isSignedIn(planted), false, 'the cookie from before sign-in is worth nothing');
    });

    it('the username is found whatever its case (phones capitalise it)', async () => {
      const { browser, page } = await loginPage();
      assert.equal((await browser.login(page, ' Alice ', PASSWORD)).status, 303);
    });

    it('a wrong password gets 401 and the sign-in page again with "Wrong username or password"; nothing is granted', async () => {
      const { browser, page } = await loginPage();
      const answer = await browser.login(page, 'alice', 'wrong password');
      assert.equal(answer.status, 401);
      assert.equal(answer.location, undefined);
      assertPageHeaders(answer);
      assert.match(answer.html, /<div class="alert" role="alert"><strong>Wrong username or password<\/strong>/);
      assert.match(answer.html, /name="username" type="text" value="alice"/);
      assert.equal(await isSignedIn(browser), false);
    });

    it('an unknown username gets exactly the same answer as a wrong password', async () => {
      const one = await loginPage();
      const two = await loginPage();
      const wrongPassword = await one.browser.login(one.page, 'alice', 'wrong password');
      const unknownUser = await two.browser.login(two.page, 'alicia', 'wrong password');
      assert.equal(unknownUser.status, wrongPassword.status);
      const alertOf = (html: string): string | undefined => /<div class="alert".*?<\/div>/.exec(html)?.[0];
      assert.equal(alertOf(unknownUser.html), alertOf(wrongPassword.html));
    });

    describe("CSRF: the form is accepted only with its session's token", () => {
      async function assertCsrfRefused(answer: PageAnswer, browser: PageBrowser): Promise<void> {
        assert.equal(answer.status, 403, answer.html);
        assert.equal(answer.location, undefined);
        assertPageHeaders(answer);
        assert.match(answer.html, /<h1>This form has expired<\/h1>/);
        assert.match(answer.html, /csrf_token_invalid/);
        assert.equal(await isSignedIn(browser), false, 'not signed in');
      }

      it('without the token: 403, not signed in, even with the right password', async () => {
        const { browser, page } = await loginPage();
        await assertCsrfRefused(await browser.login(page, 'alice', PASSWORD, { csrf_token: undefined }), browser);
      });

      it('with a wrong token: 403', async () => {
        const { browser, page } = await loginPage();
        await assertCsrfRefused(await browser.login(page, 'alice', PASSWORD, { csrf_token: 'A'.repeat(43) }), browser);
      });

      it("with the token of another browser's session: 403", async () => {
        const mine = await loginPage();
        const theirs = await loginPage();
        await assertCsrfRefused(await mine.browser.login(theirs.page, 'alice', PASSWORD), mine.browser);
      });

      it('without a session cookie (a cross-site POST): 403', async () => {
        const { page } = await loginPage();
        const stranger = new PageBrowser(server);
        await assertCsrfRefused(await stranger.login(page, 'alice', PASSWORD), stranger);
      });

      it('after the session ended (an hour idle): 403', async () => {
        const { browser, page } = await loginPage();
        server.clock.advance(SESSION_IDLE_TTL);
        await assertCsrfRefused(await browser.login(page, 'alice', PASSWORD), browser);
      });
    });

    it('a tampered request in the form is checked again: an unregistered redirect_uri gets the error page', async () => {
      const { browser, page } = await loginPage();
      const tampered = authorizationQuery('app', challenge, { redirect_uri: 'https://attacker.example/cb' });
      const answer = await browser.login(page, 'alice', PASSWORD, { request: tampered });
      assert.equal(answer.status, 400);
      assert.equal(answer.location, undefined);
      assert.equal(await isSignedIn(browser), false);
    });

    describe('repeated failures are limited (per username and per address)', () => {
      async function failures(username: string, count: number): Promise<PageAnswer> {
        let answer: PageAnswer | undefined;
        for (let i = 0; i < count; i++) {
          const { browser, page } = await loginPage();
          answer = await browser.login(page, username, 'wrong password');
        }
        return answer as PageAnswer;
      }

      it('after 10 failures for a username, the 11th attempt gets 429 with Retry-After, even with the right password', async () => {
        assert.equal((await failures('alice', 10)).status, 401);
        const { browser, page } = await loginPage();
        const refused = await browser.login(page, 'alice', PASSWORD);
        assert.equal(refused.status, 429);
        assert.equal(refused.headers.get('retry-after'), '360', 'one more attempt every 6 minutes (10 per hour)');
        assert.match(refused.html, /Too many sign-in attempts/);
        assert.match(refused.html, /Try again in 6 minutes/);
        assert.equal(await isSignedIn(browser), false);
      });

      it('then one attempt per interval; a refused attempt costs nothing and a success does not count', async () => {
        await failures('bob', 10);
        const { browser, page } = await loginPage();
        assert.equal((await browser.login(page, 'bob', PASSWORD)).status, 429);
        assert.equal((await failures('bob', 3)).status, 429, 'still refused, and not for longer');
        assert.equal(
          (await loginPage().then(({ browser: b, page: p }) => b.login(p, 'bob', PASSWORD))).headers.get('retry-after'),
          '360',
        );
        server.clock.advance(360);
        const signedIn = await loginPage();
        assert.equal(
          (await signedIn.browser.login(signedIn.page, 'bob', PASSWORD)).status,
          303,
          'the right password after the wait',
        );
        assert.equal((await failures('bob', 1)).status, 401, 'the success left the free attempt free');
        assert.equal((await failures('bob', 1)).status, 429);
      });

      it('failures spread over usernames from one address are counted for the address', async () => {
        for (let i = 1; i <= 12; i++) assert.equal((await failures(`u${i}`, 1)).status, 401);
        const { browser, page } = await loginPage();
        assert.equal((await browser.login(page, 'alice', PASSWORD)).status, 429);
      });
    });
  });

describe('the session cookie behind https', () => {
  it('is Secure when the issuer is https (the server itself may listen on plain http behind a proxy)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-https-'));
    const server = await startServer({
      databaseUrl: `sqlite:${join(dir, 'x.db')}`,
      issuer: 'https://auth.example',
      port: 0,
      host: '127.0.0.1',
    });
    try {
      const { store, clock } = server.context;
      await addUser(store, 'alice', PASSWORD, clock.now());
      const { registerClient } = await import('../src/oauth/clients/clients.js');
      await registerClient(
        store,
        { id: 'app', name: 'App', public: true, scope: ['contacts:read'], redirectUris: [CALLBACK] },
        clock.now(),
      );
      const page = await fetch(`${server.url}/authorize?${authorizationQuery('app', pkce().challenge)}`, {
        redirect: 'manual',
      });
      assert.equal(page.status, 200);
      const cookie = page.headers.get('set-cookie') ?? '';
      for (const attribute of ['HttpOnly', 'SameSite=Lax', 'Secure', 'Path=/'])
        assert.match(cookie, new RegExp(`; ${attribute}(;|$)`), attribute);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
