import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newTotpSecret, totpCode } from '../src/factors/totp.js';
import { confirmOtpEnrolment } from '../src/factors/factors.js';
import { per } from '../src/abuse/rate-policies.js';
import { addUser } from '../src/users/users.js';
import { PASSWORD_RESET_TTL } from '../src/accounts/password-reset.js';
import { testMailSettings } from './_account-mail.js';
import {
  assertPageHeaders,
  authorizationQuery,
  hiddenField,
  PageBrowser,
  pkce,
  type PageAnswer,
} from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';
import { TestSmtpServer, type ArrivedMail } from './_smtp.js';
import { until } from './_until.js';

const NEW_PASSWORD = 'plum tractor velvet harbour';

/** The link's secret in a reset mail, from its text body. */
function linkToken(mail: ArrivedMail | undefined): string {
  const match = /\/password-reset\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '');
  assert.ok(match, `a reset link in ${mail?.text}`);
  return match[1] as string;
}

/** Asks for a reset mail as a person would: the form, then its answer. */
async function askForReset(browser: PageBrowser, typed: string, request = ''): Promise<PageAnswer> {
  const form = await browser.get(`/password-reset${request === '' ? '' : `?${new URLSearchParams({ request })}`}`);
  assert.equal(form.status, 200);
  return browser.post('/password-reset', {
    csrf_token: hiddenField(form.html, 'csrf_token'),
    request: hiddenField(form.html, 'request'),
    identifier: typed,
  });
}

/** Opens a link and posts the new password (and a code) on its form. */
async function setPassword(browser: PageBrowser, token: string, password: string, code?: string): Promise<PageAnswer> {
  const form = await browser.get(`/password-reset/confirm?token=${token}`);
  assert.equal(form.status, 200, form.html);
  return browser.post('/password-reset/confirm', {
    csrf_token: hiddenField(form.html, 'csrf_token'),
    token: hiddenField(form.html, 'token'),
    password,
    code,
  });
}

/** The page without the values that differ per answer (none are expected besides the CSRF token). */
const comparable = (page: PageAnswer): string => page.html;

for (const dialect of DIALECTS)
  describe(`password reset by mail [${dialect}]`, () => {
    const smtp = new TestSmtpServer();
    let server: TestServer;
    let client: TestClient;

    before(async () => {
      await smtp.start();
      server = await startTestServer({ dialect, mail: testMailSettings(smtp), rateLimits: {} });
      client = await server.addClient({ id: 'app', redirectUris: ['http://127.0.0.1:8765/callback'] });
      const now = server.clock.now();
      await addUser(server.context.store, 'alice', 'correct horse battery staple', now, { email: 'alice@example.com' });
      await addUser(server.context.store, 'bob', 'correct horse battery staple', now);
      await addUser(server.context.store, 'carol', 'correct horse battery staple', now, { email: 'carol@example.com' });
    });
    after(async () => {
      await server?.close();
      await smtp.stop();
    });

    /** Waits for `count` more mails than `before` and returns the new ones. */
    async function newMails(seen: number, count: number): Promise<ArrivedMail[]> {
      await smtp.waitFor(seen + count);
      return smtp.arrived.slice(seen);
    }

    it('the sign-in page offers "Forgot your password?", carrying the authorization request back', async () => {
      const browser = new PageBrowser(server);
      const query = authorizationQuery('app', pkce().challenge);
      const page = await browser.authorize(query);
      assert.equal(page.status, 200);
      const href = /<a href="([^"]*password-reset[^"]*)">Forgot your password\?<\/a>/.exec(page.html)?.[1];
      assert.ok(href, 'the link is on the sign-in page');
      const form = await browser.get(href.replaceAll('&amp;', '&'));
      assert.equal(form.status, 200);
      assertPageHeaders(form);
      assert.equal(hiddenField(form.html, 'request'), query);
    });

    it('an account by username or address, one without an address, and no account all get the same page (no enumeration)', async () => {
      const seen = smtp.arrived.length;
      const answers: PageAnswer[] = [];
      for (const typed of ['alice', 'ALICE@example.com', 'bob', 'nobody', 'nobody@example.com'])
        answers.push(await askForReset(new PageBrowser(server), typed));
      for (const answer of answers) {
        assert.equal(answer.status, 200);
        assertPageHeaders(answer);
        assert.equal(comparable(answer), comparable(answers[0] as PageAnswer));
      }
      assert.match(answers[0]?.html ?? '', /Check your e-mail/);
      // alice by her username and by her address; bob has no address; nobody is nobody.
      const mails = await newMails(seen, 2);
      await until(async () => (await server.context.store.mailQueue()).waiting === 0, 'the outbox is empty');
      assert.equal(smtp.arrived.length, seen + 2);
      for (const mail of mails) {
        assert.equal(mail.to, 'alice@example.com');
        assert.equal(mail.subject, 'Reset your password');
        assert.match(mail.text, /your account alice/);
        assert.match(mail.html, /Choose a new password/);
      }
      const events = await server.context.store.listAuditEvents({ event: 'password_reset_refused', limit: 10 });
      assert.equal(events.length, 3, 'bob, nobody and nobody@example.com are audited, without a mail');
    });

    it('the link sets a new password once: every browser is signed out, every grant revoked (PASSWORD_RESET_REVOKES_GRANTS)', async () => {
      const signedIn = new PageBrowser(server);
      const query = authorizationQuery('app', pkce().challenge);
      const login = await signedIn.login(await signedIn.authorize(query), 'alice', 'correct horse battery staple');
      assert.equal(login.status, 303);
      const tokens = await server.issueGrant(client, 'alice');

      const seen = smtp.arrived.length;
      await askForReset(new PageBrowser(server), 'alice', query);
      const [mail] = await newMails(seen, 1);
      const token = linkToken(mail);
      const browser = new PageBrowser(server);
      const form = await browser.get(`/password-reset/confirm?token=${token}`);
      assertPageHeaders(form);
      assert.match(form.html, /autocomplete="new-password"/);
      assert.doesNotMatch(form.html, /name="code"/, 'alice has no second factor');
      const done = await setPassword(browser, token, NEW_PASSWORD);
      assert.equal(done.status, 200, done.html);
      assert.match(done.html, /Password changed/);
      assert.ok(done.html.includes(`href="/authorize?${query.replaceAll('&', '&#38;')}"`), 'back to the application');

      const account = await signedIn.get('/account');
      assert.match(
        account.html,
        /name="password"/,
        'the old browser session is gone: the account page asks to sign in',
      );
      const refused = await refresh(server, client, tokens.refresh_token);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error, 'invalid_grant');

      const fresh = new PageBrowser(server);
      const oldPassword = await fresh.login(await fresh.authorize(query), 'alice', 'correct horse battery staple');
      assert.equal(oldPassword.status, 401);
      const newPassword = await fresh.login(await fresh.authorize(query), 'alice', NEW_PASSWORD);
      assert.equal(newPassword.status, 303);

      const again = await browser.get(`/password-reset/confirm?token=${token}`);
      assert.equal(again.status, 400);
      assert.match(again.html, /password-reset-link-invalid/);
      const events = await server.context.store.listAuditEvents({ event: 'password_reset', limit: 10 });
      const alice = await server.context.store.findUser('alice');
      assert.equal(events.at(-1)?.subject, alice?.subject);
      assert.equal(alice?.claims.email_verified, true, 'the link reached the address: it is verified');
    });

    it('a new password is refused when short or common (NIST SP 800-63B §3.1.1.2), and the link still works', async () => {
      const seen = smtp.arrived.length;
      await askForReset(new PageBrowser(server), 'carol');
      const token = linkToken((await newMails(seen, 1))[0]);
      const browser = new PageBrowser(server);
      for (const [password, words] of [
        ['short', /at least 8 characters/],
        ['password1', /common, was leaked/],
        ['carol@example.com', /common, was leaked/],
        ['x'.repeat(1025), /at most 1024/],
      ] as const) {
        const refused = await setPassword(browser, token, password);
        assert.equal(refused.status, 422, password);
        assert.match(refused.html, /Choose another password/);
        assert.match(refused.html, words);
      }
      assert.equal((await setPassword(browser, token, 'Ünïcödé pässwörd ☂ 2026')).status, 200);
    });

    it('a link is refused after 30 minutes, and a newer link ends the older ones once used', async () => {
      const seen = smtp.arrived.length;
      await askForReset(new PageBrowser(server), 'carol');
      const [first] = await newMails(seen, 1);
      await askForReset(new PageBrowser(server), 'carol');
      const [second] = await newMails(seen + 1, 1);
      const browser = new PageBrowser(server);
      assert.equal((await setPassword(browser, linkToken(second), NEW_PASSWORD)).status, 200);
      assert.equal((await browser.get(`/password-reset/confirm?token=${linkToken(first)}`)).status, 400);

      await askForReset(new PageBrowser(server), 'carol');
      const [late] = await newMails(seen + 2, 1);
      server.clock.advance(PASSWORD_RESET_TTL);
      const expired = await browser.get(`/password-reset/confirm?token=${linkToken(late)}`);
      assert.equal(expired.status, 400);
      assert.match(expired.html, /This password reset link no longer works/);
    });

    it('a user with two-step verification gives a code of the app or a recovery code first', async () => {
      const { store, audit, signIn } = server.context;
      const now = server.clock.now();
      const dave = await addUser(store, 'dave', 'correct horse battery staple', now, { email: 'dave@example.com' });
      const secret = newTotpSecret();
      const enrolled = await confirmOtpEnrolment(audit, signIn.factors, {
        subject: dave.subject,
        secret,
        code: totpCode(secret, now),
        now,
      });
      assert.ok(enrolled.ok);
      server.clock.advance(60);
      const seen = smtp.arrived.length;
      await askForReset(new PageBrowser(server), 'dave@example.com');
      const token = linkToken((await newMails(seen, 1))[0]);
      const browser = new PageBrowser(server);
      const form = await browser.get(`/password-reset/confirm?token=${token}`);
      assert.match(form.html, /name="code"/);
      const wrong = await setPassword(browser, token, NEW_PASSWORD, '000000');
      assert.equal(wrong.status, 401);
      assert.match(wrong.html, /That code did not work/);
      const none = await setPassword(browser, token, NEW_PASSWORD, '');
      assert.equal(none.status, 401);
      const withRecoveryCode = await setPassword(browser, token, NEW_PASSWORD, enrolled.recoveryCodes[0]);
      assert.equal(withRecoveryCode.status, 200);

      await askForReset(new PageBrowser(server), 'dave');
      const second = linkToken((await newMails(seen + 1, 1))[0]);
      server.clock.advance(60);
      const withAppCode = await setPassword(
        browser,
        second,
        'another fine passphrase',
        totpCode(secret, server.clock.now()),
      );
      assert.equal(withAppCode.status, 200);
    });

    it('50 concurrent uses of one link: exactly one sets the password, the others are refused', async () => {
      const seen = smtp.arrived.length;
      await askForReset(new PageBrowser(server), 'carol');
      const token = linkToken((await newMails(seen, 1))[0]);
      const browsers = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const browser = new PageBrowser(server);
          const form = await browser.get(`/password-reset/confirm?token=${token}`);
          return { browser, csrf: hiddenField(form.html, 'csrf_token') };
        }),
      );
      const answers = await Promise.all(
        browsers.map(({ browser, csrf }, i) =>
          browser.post('/password-reset/confirm', { csrf_token: csrf, token, password: `race winner number ${i}` }),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [200, ...Array<number>(49).fill(400)]);
      const winner = answers.findIndex((a) => a.status === 200);
      const fresh = new PageBrowser(server);
      const query = authorizationQuery('app', pkce().challenge);
      const login = await fresh.login(await fresh.authorize(query), 'carol', `race winner number ${winner}`);
      assert.equal(login.status, 303, 'the winning password is the one set');
    });

    it('the SMTP server down while 100 resets are asked: every page answers, every mail arrives once it is back, none twice', async () => {
      const { store } = server.context;
      const now = server.clock.now();
      const names = Array.from({ length: 100 }, (_, i) => `outage-${i}`);
      for (const name of names)
        await addUser(store, name, 'correct horse battery staple', now, { email: `${name}@example.com` });
      const seen = smtp.arrived.length;
      await smtp.stop();
      const browser = new PageBrowser(server);
      const form = await browser.get('/password-reset');
      const csrf = hiddenField(form.html, 'csrf_token');
      const answers = await Promise.all(
        names.map((identifier) => browser.post('/password-reset', { csrf_token: csrf, request: '', identifier })),
      );
      assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
      await until(async () => (await store.mailQueue()).waiting >= 100, 'the 100 mails are queued');
      assert.equal(smtp.arrived.length, seen, 'nothing arrives while the SMTP server is down');
      await smtp.start();
      const mails = await newMails(seen, 100);
      await until(async () => (await store.mailQueue()).waiting === 0, 'the outbox is empty', 60_000);
      assert.equal(smtp.arrived.length, seen + 100, 'none twice');
      assert.deepEqual(mails.map((m) => m.to).sort(), names.map((n) => `${n}@example.com`).sort());
      assert.equal(new Set(mails.map((m) => m.messageId)).size, 100);
    });

    it('hostile input on both forms gets a clear page, never a 5xx, and no mail header is injected', async () => {
      const seen = smtp.arrived.length;
      const hostile = [
        'alice\r\nBcc: mallory@evil.test',
        'alice@example.com\r\nBcc: mallory@evil.test',
        'alice\u0000',
        '<script>alert(1)</script>@example.com',
        'x'.repeat(20_000),
        '"alice@example.com" <mallory@evil.test>',
        'alice@example.com, mallory@evil.test',
      ];
      for (const typed of hostile) {
        const answer = await askForReset(new PageBrowser(server), typed);
        assert.ok(
          answer.status === 200 || answer.status === 413,
          `${answer.status} for ${JSON.stringify(typed.slice(0, 40))}`,
        );
        assert.doesNotMatch(answer.html, /<script>alert/);
      }
      const browser = new PageBrowser(server);
      for (const token of ['', 'x', '\u0000', '<b>', 'a'.repeat(43), 'a'.repeat(5000)]) {
        const answer = await browser.get(`/password-reset/confirm?${new URLSearchParams({ token })}`);
        assert.equal(answer.status, 400, JSON.stringify(token.slice(0, 10)));
        assert.match(answer.html, /This password reset link no longer works/);
      }
      const form = await browser.get('/password-reset');
      const posted = await browser.post('/password-reset/confirm', {
        csrf_token: hiddenField(form.html, 'csrf_token'),
        token: 'a'.repeat(43),
        password: 'pass\u0000word\r\nwith <markup>',
      });
      assert.equal(posted.status, 400);
      await until(async () => (await server.context.store.mailQueue()).waiting === 0, 'the outbox is empty');
      for (const mail of smtp.arrived.slice(seen)) {
        assert.equal(mail.to, 'alice@example.com');
        assert.equal(mail.headers.get('bcc'), undefined);
      }
    });
  });

describe('password reset limits', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      rateLimits: { password_reset_account: per(2, 'h'), password_reset_address: per(5, 'h') },
    });
    await addUser(server.context.store, 'alice', 'correct horse battery staple', server.clock.now(), {
      email: 'alice@example.com',
    });
  });
  after(() => server?.close());

  it('per account asked for, alike for an account and for nobody; then per address', async () => {
    for (const typed of ['alice', 'nobody']) {
      assert.equal((await askForReset(new PageBrowser(server), typed)).status, 200);
      assert.equal((await askForReset(new PageBrowser(server), typed.toUpperCase())).status, 200);
      const refused = await askForReset(new PageBrowser(server), typed);
      assert.equal(refused.status, 429);
      assert.match(refused.html, /Too many password reset requests/);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
    }
    // Five requests from this address so far: the sixth is refused whatever it names.
    const byAddress = await askForReset(new PageBrowser(server), 'someone-else');
    assert.equal(byAddress.status, 429);
  });
});
