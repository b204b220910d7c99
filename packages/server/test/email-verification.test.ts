import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EMAIL_VERIFICATION_TTL } from '../src/accounts/email-verification.js';
import { addUser } from '../src/users/users.js';
import {
  addMailApp,
  addUserWithAddress,
  mailedLinkAndCode,
  signedInToAccount,
  startMailedServer,
  userinfoOf,
  type MailedServer,
} from './_account-mail.js';
import {
  assertPageHeaders,
  authorizationQuery,
  callbackParams,
  CALLBACK,
  hiddenField,
  PageBrowser,
  PASSWORD,
  pkce,
  type PageAnswer,
} from './_authorize.js';
import { assertOkJson } from './_oauth-assertions.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';
import type { TestSmtpServer } from './_smtp.js';

/** The account page's button: a verification mail. */
async function askForMail(browser: PageBrowser, account: PageAnswer): Promise<PageAnswer> {
  return browser.post('/email-verification/send', { csrf_token: hiddenField(account.html, 'csrf_token') });
}

for (const dialect of DIALECTS)
  describe(`e-mail verification [${dialect}]`, () => {
    let mailed: MailedServer;
    let server: TestServer;
    let smtp: TestSmtpServer;
    let client: TestClient;
    let users = 0;

    before(async () => {
      mailed = await startMailedServer({ dialect });
      ({ server, smtp } = mailed);
      client = await addMailApp(server);
    });
    after(() => mailed?.close());

    async function newUser(): Promise<string> {
      const username = `verifying-${++users}`;
      await addUserWithAddress(server, username, false);
      return username;
    }

    async function emailVerified(username: string): Promise<unknown> {
      return (await userinfoOf(server, client, username)).email_verified;
    }

    it('the account page sends a mail with a link and a code; the link verifies the address once, and userinfo says so', async () => {
      const username = await newUser();
      assert.equal(await emailVerified(username), false);
      const { browser, account } = await signedInToAccount(server, username);
      assert.match(account.html, /not verified yet/);
      const seen = smtp.arrived.length;
      const sent = await askForMail(browser, account);
      assert.equal(sent.status, 303);
      assert.equal(sent.location, '/account?done=verification_sent');
      const [mail] = (await smtp.waitFor(seen + 1)).slice(seen);
      assert.equal(mail?.to, `${username}@example.com`);
      assert.equal(mail?.subject, 'Verify your e-mail address');
      const { token } = mailedLinkAndCode(mail);

      // A mail scanner that follows the link verifies nothing: GET shows a button.
      const anywhere = new PageBrowser(server);
      const page = await anywhere.get(`/email-verification?token=${token}`);
      assert.equal(page.status, 200);
      assertPageHeaders(page);
      assert.equal(await emailVerified(username), false);
      const done = await anywhere.post('/email-verification', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        token,
      });
      assert.equal(done.status, 200, done.html);
      assert.match(done.html, /Address verified/);
      assert.equal(await emailVerified(username), true);
      assert.match((await browser.get('/account')).html, /· verified/);

      const again = await anywhere.get(`/email-verification?token=${token}`);
      assert.equal(again.status, 400);
      assert.match(again.html, /This verification link no longer works/);
      const events = await server.context.store.listAuditEvents({ event: 'email_verified', limit: 100 });
      assert.equal(events.at(-1)?.reason, 'link');
    });

    it("the code of the newest mail verifies instead; a wrong code, an older mail's code or a used one is refused", async () => {
      const username = await newUser();
      const { browser, account } = await signedInToAccount(server, username);
      const seen = smtp.arrived.length;
      await askForMail(browser, account);
      const first = mailedLinkAndCode((await smtp.waitFor(seen + 1))[seen]);
      await askForMail(browser, account);
      const second = mailedLinkAndCode((await smtp.waitFor(seen + 2))[seen + 1]);
      const form = await browser.get('/email-verification/code');
      assert.equal(form.status, 200);
      const post = (code: string) =>
        browser.post('/email-verification/code', { csrf_token: hiddenField(form.html, 'csrf_token'), code });
      const wrong = await post(second.code === '000000' ? '000001' : '000000');
      assert.equal(wrong.status, 401);
      assert.match(wrong.html, /That verification code did not work/);
      if (first.code !== second.code) assert.equal((await post(first.code)).status, 401, 'the older mail was ended');
      assert.equal((await browser.get(`/email-verification?token=${first.token}`)).status, 400);
      const right = await post(second.code);
      assert.equal(right.status, 303);
      assert.equal(right.location, '/account?done=email_verified');
      assert.equal(await emailVerified(username), true);
      assert.equal(
        (await browser.get(`/email-verification?token=${second.token}`)).status,
        400,
        'the code used the link',
      );
    });

    it('a link is refused after 24 hours, and when the address changed since it was sent', async () => {
      const username = await newUser();
      const { browser, account } = await signedInToAccount(server, username);
      const seen = smtp.arrived.length;
      await askForMail(browser, account);
      const { token } = mailedLinkAndCode((await smtp.waitFor(seen + 1))[seen]);
      const { store } = server.context;
      const user = await store.findUser(username);
      await store.updateUserClaims(username, { ...user?.claims, email: 'other@example.com' }, server.clock.now());
      assert.equal((await browser.get(`/email-verification?token=${token}`)).status, 400);
      await store.updateUserClaims(username, { ...user?.claims }, server.clock.now());
      server.clock.advance(EMAIL_VERIFICATION_TTL);
      assert.equal((await browser.get(`/email-verification?token=${token}`)).status, 400);
    });

    it('50 concurrent uses of one link: exactly one verifies, the others are refused', async () => {
      const username = await newUser();
      const { browser, account } = await signedInToAccount(server, username);
      const seen = smtp.arrived.length;
      await askForMail(browser, account);
      const { token } = mailedLinkAndCode((await smtp.waitFor(seen + 1))[seen]);
      const browsers = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const other = new PageBrowser(server);
          const page = await other.get(`/email-verification?token=${token}`);
          return { other, csrf: hiddenField(page.html, 'csrf_token') };
        }),
      );
      const answers = await Promise.all(
        browsers.map(({ other, csrf }) => other.post('/email-verification', { csrf_token: csrf, token })),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, ...Array<number>(49).fill(400)]);
      const events = await server.context.store.listAuditEvents({ event: 'email_verified', limit: 1000 });
      const subject = (await server.context.store.findUser(username))?.subject;
      assert.equal(events.filter((e) => e.subject === subject).length, 1);
    });

    it('hostile tokens and codes get a clear page, never a 5xx', async () => {
      const username = await newUser();
      const { browser } = await signedInToAccount(server, username);
      for (const token of ['', '\u0000', '<script>', 'a'.repeat(43), 'b'.repeat(9000)]) {
        const page = await browser.get(`/email-verification?${new URLSearchParams({ token })}`);
        assert.equal(page.status, 400);
      }
      const form = await browser.get('/email-verification/code');
      for (const code of ['\u0000\r\n', '<b>1</b>', '1'.repeat(5000), '12345 ']) {
        const page = await browser.post('/email-verification/code', {
          csrf_token: hiddenField(form.html, 'csrf_token'),
          code,
        });
        assert.ok(page.status === 401 || page.status === 429, `${page.status}`);
        assert.doesNotMatch(page.html, /<b>1<\/b>/);
      }
    });
  });

describe('EMAIL_VERIFICATION=off', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ emailVerification: 'off' });
    await addUser(server.context.store, 'alice', PASSWORD, server.clock.now(), { email: 'alice@example.com' });
  });
  after(() => server?.close());

  it('the account page offers no verification, and its routes are not found', async () => {
    const { browser, account } = await signedInToAccount(server, 'alice');
    assert.doesNotMatch(account.html, /email-verification/);
    assert.equal((await browser.get('/email-verification/code')).status, 404);
    assert.equal((await askForMail(browser, account)).status, 404);
  });
});

for (const dialect of DIALECTS)
  describe(`EMAIL_VERIFICATION=required at sign-in [${dialect}]`, () => {
    let mailed: MailedServer;
    let server: TestServer;
    let smtp: TestSmtpServer;
    let client: TestClient;

    before(async () => {
      mailed = await startMailedServer({ dialect, emailVerification: 'required' });
      ({ server, smtp } = mailed);
      client = await server.addClient({ id: 'app', redirectUris: [CALLBACK], scope: ['openid', 'email'] });
    });
    after(() => mailed?.close());

    it('stops after the password at a mailed code: no code before it, a wrong code refused, the right one goes on to email_verified in the ID token', async () => {
      await addUser(server.context.store, 'unverified', PASSWORD, server.clock.now(), {
        email: 'unverified@example.com',
        email_verified: false,
      });
      const browser = new PageBrowser(server);
      const { verifier, challenge } = pkce();
      const query = authorizationQuery(client.id, challenge, { scope: 'openid email', nonce: 'n' });
      const seen = smtp.arrived.length;
      const signIn = await browser.authorize(query);
      const stopped = await browser.login(signIn, 'unverified', PASSWORD);
      assert.equal(stopped.status, 200, stopped.html);
      assertPageHeaders(stopped);
      assert.match(stopped.html, /Verify your e-mail address/);
      assert.match(stopped.html, /unverified@example\.com/);
      const [mail] = (await smtp.waitFor(seen + 1)).slice(seen);
      assert.equal(mail?.to, 'unverified@example.com');
      const { code } = mailedLinkAndCode(mail);

      // Pending: /authorize shows the verification again, never a code or the consent.
      const again = await browser.authorize(query);
      assert.equal(again.status, 200);
      assert.match(again.html, /Verify your e-mail address/);
      assert.doesNotMatch(again.html, /action="\/consent"/);

      const step = (typed: string): Promise<PageAnswer> =>
        browser.post('/login', {
          csrf_token: hiddenField(stopped.html, 'csrf_token'),
          request: hiddenField(stopped.html, 'request'),
          method: 'verify_email',
          code: typed,
        });
      const wrong = await step(code === '000000' ? '111111' : '000000');
      assert.equal(wrong.status, 401, wrong.html);
      assert.match(wrong.html, /Verify your e-mail address/);

      const right = await step(code);
      assert.equal(right.status, 303, right.html);
      let page = await browser.get(right.location as string);
      if (page.status === 200) page = await browser.consent(page, 'allow');
      const params = callbackParams(page.location);
      const tokens = await assertOkJson(
        await server.post(
          '/token',
          {
            grant_type: 'authorization_code',
            code: params.code as string,
            redirect_uri: CALLBACK,
            code_verifier: verifier,
          },
          { as: client },
        ),
      );
      const claims = JSON.parse(
        Buffer.from((tokens.id_token as string).split('.')[1] as string, 'base64url').toString(),
      ) as Record<string, unknown>;
      assert.equal(claims.email_verified, true);
    });

    it('a verified user signs in straight on; a user with no address stops at a page that says why, with no form', async () => {
      await addUser(server.context.store, 'verified', PASSWORD, server.clock.now(), {
        email: 'verified@example.com',
        email_verified: true,
      });
      await addUser(server.context.store, 'addressless', PASSWORD, server.clock.now(), {});
      const { challenge } = pkce();
      const query = authorizationQuery(client.id, challenge, { scope: 'openid email', nonce: 'n' });
      const straight = new PageBrowser(server);
      const done = await straight.login(await straight.authorize(query), 'verified', PASSWORD);
      assert.equal(done.status, 303, done.html);

      const none = new PageBrowser(server);
      const signIn = await none.authorize(query);
      const stopped = await none.login(signIn, 'addressless', PASSWORD);
      // The catalog's email_address_missing: its status and its title.
      assert.equal(stopped.status, 403, stopped.html);
      assert.match(stopped.html, /has no e-mail address/);
      assert.match(stopped.html, /This account has no e-mail address to verify/);
      assert.doesNotMatch(stopped.html, /name="code"/);
      const forced = await none.post('/login', {
        csrf_token: hiddenField(signIn.html, 'csrf_token'),
        request: hiddenField(signIn.html, 'request'),
        method: 'verify_email',
        code: '123456',
      });
      assert.notEqual(forced.status, 303);
    });
  });
