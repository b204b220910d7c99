import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { per } from '../src/abuse/rate-policies.js';
import { signUpAllowed } from '../src/accounts/sign-up.js';
import { DEFAULT_DELIVERY_POLICY, smtpSettingsFrom, type MailSettings } from '../src/mail/index.js';
import { addUser } from '../src/users/users.js';
import {
  assertPageHeaders,
  authorizationQuery,
  hiddenField,
  PageBrowser,
  PASSWORD,
  pkce,
  type PageAnswer,
} from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';
import { TestSmtpServer, type ArrivedMail } from './_smtp.js';
import { comparable, headerNames, verificationToken } from './_sign-up.js';
import { TEST_CA } from './_tls.js';
import { until } from './_until.js';

const FAST = { ...DEFAULT_DELIVERY_POLICY, pollMs: 100, retryMs: 50, maxRetryMs: 400, maxAttempts: 1000 };
const NEW_PASSWORD = 'plum tractor velvet harbour';

function smtpSettings(smtp: TestSmtpServer): MailSettings {
  return { transport: smtpSettingsFrom(smtp.url, TEST_CA), from: 'Gatehouse <no-reply@gatehouse.test>', policy: FAST };
}

/** Signs up as a person would: the form, then its answer. */
async function signUp(
  browser: PageBrowser,
  fields: { email: string; name?: string; password?: string },
  request = '',
): Promise<PageAnswer> {
  const form = await browser.get(`/sign-up${request === '' ? '' : `?${new URLSearchParams({ request })}`}`);
  assert.equal(form.status, 200, form.html);
  return browser.post('/sign-up', {
    csrf_token: hiddenField(form.html, 'csrf_token'),
    request: hiddenField(form.html, 'request'),
    email: fields.email,
    name: fields.name ?? 'Dana Doe',
    password: fields.password ?? NEW_PASSWORD,
  });
}

/** An href as the page escaped it, as the browser follows it. */
const followed = (href: string | undefined): string | undefined =>
  href?.replaceAll('&#38;', '&').replaceAll('&amp;', '&');

for (const dialect of DIALECTS)
  describe(`sign-up [${dialect}]`, () => {
    const smtp = new TestSmtpServer();
    let server: TestServer;
    let client: TestClient;

    before(async () => {
      await smtp.start();
      server = await startTestServer({
        dialect,
        mail: smtpSettings(smtp),
        signUp: { mode: 'open', domains: [] },
      });
      client = await server.addClient({
        id: 'app',
        redirectUris: ['http://127.0.0.1:8765/callback'],
        scope: ['openid', 'email', 'profile', 'contacts:read'],
      });
      await addUser(server.context.store, 'alice', PASSWORD, server.clock.now(), { email: 'alice@example.com' });
    });
    after(async () => {
      await server?.close();
      await smtp.stop();
    });

    async function newMails(seen: number, count: number): Promise<ArrivedMail[]> {
      await smtp.waitFor(seen + count);
      return smtp.arrived.slice(seen, seen + count);
    }

    async function claimsOf(username: string): Promise<Record<string, unknown>> {
      const tokens = await server.issueGrant(client, username, ['openid', 'email', 'profile']);
      const info = await fetch(`${server.url}/userinfo`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      assert.equal(info.status, 200);
      return (await info.json()) as Record<string, unknown>;
    }

    it('the sign-in page offers "Create an account", carrying the authorization request on', async () => {
      const browser = new PageBrowser(server);
      const query = authorizationQuery('app', pkce().challenge);
      const page = await browser.authorize(query);
      const href = followed(/<a href="([^"]*sign-up[^"]*)">Create an account<\/a>/.exec(page.html)?.[1]);
      assert.ok(href, `the link is on the sign-in page: ${page.html}`);
      const form = await browser.get(href);
      assert.equal(form.status, 200);
      assertPageHeaders(form);
      assert.equal(hiddenField(form.html, 'request'), query);
    });

    it('a new address: the account is created unverified, the mail verifies it, and the page after leads back to the request', async () => {
      const seen = smtp.arrived.length;
      const query = authorizationQuery('app', pkce().challenge);
      const answer = await signUp(new PageBrowser(server), { email: 'Dana@Example.com' }, query);
      assert.equal(answer.status, 200, answer.html);
      assertPageHeaders(answer);
      assert.match(answer.html, /Check your e-mail/);
      const [mail] = await newMails(seen, 1);
      assert.equal(mail?.to, 'dana@example.com');
      assert.equal(mail?.subject, 'Verify your e-mail address');
      assert.match(mail?.text ?? '', /your account dana@example\.com/);
      const user = await server.context.store.findUser('dana@example.com');
      assert.equal(user?.claims.name, 'Dana Doe');
      assert.equal(user?.claims.email_verified, false);
      assert.equal((await claimsOf('dana@example.com')).email_verified, false);

      const browser = new PageBrowser(server);
      const token = verificationToken(mail);
      const link = await browser.get(`/email-verification?token=${token}`);
      const done = await browser.post('/email-verification', {
        csrf_token: hiddenField(link.html, 'csrf_token'),
        token,
      });
      assert.equal(done.status, 200, done.html);
      const next = /<a class="button primary wide" href="([^"]*)">Sign in<\/a>/.exec(done.html)?.[1];
      assert.equal(followed(next), `/authorize?${query}`);
      const claims = await claimsOf('dana@example.com');
      assert.equal(claims.email_verified, true);
      assert.equal(claims.name, 'Dana Doe');
      // The password of the form signs in.
      const signIn = await browser.authorize(query);
      const signedIn = await browser.login(signIn, 'dana@example.com', NEW_PASSWORD);
      assert.equal(signedIn.status, 303, signedIn.html);
      const events = await server.context.store.listAuditEvents({ event: 'signed_up', limit: 10 });
      assert.equal(events.at(-1)?.subject, user?.subject);
    });

    it('an address with an account gets the same page as a new one; its owner is told, nothing is created (no enumeration)', async () => {
      const seen = smtp.arrived.length;
      const taken = await signUp(new PageBrowser(server), { email: 'ALICE@example.com', name: 'Mallory' });
      const fresh = await signUp(new PageBrowser(server), { email: 'erin@example.com', name: 'Mallory' });
      assert.equal(taken.status, 200);
      assert.equal(fresh.status, 200);
      assert.equal(comparable(taken), comparable(fresh));
      assert.deepEqual(headerNames(taken), headerNames(fresh));
      const mails = await newMails(seen, 2);
      const owner = mails.find((m) => m.to === 'alice@example.com');
      assert.equal(owner?.subject, 'Someone tried to sign up with your address');
      assert.match(owner?.text ?? '', /your account alice already\. No account was created\./);
      assert.match(owner?.text ?? '', /\/password-reset/);
      assert.equal(mails.find((m) => m.to === 'erin@example.com')?.subject, 'Verify your e-mail address');
      const alices = await server.context.store.listUsersWithEmail('alice@example.com');
      assert.deepEqual(
        alices.map((u) => u.username),
        ['alice'],
      );
      const refused = await server.context.store.listAuditEvents({ event: 'sign_up_refused', limit: 10 });
      assert.equal(refused.at(-1)?.reason, 'address already registered');
    });

    it('refused forms say why and create nothing: not an address, a weak password (NIST SP 800-63B §3.1.1.2), no name', async () => {
      const seen = smtp.arrived.length;
      const cases = [
        [{ email: 'not an address' }, /This e-mail address cannot be used to sign up/],
        [{ email: 'frank@example.com', password: 'password1' }, /Choose another password/],
        [{ email: 'frank@example.com', password: 'short' }, /Use at least 8 characters/],
        [{ email: 'frank@example.com', name: '   ' }, /This name cannot be used/],
      ] as const;
      for (const [fields, why] of cases) {
        const answer = await signUp(new PageBrowser(server), fields);
        assert.equal(answer.status, 422, JSON.stringify(fields));
        assert.match(answer.html, why);
        assert.match(answer.html, /role="alert"/);
      }
      assert.equal(await server.context.store.findUser('frank@example.com'), undefined);
      await until(async () => (await server.context.store.mailQueue()).waiting === 0, 'the outbox is empty');
      assert.equal(smtp.arrived.length, seen);
    });

    it('hostile input (overlong, NUL, markup, CRLF in the name and the address) gets a clear page, never a 5xx, and no mail header is injected', async () => {
      const seen = smtp.arrived.length;
      const hostile = [
        { email: 'grace@example.com\r\nBcc: mallory@evil.test' },
        { email: 'grace@example.com', name: 'Grace\r\nBcc: mallory@evil.test' },
        { email: 'grace\u0000@example.com' },
        { email: 'grace@example.com', name: 'Gr\u0000ace' },
        { email: '<script>alert(1)</script>@example.com' },
        { email: 'grace@example.com', name: '<script>alert(1)</script>' },
        { email: 'x'.repeat(20_000) + '@example.com' },
        { email: 'grace@example.com', name: 'x'.repeat(20_000) },
        { email: 'grace@example.com', password: 'p'.repeat(5000) },
        { email: '"grace@example.com" <mallory@evil.test>' },
        { email: 'grace@example.com, mallory@evil.test' },
      ];
      for (const fields of hostile) {
        const answer = await signUp(new PageBrowser(server), fields);
        assert.ok(
          [200, 413, 422].includes(answer.status),
          `${answer.status} for ${JSON.stringify(fields).slice(0, 80)}`,
        );
        assert.doesNotMatch(answer.html, /<script>alert/);
      }
      // The name with markup is a name: its account's mail went out, the markup escaped in HTML.
      await until(async () => (await server.context.store.mailQueue()).waiting === 0, 'the outbox is empty');
      for (const mail of smtp.arrived.slice(seen)) {
        assert.equal(mail.to, 'grace@example.com');
        assert.equal(mail.headers.get('bcc'), undefined);
        assert.doesNotMatch(mail.html, /<script>/);
      }
      // A form without a CSRF token, and one with an empty body, are refused with a page.
      const browser = new PageBrowser(server);
      assert.equal((await browser.post('/sign-up', { email: 'grace@example.com' })).status, 403);
      assert.ok((await browser.postBody('/sign-up', '')).status < 500);
    });

    it('50 sign-ups of one address at once create one account', async () => {
      const seen = smtp.arrived.length;
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => signUp(new PageBrowser(server), { email: 'heidi@example.com' })),
      );
      assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
      // One verification mail, and a warning to the new owner for each of the other 49.
      const mails = await newMails(seen, 50);
      assert.equal(mails.filter((m) => m.subject === 'Verify your e-mail address').length, 1);
      assert.equal((await server.context.store.listUsersWithEmail('heidi@example.com')).length, 1);
    });
  });

describe('sign-up settings and limits', () => {
  it('signUpAllowed: open lets anyone, invite only the invited, off nobody', () => {
    for (const invited of [false, true]) {
      assert.equal(signUpAllowed({ mode: 'open', domains: [] }, { invited }), true);
      assert.equal(signUpAllowed({ mode: 'off', domains: [] }, { invited }), false);
      assert.equal(signUpAllowed({ mode: 'invite', domains: [] }, { invited }), invited);
    }
  });

  it('SIGN_UP=off (the default): no link on the sign-in page, and /sign-up is not found', async () => {
    const server = await startTestServer();
    try {
      await server.addClient({ id: 'app', redirectUris: ['http://127.0.0.1:8765/callback'] });
      const browser = new PageBrowser(server);
      const page = await browser.authorize(authorizationQuery('app', pkce().challenge));
      assert.doesNotMatch(page.html, /Create an account/);
      assert.equal((await browser.get('/sign-up')).status, 404);
    } finally {
      await server.close();
    }
  });

  it('SIGN_UP=invite: no link on the sign-in page, and the form without an invitation is refused with a clear page', async () => {
    const server = await startTestServer({ signUp: { mode: 'invite', domains: [] } });
    try {
      await server.addClient({ id: 'app', redirectUris: ['http://127.0.0.1:8765/callback'] });
      const browser = new PageBrowser(server);
      const page = await browser.authorize(authorizationQuery('app', pkce().challenge));
      assert.doesNotMatch(page.html, /Create an account/);
      const form = await browser.get('/sign-up');
      assert.equal(form.status, 403);
      assert.match(form.html, /Accounts are created by invitation only/);
      const posted = await browser.post('/sign-up', { email: 'ivan@example.com', password: NEW_PASSWORD });
      assert.equal(posted.status, 403);
      assert.equal(await server.context.store.findUser('ivan@example.com'), undefined);
    } finally {
      await server.close();
    }
  });

  it('SIGN_UP_DOMAINS: the form names the allowed domains and refuses others', async () => {
    const server = await startTestServer({ signUp: { mode: 'open', domains: ['example.org'] } });
    try {
      const form = await signUp(new PageBrowser(server), { email: 'judy@example.com' });
      assert.equal(form.status, 422);
      assert.match(form.html, /Use an address at <strong translate="no">example\.org<\/strong>/);
      assert.equal((await signUp(new PageBrowser(server), { email: 'judy@example.org' })).status, 200);
      assert.equal((await signUp(new PageBrowser(server), { email: 'judy@sub.example.org' })).status, 422);
    } finally {
      await server.close();
    }
  });

  it('the owner of a taken address is warned once an hour however many sign-ups try it (OWNER_WARNING_EMAIL)', async () => {
    const smtp = new TestSmtpServer();
    await smtp.start();
    const server = await startTestServer({
      mail: smtpSettings(smtp),
      signUp: { mode: 'open', domains: [] },
      rateLimits: { owner_warning_email: per(1, 'h') },
    });
    try {
      await addUser(server.context.store, 'olga', PASSWORD, server.clock.now(), { email: 'olga@example.com' });
      const refusals = async (): Promise<number> =>
        (await server.context.store.listAuditEvents({ event: 'sign_up_refused', limit: 100 })).length;
      for (let i = 1; i <= 3; i += 1) {
        const answer = await signUp(new PageBrowser(server), { email: 'olga@example.com', name: 'Mallory' });
        assert.equal(answer.status, 200);
        await until(async () => (await refusals()) === i, `sign-up ${i} is done`);
      }
      // A new address is mailed as before: the limit is the taken address's own.
      assert.equal((await signUp(new PageBrowser(server), { email: 'pia@example.com' })).status, 200);
      await smtp.waitFor(2);
      const events = await server.context.store.listAuditEvents({ event: 'sign_up_refused', limit: 10 });
      assert.deepEqual(
        events.map((e) => e.reason),
        [
          'address already registered',
          'address already registered, owner warned within the hour',
          'address already registered, owner warned within the hour',
        ],
      );
      // An hour later the owner is warned again.
      server.clock.advance(3600);
      await signUp(new PageBrowser(server), { email: 'olga@example.com', name: 'Mallory' });
      await smtp.waitFor(3);
      await until(async () => (await server.context.store.mailQueue()).waiting === 0, 'the outbox is empty');
      const warnings = smtp.arrived.filter((m) => m.to === 'olga@example.com');
      assert.equal(warnings.length, 2);
      assert.ok(warnings.every((m) => m.subject === 'Someone tried to sign up with your address'));
    } finally {
      await server.close();
      await smtp.stop();
    }
  });

  it('per e-mail domain and per client address, alike for an account and for nobody, with Retry-After', async () => {
    const server = await startTestServer({
      signUp: { mode: 'open', domains: [] },
      rateLimits: { sign_up_domain: per(2, 'h'), sign_up_address: per(4, 'h') },
    });
    try {
      await addUser(server.context.store, 'kim', PASSWORD, server.clock.now(), { email: 'kim@example.com' });
      assert.equal((await signUp(new PageBrowser(server), { email: 'kim@example.com' })).status, 200);
      assert.equal((await signUp(new PageBrowser(server), { email: 'lee@example.com' })).status, 200);
      const refused = await signUp(new PageBrowser(server), { email: 'max@example.com' });
      assert.equal(refused.status, 429);
      assert.match(refused.html, /Too many sign-ups/);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      // Another domain: its own budget, until the address's is spent (three charged so far).
      assert.equal((await signUp(new PageBrowser(server), { email: 'max@example.net' })).status, 200);
      assert.equal((await signUp(new PageBrowser(server), { email: 'ned@example.io' })).status, 429);
    } finally {
      await server.close();
    }
  });
});
