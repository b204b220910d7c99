import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { per } from '../src/abuse/rate-policies.js';
import { NO_PASSWORD } from '../src/accounts/new-account-passkey.js';
import { configFromEnv } from '../src/config.js';
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
import { testMailSettings } from './_account-mail.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';
import { TestSmtpServer, type ArrivedMail } from './_smtp.js';
import { comparable, headerNames, verificationToken } from './_sign-up.js';
import { until } from './_until.js';
import { ceremonyOptionsIn, SoftAuthenticator } from './_webauthn.js';

const BOTH = ['password', 'passkey'] as const;

/** An authenticator of the test issuer (http://gatehouse.test). */
const authenticator = (): SoftAuthenticator => new SoftAuthenticator('gatehouse.test', 'http://gatehouse.test');

/** The passkey form's fields as its script posts them: the form's own, the address and the name copied in. */
function passkeyPost(form: PageAnswer, fields: Readonly<Record<string, string>>): Record<string, string> {
  return {
    csrf_token: hiddenField(form.html, 'csrf_token'),
    request: hiddenField(form.html, 'request'),
    subject: hiddenField(form.html, 'subject'),
    name: 'Dana Doe',
    ...fields,
  };
}

/** Signs up with a passkey as the page's script does: the form, a passkey for its options, the post. */
async function signUpWithPasskey(
  browser: PageBrowser,
  key: SoftAuthenticator,
  email: string,
): Promise<{ form: PageAnswer; answer: PageAnswer }> {
  const form = await browser.get('/sign-up');
  assert.equal(form.status, 200, form.html);
  const credential = key.create(ceremonyOptionsIn(form.html));
  return { form, answer: await browser.post('/sign-up', passkeyPost(form, { email, credential })) };
}

for (const dialect of DIALECTS)
  describe(`sign-up with a passkey [${dialect}]`, () => {
    const smtp = new TestSmtpServer();
    let server: TestServer;
    let client: TestClient;

    before(async () => {
      await smtp.start();
      server = await startTestServer({
        dialect,
        mail: testMailSettings(smtp),
        emailVerification: 'required',
        signUp: { mode: 'open', domains: [], methods: BOTH },
      });
      client = await server.addClient({
        id: 'app',
        redirectUris: ['http://127.0.0.1:8765/callback'],
        scope: ['openid', 'email', 'profile', 'contacts:read'],
      });
      await addUser(server.context.store, 'alice', PASSWORD, server.clock.now(), {
        email: 'alice@example.com',
        email_verified: true,
      });
    });
    after(async () => {
      await server?.close();
      await smtp.stop();
    });

    async function newMails(seen: number, count: number): Promise<ArrivedMail[]> {
      await smtp.waitFor(seen + count);
      return smtp.arrived.slice(seen, seen + count);
    }

    /** A passkey sign-in from a fresh sign-in page of the application. */
    async function signInWithPasskey(key: SoftAuthenticator): Promise<PageAnswer> {
      const browser = new PageBrowser(server);
      const page = await browser.authorize(authorizationQuery(client.id, pkce().challenge));
      return browser.post('/login/passkey', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        request: hiddenField(page.html, 'request'),
        credential: key.get(ceremonyOptionsIn(page.html)),
      });
    }

    const auditCount = async (event: 'passkey_enrolment_failed'): Promise<number> =>
      (await server.context.store.listAuditEvents({ event, limit: 1000 })).length;

    it('the form offers a passkey beside the password: options for a new subject each time, the address and the name copied from the password form, the script allowed by the CSP', async () => {
      const browser = new PageBrowser(server);
      const form = await browser.get('/sign-up');
      assert.equal(form.status, 200);
      assertPageHeaders(form);
      assert.match(form.html, /id="password"/);
      assert.match(form.html, /id="passkey-form"[^>]*data-copy="email name" data-user="email"[^>]*hidden>/);
      assert.match(form.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      const options = ceremonyOptionsIn(form.html);
      const subject = hiddenField(form.html, 'subject');
      assert.equal(Buffer.from(options.user?.id ?? '', 'base64url').toString('utf8'), subject);
      const other = await browser.get('/sign-up');
      assert.notEqual(hiddenField(other.html, 'subject'), subject);
    });

    it('a new address: the account is made with the passkey and no password, unverified; with EMAIL_VERIFICATION=required the passkey signs in only after the mailed link verified it', async () => {
      const seen = smtp.arrived.length;
      const key = authenticator();
      const { form, answer } = await signUpWithPasskey(new PageBrowser(server), key, 'Dana@Example.com');
      assert.equal(answer.status, 200, answer.html);
      assertPageHeaders(answer);
      assert.match(answer.html, /Check your e-mail/);
      const [mail] = await newMails(seen, 1);
      assert.equal(mail?.to, 'dana@example.com');
      assert.equal(mail?.subject, 'Verify your e-mail address');
      const user = await server.context.store.findUser('dana@example.com');
      assert.equal(user?.subject, hiddenField(form.html, 'subject'));
      assert.equal(user?.passwordHash, NO_PASSWORD);
      assert.equal(user?.claims.email_verified, false);
      assert.equal(user?.claims.name, 'Dana Doe');
      assert.deepEqual(
        (await server.context.store.listPasskeys(user?.subject ?? '')).map((p) => p.id),
        [key.credentialId],
      );
      const events = await server.context.store.listAuditEvents({ since: 0, limit: 1000 });
      const mine = events.filter((e) => e.subject === user?.subject).map((e) => e.event);
      assert.deepEqual(mine.slice(0, 2), ['signed_up', 'passkey_enrolled']);

      // Before the address is verified, the passkey's sign-in stops at verifying it (and mails it again).
      const stopped = await signInWithPasskey(key);
      assert.equal(stopped.status, 200, stopped.html);
      assert.match(stopped.html, /Verify your e-mail address/);
      const [again] = await newMails(seen + 1, 1);
      assert.equal(again?.to, 'dana@example.com');

      const browser = new PageBrowser(server);
      const token = verificationToken(again);
      const link = await browser.get(`/email-verification?token=${token}`);
      const done = await browser.post('/email-verification', {
        csrf_token: hiddenField(link.html, 'csrf_token'),
        token,
      });
      assert.equal(done.status, 200, done.html);
      const signedIn = await signInWithPasskey(key);
      assert.equal(signedIn.status, 303, signedIn.html);
      assert.equal((await server.context.store.findUser('dana@example.com'))?.claims.email_verified, true);
    });

    it('an address with an account gets the same page as a new one; its owner is told, and the passkey is attached to nobody (no enumeration)', async () => {
      const seen = smtp.arrived.length;
      const takenKey = authenticator();
      const taken = await signUpWithPasskey(new PageBrowser(server), takenKey, 'ALICE@example.com');
      const fresh = await signUpWithPasskey(new PageBrowser(server), authenticator(), 'erin@example.com');
      assert.equal(taken.answer.status, 200);
      assert.equal(fresh.answer.status, 200);
      assert.equal(comparable(taken.answer), comparable(fresh.answer));
      assert.deepEqual(headerNames(taken.answer), headerNames(fresh.answer));
      const mails = await newMails(seen, 2);
      assert.equal(
        mails.find((m) => m.to === 'alice@example.com')?.subject,
        'Someone tried to sign up with your address',
      );
      assert.equal(mails.find((m) => m.to === 'erin@example.com')?.subject, 'Verify your e-mail address');
      const alice = await server.context.store.findUser('alice');
      assert.deepEqual(await server.context.store.listPasskeys(alice?.subject ?? ''), []);
      assert.equal(await server.context.store.findPasskey(takenKey.credentialId), undefined);
      assert.equal(await server.context.store.findUserBySubject(hiddenField(taken.form.html, 'subject')), undefined);
      assert.equal((await server.context.store.listUsersWithEmail('alice@example.com')).length, 1);
      // The passkey of that attempt signs in to nothing.
      const signIn = await signInWithPasskey(takenKey);
      assert.notEqual(signIn.status, 303, signIn.html);
    });

    it('a passkey that does not verify (another origin, garbage, NUL, markup, overlong, replayed, another subject, the account page’s challenge) is the form again with passkey_enrolment_failed: nothing made, no mail, audited', async () => {
      const seen = smtp.arrived.length;
      const failures = await auditCount('passkey_enrolment_failed');
      const alice = await server.context.store.findUser('alice');
      const browser = new PageBrowser(server);
      const refusals: Array<(form: PageAnswer) => Record<string, string>> = [
        (form) => ({
          credential: new SoftAuthenticator('gatehouse.test', 'http://evil.test').create(ceremonyOptionsIn(form.html)),
        }),
        (form) => ({ credential: authenticator().create(ceremonyOptionsIn(form.html), { userVerified: false }) }),
        () => ({ credential: '{"id":"x"}' }),
        () => ({ credential: 'x'.repeat(5000) }),
        () => ({ credential: '\u0000' }),
        () => ({ credential: '<script>alert(1)</script>' }),
        // The options of this form, answered for another subject: the challenge is the form's subject's.
        (form) => ({ credential: authenticator().create(ceremonyOptionsIn(form.html)), subject: alice?.subject ?? '' }),
        (form) => ({ credential: authenticator().create(ceremonyOptionsIn(form.html)), subject: '' }),
      ];
      for (const [i, fields] of refusals.entries()) {
        const form = await browser.get('/sign-up');
        const refused = await browser.post(
          '/sign-up',
          passkeyPost(form, { email: `frank${i}@example.com`, ...fields(form) }),
        );
        assert.equal(refused.status, 400, `${i}: ${refused.html.slice(0, 300)}`);
        assert.match(refused.html, /The passkey could not be verified, and nothing was made/);
        assert.match(refused.html, /role="alert"/);
        assert.match(refused.html, /The passkey was not added/);
        assert.doesNotMatch(refused.html, /<script>alert/);
        // The form again, the address kept, with new options to try again.
        assert.match(refused.html, new RegExp(`value="frank${i}@example.com"`));
        assert.ok(ceremonyOptionsIn(refused.html).challenge);
        assert.equal(await server.context.store.findUser(`frank${i}@example.com`), undefined);
      }
      // A response used once: its challenge is gone.
      const key = authenticator();
      const form = await browser.get('/sign-up');
      const credential = key.create(ceremonyOptionsIn(form.html));
      const first = await browser.post('/sign-up', passkeyPost(form, { email: 'gina@example.com', credential }));
      assert.equal(first.status, 200, first.html);
      const replay = await browser.post('/sign-up', passkeyPost(form, { email: 'hank@example.com', credential }));
      assert.equal(replay.status, 400);
      // The account page's challenge (a passkey for alice) makes no account, nor a passkey for her.
      const signedIn = new PageBrowser(server);
      const login = await signedIn.get('/account');
      const done = await signedIn.post('/account/login', {
        csrf_token: hiddenField(login.html, 'csrf_token'),
        username: 'alice',
        password: PASSWORD,
      });
      assert.equal(done.status, 303, done.html);
      const account = await signedIn.get('/account');
      const signUpForm = await signedIn.get('/sign-up');
      const hijack = await signedIn.post(
        '/sign-up',
        passkeyPost(signUpForm, {
          email: 'ivy@example.com',
          subject: alice?.subject ?? '',
          credential: authenticator().create(ceremonyOptionsIn(account.html)),
        }),
      );
      assert.equal(hijack.status, 400, hijack.html.slice(0, 300));
      assert.equal(await server.context.store.findUser('ivy@example.com'), undefined);
      assert.deepEqual(await server.context.store.listPasskeys(alice?.subject ?? ''), []);

      assert.equal(await auditCount('passkey_enrolment_failed'), failures + refusals.length + 2);
      const last = (await server.context.store.listAuditEvents({ event: 'passkey_enrolment_failed', limit: 1000 })).at(
        -1,
      );
      assert.equal(last?.subject, null);
      assert.equal(last?.reason, 'challenge_unknown');
      // Only gina's verification mail went out.
      await until(async () => (await server.context.store.mailQueue()).waiting === 0, 'the outbox is empty');
      assert.deepEqual(
        smtp.arrived.slice(seen).map((m) => m.to),
        ['gina@example.com'],
      );
    });

    it('the address and the name are checked as a password sign-up’s before the passkey (a refusal keeps its own page)', async () => {
      const browser = new PageBrowser(server);
      for (const [fields, why] of [
        [{ email: 'not an address' }, /This e-mail address cannot be used to sign up/],
        [{ email: 'judy@example.com', name: 'Ju\r\ndy' }, /This name cannot be used/],
      ] as const) {
        const form = await browser.get('/sign-up');
        const credential = authenticator().create(ceremonyOptionsIn(form.html));
        const answer = await browser.post('/sign-up', passkeyPost(form, { credential, ...fields }));
        assert.equal(answer.status, 422, answer.html.slice(0, 300));
        assert.match(answer.html, why);
      }
      assert.equal(await server.context.store.findUser('judy@example.com'), undefined);
    });
  });

describe('SIGN_UP_METHODS', () => {
  it('is password, passkey or both; passkeys alone under an IP address refuse to start', () => {
    assert.equal(configFromEnv({}).signUpMethods, undefined);
    assert.deepEqual(configFromEnv({ SIGN_UP_METHODS: 'passkey, password' }).signUpMethods, BOTH);
    assert.deepEqual(configFromEnv({ SIGN_UP_METHODS: 'passkey' }).signUpMethods, ['passkey']);
    const ip = { ISSUER: 'http://127.0.0.1:3000' };
    assert.deepEqual(configFromEnv({ ...ip, SIGN_UP_METHODS: 'password,passkey' }).signUpMethods, BOTH);
    assert.throws(() => configFromEnv({ ...ip, SIGN_UP_METHODS: 'passkey' }), /needs an issuer under a host name/);
    assert.throws(() => configFromEnv({ ISSUER: 'http://[::1]:3000', SIGN_UP_METHODS: 'passkey' }), /host name/);
    for (const bad of ['pass', 'password,', 'webauthn', 'PASSKEY'])
      assert.throws(() => configFromEnv({ SIGN_UP_METHODS: bad }), /SIGN_UP_METHODS is password, passkey or both/);
  });

  it('password alone (the default) offers no passkey, and a posted credential makes no account without a password', async () => {
    const server = await startTestServer({ signUp: { mode: 'open', domains: [] } });
    try {
      const browser = new PageBrowser(server);
      const form = await browser.get('/sign-up');
      assert.doesNotMatch(form.html, /passkey-form|passkey\.js/);
      assert.doesNotMatch(form.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      const answer = await browser.post('/sign-up', {
        csrf_token: hiddenField(form.html, 'csrf_token'),
        email: 'kim@example.com',
        name: 'Kim',
        credential: '{"id":"x"}',
      });
      assert.equal(answer.status, 422);
      assert.match(answer.html, /Use at least 8 characters/);
    } finally {
      await server.close();
    }
  });

  it('both under an IP address offer the password alone', async () => {
    const server = await startTestServer({
      reachableIssuer: true,
      signUp: { mode: 'open', domains: [], methods: BOTH },
    });
    try {
      const form = await new PageBrowser(server).get('/sign-up');
      assert.equal(form.status, 200);
      assert.match(form.html, /id="password"/);
      assert.doesNotMatch(form.html, /passkey-form/);
    } finally {
      await server.close();
    }
  });

  it('passkey alone: the form holds the address and the name itself, says what a browser without passkeys lacks, and a post without a passkey makes nothing', async () => {
    const server = await startTestServer({ signUp: { mode: 'open', domains: [], methods: ['passkey'] } });
    try {
      const browser = new PageBrowser(server);
      const form = await browser.get('/sign-up');
      assert.equal(form.status, 200);
      assert.doesNotMatch(form.html, /id="password"/);
      assert.match(form.html, /id="passkey-form"[^>]*data-copy="" data-user="email"[\s\S]*id="email"[\s\S]*<\/form>/);
      assert.match(form.html, /id="passkey-unavailable"/);
      assert.match(form.html, /you sign in with the passkey this page makes/);
      const answer = await browser.post('/sign-up', {
        csrf_token: hiddenField(form.html, 'csrf_token'),
        subject: hiddenField(form.html, 'subject'),
        email: 'lee@example.com',
        name: 'Lee',
        password: 'plum tractor velvet harbour',
      });
      assert.equal(answer.status, 400);
      assert.match(answer.html, /The passkey was not added/);
      assert.equal(await server.context.store.findUser('lee@example.com'), undefined);
      const made = await signUpWithPasskey(browser, authenticator(), 'lee@example.com');
      assert.equal(made.answer.status, 200, made.answer.html);
      await until(async () => (await server.context.store.findUser('lee@example.com')) !== undefined, 'the account');
    } finally {
      await server.close();
    }
  });

  it('passkey sign-ups count in the sign-up rate limits, and one refused there makes nothing', async () => {
    const server = await startTestServer({
      signUp: { mode: 'open', domains: [], methods: BOTH },
      rateLimits: { sign_up_address: per(1, 'h') },
    });
    try {
      const browser = new PageBrowser(server);
      assert.equal((await signUpWithPasskey(browser, authenticator(), 'max@example.com')).answer.status, 200);
      const key = authenticator();
      const refused = await signUpWithPasskey(browser, key, 'ned@example.com');
      assert.equal(refused.answer.status, 429);
      assert.match(refused.answer.html, /Too many sign-ups/);
      assert.ok(Number(refused.answer.headers.get('retry-after')) > 0);
      await until(async () => (await server.context.store.findUser('max@example.com')) !== undefined, 'the first');
      assert.equal(await server.context.store.findUser('ned@example.com'), undefined);
      assert.equal(await server.context.store.findPasskey(key.credentialId), undefined);
    } finally {
      await server.close();
    }
  });
});
