import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addTestUser,
  assertPageHeaders,
  authorizationQuery,
  CALLBACK,
  callbackParams,
  hiddenField,
  PageBrowser,
  PASSWORD,
  pkce,
  type PageAnswer,
} from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { assertOkJson } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';
import { SoftAuthenticator } from './_webauthn.js';

/** The WebAuthn options a page rendered in its passkey form's `data-options`. */
function optionsOf(html: string): { challenge: string; user?: { id: string } } {
  const match = /data-options="([^"]*)"/.exec(html);
  assert.ok(match, 'the page has a passkey form');
  return JSON.parse((match[1] as string).replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))));
}

for (const dialect of DIALECTS)
  describe(`passkeys over HTTP: enrol, sign in without a password, and every refusal a page [${dialect}]`, () => {
    let server: TestServer;
    let client: TestClient;
    let payrollClient: TestClient;
    // The test server's issuer is http://gatehouse.test: RP ID gatehouse.test.
    const origin = 'http://gatehouse.test';
    const { verifier, challenge } = pkce();
    const query = authorizationQuery('notes', challenge, { scope: 'openid', nonce: 'n' });

    before(async () => {
      // SECOND_FACTOR=off: the password alone signs in to Notes, though alice has a passkey; Payroll
      // requires a second factor (a client's policy), which her passkey is (SECOND_FACTORS.passkey).
      server = await startTestServer({ dialect, secondFactor: 'off' });
      client = await server.addClient({ id: 'notes', name: 'Notes', redirectUris: [CALLBACK], scope: ['openid'] });
      payrollClient = await server.addClient({
        id: 'payroll',
        name: 'Payroll',
        redirectUris: [CALLBACK],
        scope: ['openid'],
        secondFactor: 'required',
      });
      await addTestUser(server, 'alice');
    });
    after(() => server?.close());

    /** A browser signed in with the password and allowed: its account page. */
    async function signedInWithPassword(): Promise<{ browser: PageBrowser; account: PageAnswer }> {
      const browser = new PageBrowser(server);
      const page = await browser.authorize(query);
      const signedIn = await browser.login(page, 'alice', PASSWORD);
      assert.equal(signedIn.status, 303);
      const consent = await browser.get(signedIn.location as string);
      if (consent.status === 200) await browser.consent(consent, 'allow');
      return { browser, account: await browser.get('/account') };
    }

    async function enrol(browser: PageBrowser, account: PageAnswer, authenticator: SoftAuthenticator) {
      return browser.post('/account/passkeys', {
        csrf_token: hiddenField(account.html, 'csrf_token'),
        credential: authenticator.create(optionsOf(account.html)),
        name: 'Phone',
      });
    }

    /** Posts a passkey sign-in from a fresh sign-in page; `answer` makes the credential from its options. */
    async function signInWithPasskey(answer: (options: ReturnType<typeof optionsOf>) => string) {
      const browser = new PageBrowser(server);
      const page = await browser.authorize(query);
      const answerPage = await browser.post('/login/passkey', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        request: hiddenField(page.html, 'request'),
        credential: answer(optionsOf(page.html)),
      });
      return { browser, answer: answerPage };
    }

    /** The audit events `run` recorded, oldest first, as event/reason. */
    async function eventsDuring(run: () => Promise<void>): Promise<{ named: string[]; json: string }> {
      const known = new Set((await server.context.store.listAuditEvents({ limit: 10_000 })).map((e) => e.id));
      await run();
      const events = (await server.context.store.listAuditEvents({ limit: 10_000 })).filter((e) => !known.has(e.id));
      return { named: events.map((e) => `${e.event}/${e.reason}`), json: JSON.stringify(events) };
    }

    it('serves the page script as a file of its own, under the CSP script-src self', async () => {
      const script = await fetch(`${server.url}/assets/passkey.js`);
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
      assert.equal(script.headers.get('x-content-type-options'), 'nosniff');
      assert.match(await script.text(), /navigator\.credentials\.get/);
      const page = await new PageBrowser(server).authorize(query);
      assertPageHeaders(page);
      assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      assert.match(page.html, /autocomplete="username webauthn"/);
      assert.equal(optionsOf(page.html).challenge.length, 43, 'a 256-bit challenge');
    });

    it('enrols from the account page after a fresh sign-in, then signs in with the passkey alone: an ID token with amr hwk and user (RFC 8176 §2)', async () => {
      const { browser, account } = await signedInWithPassword();
      const authenticator = new SoftAuthenticator('gatehouse.test', origin);
      const enrolled = await enrol(browser, account, authenticator);
      assert.equal(enrolled.status, 303, enrolled.html);
      assert.equal(enrolled.location, '/account?done=passkey_added');
      const listed = await browser.get(enrolled.location);
      assert.match(listed.html, /<strong class="passkey-name" translate="no">Phone<\/strong>/);
      assert.match(listed.html, /<p class="notice" role="status">Passkey added/);

      let signedIn: Awaited<ReturnType<typeof signInWithPasskey>> | undefined;
      const audited = await eventsDuring(async () => {
        signedIn = await signInWithPasskey((o) => authenticator.get(o));
      });
      const { browser: other, answer } = signedIn as NonNullable<typeof signedIn>;
      assert.equal(answer.status, 303, answer.html);
      assert.deepEqual(audited.named, ['sign_in_step_passed/passkey_sign_in: hwk user'], 'one event, with the amr');
      let page = await other.get(answer.location as string);
      if (page.status === 200) page = await other.consent(page, 'allow');
      const { code } = callbackParams(page.location);
      const tokens = await assertOkJson(
        await server.post(
          '/token',
          { grant_type: 'authorization_code', code: code as string, redirect_uri: CALLBACK, code_verifier: verifier },
          { as: client },
        ),
      );
      assert.equal(typeof tokens.id_token, 'string');
      const claims = JSON.parse(
        Buffer.from((tokens.id_token as string).split('.')[1] as string, 'base64url').toString(),
      );
      assert.deepEqual(claims.amr, ['hwk', 'user', 'mfa'], 'a verified passkey counts two factors (RFC 8176 §2 mfa)');
      assert.equal(claims.acr, 'mfa');
    });

    it('a client requiring a second factor asks the password user for the passkey on the factor page, whose form completes the sign-in with amr pwd, hwk, user and mfa (RFC 8176 §2)', async () => {
      const { browser, account } = await signedInWithPassword();
      const authenticator = new SoftAuthenticator('gatehouse.test', origin);
      assert.equal((await enrol(browser, account, authenticator)).status, 303);
      const payroll = new PageBrowser(server);
      const { challenge: payrollChallenge, verifier: payrollVerifier } = pkce();
      const page = await payroll.authorize(
        authorizationQuery('payroll', payrollChallenge, { scope: 'openid', nonce: 'n' }),
      );
      const factor = await payroll.login(page, 'alice', PASSWORD);
      assert.equal(factor.status, 200, 'pending: the factor page');
      assert.match(factor.html, /<h1>Two-step verification<\/h1>/);
      assert.match(factor.html, /name="method" value="passkey"/);
      const options = optionsOf(factor.html) as { challenge: string; allowCredentials?: { id: string }[] };
      assert.ok((options.allowCredentials ?? []).length >= 1, "only alice's passkeys are allowed");
      const wrong = await payroll.post('/login', {
        csrf_token: hiddenField(factor.html, 'csrf_token'),
        request: hiddenField(factor.html, 'request'),
        method: 'passkey',
        credential: new SoftAuthenticator('gatehouse.test', origin).get(options),
      });
      assert.equal(wrong.status, 401, 'an unknown passkey is refused on the factor page');
      const credential = authenticator.get(optionsOf(wrong.html));
      let done: PageAnswer | undefined;
      const audited = await eventsDuring(async () => {
        done = await payroll.post('/login', {
          csrf_token: hiddenField(wrong.html, 'csrf_token'),
          request: hiddenField(wrong.html, 'request'),
          method: 'passkey',
          credential,
        });
      });
      assert.ok(done);
      assert.equal(done.status, 303, done.html);
      assert.deepEqual(audited.named, ['sign_in_step_passed/passkey: hwk user'], 'one event, with the amr');
      const { response } = JSON.parse(credential) as { response: { signature: string } };
      assert.ok(!audited.json.includes(response.signature), 'not the assertion');
      const [passkey] = await server.context.store.listPasskeys(
        (await server.context.store.findUser('alice'))?.subject as string,
      );
      assert.equal(passkey?.lastUsedAt, server.clock.now(), 'its use stored');
      let next = await payroll.get(done.location as string);
      if (next.status === 200) next = await payroll.consent(next, 'allow');
      const { code } = callbackParams(next.location);
      const tokens = await assertOkJson(
        await server.post(
          '/token',
          {
            grant_type: 'authorization_code',
            code: code as string,
            redirect_uri: CALLBACK,
            code_verifier: payrollVerifier,
          },
          { as: payrollClient },
        ),
      );
      const claims = JSON.parse(
        Buffer.from((tokens.id_token as string).split('.')[1] as string, 'base64url').toString(),
      );
      assert.deepEqual(claims.amr, ['pwd', 'hwk', 'user', 'mfa']);
      assert.equal(claims.acr, 'mfa');
    });

    it("the account page's own sign-in offers a passkey: it posts to /account/login and signs in with the passkey alone", async () => {
      const { browser, account } = await signedInWithPassword();
      const authenticator = new SoftAuthenticator('gatehouse.test', origin);
      assert.equal((await enrol(browser, account, authenticator)).status, 303);
      const other = new PageBrowser(server);
      const page = await other.get('/account');
      assert.match(page.html, /<h1>Sign in<\/h1>/);
      assert.doesNotMatch(page.html, /class="mark mark-client"/, 'no icon made from "your account"');
      assert.match(page.html, /<form method="post" action="\/account\/login" id="passkey-form" data-mode="get"/);
      assert.match(page.html, /autocomplete="username webauthn"/);
      const answer = await other.post('/account/login', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        method: 'passkey_sign_in',
        credential: authenticator.get(optionsOf(page.html)),
      });
      assert.equal(answer.status, 303, answer.html);
      assert.match((await other.get('/account')).html, /Signed in as <strong>alice<\/strong>/);
    });

    it('refuses a passkey answering another origin (WebAuthn §7.2 step 13) with 401 and the catalog page words, audited', async () => {
      const { browser, account } = await signedInWithPassword();
      const authenticator = new SoftAuthenticator('gatehouse.test', origin);
      assert.equal((await enrol(browser, account, authenticator)).status, 303);
      const { answer } = await signInWithPasskey((o) => authenticator.get(o, { origin: 'http://evil.test' }));
      assert.equal(answer.status, 401);
      assert.match(answer.html, /That passkey did not work/);
      assert.match(answer.html, /name="username" type="text" value=""/, 'whose passkey it was is not shown');
      const [event] = await server.context.store.listAuditEvents({ event: 'login_failed', limit: 1 });
      const [last] = await server.context.store.listAuditEvents({ limit: 1 });
      assert.equal(last?.id, event?.id, 'the refusal, and no sign_in_step_passed after it');
      assert.equal(event?.reason, 'passkey_origin_mismatch');
      assert.equal(event?.subject, 'alice');
    });

    it('refuses an unknown credential and a malformed one with 401, never a 5xx', async () => {
      const stranger = new SoftAuthenticator('gatehouse.test', origin);
      const unknown = await signInWithPasskey((o) => stranger.get(o));
      assert.equal(unknown.answer.status, 401);
      for (const bad of [
        '',
        'null',
        '{"id":1}',
        'x'.repeat(70_000),
        '{"id":"a","rawId":"a","type":"public-key","response":{"clientDataJSON":"%%"}}',
      ]) {
        const { answer } = await signInWithPasskey(() => bad);
        // Past the form body limit the pages answer 413 before any step; otherwise the step's 401.
        assert.equal(answer.status, bad.length > 60_000 ? 413 : 401, bad.slice(0, 40));
      }
    });

    it('refuses an enrolment more than 10 minutes after the sign-in (403 fresh_sign_in_required, its catalog page), audited; nothing stored', async () => {
      const { browser, account } = await signedInWithPassword();
      server.clock.advance(11 * 60);
      const page = await browser.get('/account');
      assert.doesNotMatch(page.html, /data-mode="create"/, 'no "Add a passkey" on a stale sign-in');
      assert.match(page.html, /Confirm it&#39;s you to make changes/);
      const before = (await server.context.store.listAuditEvents({ limit: 1000 })).length;
      const refused = await enrol(browser, account, new SoftAuthenticator('gatehouse.test', origin));
      assert.equal(refused.status, 403);
      assert.match(refused.html, /Sign in again to change this/);
      assert.match(refused.html, /\/problems\/fresh-sign-in-required/);
      const events = await server.context.store.listAuditEvents({ limit: 1000 });
      assert.equal(events.length, before + 1);
      assert.equal(events.at(-1)?.event, 'sign_in_change_refused');
      assert.equal(events.at(-1)?.reason, 'passkey_enrolment');
    });

    it('refuses an enrolment whose challenge was not issued to this session (400, its catalog page), and one without a CSRF token (403)', async () => {
      const { browser, account } = await signedInWithPassword();
      const refused = await browser.post('/account/passkeys', {
        csrf_token: hiddenField(account.html, 'csrf_token'),
        credential: new SoftAuthenticator('gatehouse.test', origin).create({
          challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
          user: { id: 'eA' },
        }),
      });
      assert.equal(refused.status, 400);
      assert.match(refused.html, /The passkey was not added/);
      const [event] = await server.context.store.listAuditEvents({ event: 'passkey_enrolment_failed', limit: 1 });
      assert.equal(event?.reason, 'challenge_unknown');
      const forged = await browser.post('/account/passkeys', { csrf_token: 'x', credential: '{}' });
      assert.equal(forged.status, 403);
    });

    it("removes only the user's own passkey; a removed passkey no longer signs in", async () => {
      const { browser, account } = await signedInWithPassword();
      const authenticator = new SoftAuthenticator('gatehouse.test', origin);
      assert.equal((await enrol(browser, account, authenticator)).status, 303);
      const csrf = hiddenField((await browser.get('/account')).html, 'csrf_token');
      assert.equal(
        (await browser.post('/account/passkeys/remove', { csrf_token: csrf, id: authenticator.credentialId })).status,
        303,
      );
      const removed = await signInWithPasskey((o) => authenticator.get(o));
      assert.equal(removed.answer.status, 401);
      const [event] = await server.context.store.listAuditEvents({ event: 'login_failed', limit: 1 });
      assert.equal(event?.reason, 'passkey_unknown');
    });
  });

describe('passkeys on an IP-literal issuer', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ reachableIssuer: true });
    await server.addClient({ id: 'notes', name: 'Notes', redirectUris: [CALLBACK] });
  });
  after(() => server?.close());

  it('are not offered: an RP ID cannot be an IP address (WebAuthn §5.1.2); the sign-in page has no script', async () => {
    const page = await new PageBrowser(server).authorize(authorizationQuery('notes', pkce().challenge));
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.html, /passkey|<script/);
    assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /script-src/);
  });
});
