import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { AuditTrail, type AuditEvent } from '../src/audit/audit.js';
import { runCli } from '../src/cli/run.js';
import { checkOneTimeCode, useRecoveryCode } from '../src/factors/factors.js';
import { totpCode } from '../src/factors/totp.js';
import {
  addTestUser,
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
import { enrolmentSecret, recoveryCodes, withFailingAuditInsert } from './_factors.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';
import type { PasskeyRecord } from '../src/store/passkey-repository.js';

/** A public key no listing may show (the credential itself is never used here). */
const PUBLIC_KEY = 'pQECAyYgASFYIPublicKeyNeverListed';

/** A stored passkey of `subject`, as registration (webauthn/registration.ts) leaves it. */
function testPasskey(subject: string, name: string, now: number): PasskeyRecord {
  return {
    id: `cred-${subject.slice(0, 8)}-${now}`,
    subject,
    publicKey: PUBLIC_KEY,
    counter: 0,
    transports: ['internal'],
    backupEligible: false,
    backedUp: false,
    name,
    createdAt: now,
    lastUsedAt: null,
  };
}

for (const dialect of DIALECTS)
  describe(`second factors on the sign-in pages [${dialect}]`, () => {
    let server: TestServer;
    let strict: TestClient;
    let plain: TestClient;
    const scope = 'openid contacts:read';

    before(async () => {
      server = await startTestServer({
        dialect,
        rateLimits: { login_failure_user: { limit: 50, periodMs: 3_600_000 } },
      });
      const common = { redirectUris: [CALLBACK], scope: ['openid', 'contacts:read'] };
      strict = await server.addClient({ id: 'strict', name: 'Payroll', secondFactor: 'required', ...common });
      plain = await server.addClient({ id: 'plain', name: 'Wiki', secondFactor: 'off', ...common });
      for (const name of ['alice', 'bob', 'carol', 'dave']) await addTestUser(server, name);
    });
    after(() => server.close());
    // Each test a few steps later, so that no code of one test is another's.
    beforeEach(() => server.clock.advance(600));

    /** Posts a step form of `page` (its first form's hidden fields) to `action` with `fields`. */
    function step(browser: PageBrowser, page: PageAnswer, fields: Record<string, string>, action = '/login') {
      return browser.post(action, {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        request: hiddenField(page.html, 'request'),
        method: hiddenField(page.html, 'method'),
        ...fields,
      });
    }

    /** GET /authorize for a client, then the password: the page that answers the password. */
    async function password(browser: PageBrowser, query: string, username: string): Promise<PageAnswer> {
      const page = await browser.authorize(query);
      assert.equal(page.status, 200);
      return browser.login(page, username, PASSWORD, { method: 'password' });
    }

    /** Sets `username` up with one-time codes (at the strict client); its secret and recovery codes. */
    async function enrol(username: string): Promise<{ secret: string; codes: string[] }> {
      const browser = new PageBrowser(server);
      const enrolPage = await password(browser, authorizationQuery('strict', pkce().challenge, { scope }), username);
      const secret = enrolmentSecret(enrolPage.html);
      const codesPage = await step(browser, enrolPage, {
        enrolment: hiddenField(enrolPage.html, 'enrolment'),
        code: totpCode(secret, server.clock.now()),
      });
      assert.equal(codesPage.status, 200, codesPage.html.slice(0, 400));
      server.clock.advance(60);
      return { secret, codes: recoveryCodes(codesPage.html) };
    }

    /** Runs a request to the end from a signed-in page: consent, code, tokens; the ID token's claims. */
    async function finish(browser: PageBrowser, query: string, verifier: string, client: TestClient) {
      let page = await browser.authorize(query);
      if (page.status === 200) page = await browser.consent(page, 'allow');
      const { code } = callbackParams(page.location);
      const response = await server.post(
        '/token',
        { grant_type: 'authorization_code', code: code as string, redirect_uri: CALLBACK, code_verifier: verifier },
        { as: client },
      );
      assert.equal(response.status, 200);
      return decodeJwt(((await response.json()) as { id_token: string }).id_token);
    }

    it('a client that requires a second factor makes a user without one set it up during sign-in; a wrong code stores nothing', async () => {
      const browser = new PageBrowser(server);
      const { verifier, challenge } = pkce();
      const query = authorizationQuery('strict', challenge, { scope });
      const enrolPage = await password(browser, query, 'alice');
      assert.equal(enrolPage.status, 200);
      assert.match(enrolPage.html, /Set up two-step verification/);
      assert.match(enrolPage.html, /<svg class="qr"/);
      assert.equal(enrolPage.headers.get('cache-control'), 'no-store');
      const secret = enrolmentSecret(enrolPage.html);
      const pendingCheck = await browser.authorize(query);
      assert.match(pendingCheck.html, /Set up two-step verification/, 'a pending session goes on at its step');
      const wrong = String((Number(totpCode(secret, server.clock.now())) + 7) % 1_000_000).padStart(6, '0');
      const refused = await step(browser, enrolPage, {
        enrolment: hiddenField(enrolPage.html, 'enrolment'),
        code: wrong,
      });
      assert.equal(refused.status, 401);
      assert.match(refused.html, /That code did not work/);
      assert.equal(enrolmentSecret(refused.html), secret, 'the same key is shown again');
      const alice = await server.context.store.findUser('alice');
      assert.ok(alice);
      assert.deepEqual(await server.context.store.listSecondFactors(alice.subject), [], 'nothing half-written');
      const codesPage = await step(browser, refused, {
        enrolment: hiddenField(refused.html, 'enrolment'),
        code: totpCode(secret, server.clock.now()),
      });
      assert.equal(codesPage.status, 200);
      assert.equal(recoveryCodes(codesPage.html).length, 10);
      const [factor] = await server.context.store.listSecondFactors(alice.subject);
      assert.ok(factor && !factor.secret.includes(secret), 'the secret is stored sealed');
      const claims = await finish(browser, query, verifier, strict);
      assert.deepEqual(claims.amr, ['pwd', 'otp', 'mfa'], 'RFC 8176 §2');
      assert.equal(claims.acr, 'mfa', 'OIDC Core §2');
    });

    it('password then code signs in; the same code again is refused (RFC 6238 §5.2), and a wrong one too, both audited', async () => {
      const { secret } = await enrol('bob');
      const { verifier, challenge } = pkce();
      const query = authorizationQuery('strict', challenge, { scope });
      const browser = new PageBrowser(server);
      const factorPage = await password(browser, query, 'bob');
      assert.equal(factorPage.status, 200);
      assert.match(factorPage.html, /Two-step verification/);
      assert.doesNotMatch(factorPage.html, /name="password"/);
      const code = totpCode(secret, server.clock.now());
      const signedIn = await step(browser, factorPage, { code });
      assert.equal(signedIn.status, 303, signedIn.html.slice(0, 300));
      const claims = await finish(browser, query, verifier, strict);
      assert.deepEqual(claims.amr, ['pwd', 'otp', 'mfa']);

      const other = new PageBrowser(server);
      const again = await password(other, query, 'bob');
      const replayed = await step(other, again, { code });
      assert.equal(replayed.status, 401);
      assert.match(replayed.html, /used already/);
      const notSignedIn = await other.authorize(query);
      assert.doesNotMatch(notSignedIn.html, /action="\/consent"/, 'a refused step signs nobody in');
      const events = await server.context.store.listAuditEvents({ event: 'login_failed', limit: 10 });
      assert.equal(events.at(-1)?.reason, 'code_replayed');
    });

    it('a recovery code signs in once; the second use is refused', async () => {
      const { codes } = await enrol('carol');
      const query = authorizationQuery('strict', pkce().challenge, { scope });
      const first = new PageBrowser(server);
      const factorPage = await password(first, query, 'carol');
      const used = await first.post('/login', {
        csrf_token: hiddenField(factorPage.html, 'csrf_token'),
        request: hiddenField(factorPage.html, 'request'),
        method: 'recovery_code',
        code: codes[0],
      });
      assert.equal(used.status, 303);
      const second = new PageBrowser(server);
      const page = await password(second, query, 'carol');
      const refused = await second.post('/login', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        request: hiddenField(page.html, 'request'),
        method: 'recovery_code',
        code: codes[0],
      });
      assert.equal(refused.status, 401);
      const carol = await server.context.store.findUser('carol');
      assert.equal(await server.context.store.countRecoveryCodes(carol?.subject as string), 9);
    });

    /** The audit events `run` recorded, oldest first. */
    async function eventsDuring(run: () => Promise<void>): Promise<AuditEvent[]> {
      const known = new Set((await server.context.store.listAuditEvents({ limit: 10_000 })).map((e) => e.id));
      await run();
      return (await server.context.store.listAuditEvents({ limit: 10_000 })).filter((e) => !known.has(e.id));
    }
    const named = (events: readonly AuditEvent[]) => events.map((e) => `${e.event}/${e.reason}`);

    it('every step passed is audited once as sign_in_step_passed (its method, client, address and subject); a refused code writes its refusal only; no event holds a secret', async () => {
      await addTestUser(server, 'frank');
      const frank = await server.context.store.findUser('frank');
      assert.ok(frank);
      let enrolled = { secret: '', codes: [] as string[] };
      const enrolment = await eventsDuring(async () => {
        enrolled = await enrol('frank');
      });
      assert.deepEqual(named(enrolment), [
        'sign_in_step_passed/password',
        'second_factor_enrolled/otp',
        'sign_in_step_passed/otp_enrolment',
      ]);
      const query = authorizationQuery('strict', pkce().challenge, { scope });
      const code = totpCode(enrolled.secret, server.clock.now());
      /** The password, then `fields` on the factor page: its status, and the events recorded. */
      const signIn = async (fields: Record<string, string>) => {
        let status = 0;
        const events = await eventsDuring(async () => {
          const browser = new PageBrowser(server);
          status = (await step(browser, await password(browser, query, 'frank'), fields)).status;
        });
        return { status, events };
      };
      const wrong = await signIn({ code: String((Number(code) + 7) % 1_000_000).padStart(6, '0') });
      assert.equal(wrong.status, 401);
      assert.deepEqual(named(wrong.events), ['sign_in_step_passed/password', 'login_failed/wrong_code']);
      const otp = await signIn({ code });
      assert.equal(otp.status, 303, 'a refused code spent nothing: the right one of the same step passes');
      assert.deepEqual(named(otp.events), ['sign_in_step_passed/password', 'sign_in_step_passed/otp']);
      for (const e of otp.events) {
        assert.equal(e.subject, frank.subject);
        assert.equal(e.clientId, 'strict');
        assert.equal(e.address, '127.0.0.1');
      }
      const replayed = await signIn({ code });
      assert.equal(replayed.status, 401);
      assert.deepEqual(named(replayed.events), ['sign_in_step_passed/password', 'login_failed/code_replayed']);
      const recovery = enrolled.codes[0] as string;
      const used = await signIn({ method: 'recovery_code', code: recovery });
      assert.equal(used.status, 303);
      assert.deepEqual(named(used.events), [
        'sign_in_step_passed/password',
        'sign_in_step_passed/recovery_code: 9 left',
      ]);
      const usedAgain = await signIn({ method: 'recovery_code', code: recovery });
      assert.equal(usedAgain.status, 401);
      assert.deepEqual(named(usedAgain.events), ['sign_in_step_passed/password', 'login_failed/wrong_recovery_code']);
      const stored = JSON.stringify(
        [...enrolment, ...wrong.events, ...otp.events, ...replayed.events, ...used.events, ...usedAgain.events].map(
          ({ at: _at, ...e }) => e,
        ),
      );
      for (const secret of [PASSWORD, enrolled.secret, code, recovery, recovery.replaceAll('-', '')])
        assert.ok(!stored.includes(secret), 'no password, secret or code in an audit event');
    });

    it('a code accepted whose audit event cannot be written is not spent: the step and its event are one transaction', async () => {
      await addTestUser(server, 'gus');
      const { secret, codes } = await enrol('gus');
      const { store, signIn } = server.context;
      const gus = await store.findUser('gus');
      assert.ok(gus);
      const failing = new AuditTrail(withFailingAuditInsert(store), () => {});
      const now = server.clock.now();
      const otp = {
        subject: gus.subject,
        code: totpCode(secret, now),
        now,
        audited: { event: 'sign_in_step_passed', at: now, subject: gus.subject, reason: 'otp' },
      } as const;
      await assert.rejects(checkOneTimeCode(failing, store, signIn.factors, otp), /the audit insert failed/);
      assert.equal(await checkOneTimeCode(server.context.audit, store, signIn.factors, otp), 'ok', 'not spent');
      const recovery = {
        subject: gus.subject,
        typed: codes[0] as string,
        now,
        audited: () => ({ ...otp.audited, reason: 'recovery_code' }),
      } as const;
      await assert.rejects(useRecoveryCode(failing, recovery), /the audit insert failed/);
      assert.equal(await store.countRecoveryCodes(gus.subject), 10, 'not spent');
      assert.equal(await useRecoveryCode(server.context.audit, recovery), true);
    });

    it('acr_values=mfa steps a password-only session up at the factor page, not the password (OIDC Core §3.1.2.1)', async () => {
      const { secret } = await enrol('dave');
      const browser = new PageBrowser(server);
      // A client with second factors off: the password alone signs in.
      const plainPkce = pkce();
      const plainQuery = authorizationQuery('plain', plainPkce.challenge, { scope });
      assert.equal((await password(browser, plainQuery, 'dave')).status, 303);
      const sfa = await finish(browser, plainQuery, plainPkce.verifier, plain);
      assert.deepEqual(sfa.amr, ['pwd']);
      assert.equal(sfa.acr, 'sfa');
      // prompt=none cannot show the factor page (§3.1.2.6).
      const none = await browser.authorize(
        authorizationQuery('plain', pkce().challenge, { acr_values: 'mfa', prompt: 'none' }),
      );
      assert.equal(callbackParams(none.location).error, 'interaction_required');
      const { verifier, challenge } = pkce();
      const query = authorizationQuery('plain', challenge, { scope, acr_values: 'mfa' });
      const stepUp = await browser.authorize(query);
      assert.equal(stepUp.status, 200);
      assert.match(stepUp.html, /Two-step verification/);
      assert.doesNotMatch(stepUp.html, /name="password"/, 'not the password again');
      // A consent form posted meanwhile gets no code.
      const consent = await browser.consent({ ...stepUp, html: stepUp.html }, 'allow');
      assert.equal(consent.status, 303);
      assert.ok(consent.location?.includes('/authorize?'), 'back to /authorize, not to the client');
      const done = await step(browser, stepUp, { code: totpCode(secret, server.clock.now()) });
      assert.equal(done.status, 303);
      const mfa = await finish(browser, query, verifier, plain);
      assert.deepEqual(mfa.amr, ['pwd', 'otp', 'mfa']);
      assert.equal(mfa.acr, 'mfa');
    });

    it('the account page sets up one-time codes after a fresh sign-in, and refuses changes 10 minutes later (fresh_sign_in_required)', async () => {
      await addTestUser(server, 'gina');
      const browser = new PageBrowser(server);
      assert.equal(
        (await password(browser, authorizationQuery('plain', pkce().challenge, { scope }), 'gina')).status,
        303,
      );
      const enrolPage = await browser.get('/account/two-step');
      assert.equal(enrolPage.status, 200);
      const secret = enrolmentSecret(enrolPage.html);
      const codes = await browser.post('/account/two-step', {
        csrf_token: hiddenField(enrolPage.html, 'csrf_token'),
        enrolment: hiddenField(enrolPage.html, 'enrolment'),
        code: totpCode(secret, server.clock.now()),
      });
      assert.equal(codes.status, 200);
      assert.equal(recoveryCodes(codes.html).length, 10);
      const account = await browser.get('/account');
      assert.match(account.html, /Two-step verification is <strong>on<\/strong>/);
      server.clock.advance(11 * 60);
      const stale = await browser.get('/account');
      assert.match(stale.html, /Confirm it&#39;s you/);
      const refused = await browser.post('/account/recovery-codes', {
        csrf_token: hiddenField(stale.html, 'csrf_token'),
      });
      assert.equal(refused.status, 403);
      assert.match(refused.html, /Sign in again to change this/);
    });

    it('the account page counts a passkey: a user with one and no authenticator app has two-step verification on', async () => {
      await addTestUser(server, 'hugo');
      const hugo = await server.context.store.findUser('hugo');
      assert.ok(hugo);
      const browser = new PageBrowser(server);
      assert.equal(
        (await password(browser, authorizationQuery('plain', pkce().challenge, { scope }), 'hugo')).status,
        303,
      );
      const before = await browser.get('/account');
      assert.match(before.html, /Two-step verification is <strong>off<\/strong>/);
      await server.context.store.insertPasskey(testPasskey(hugo.subject, 'Hugo phone', server.clock.now()));
      const after = await browser.get('/account');
      assert.match(after.html, /Two-step verification is <strong>on<\/strong>: 1 passkey\./);
    });

    for (const fresh of [{ prompt: 'login' }, { max_age: '0' }] as const)
      it(`an enrolment during a sign-in with ${Object.keys(fresh)[0]} goes on to the client after the recovery codes, not to the password again (OIDC Core §3.1.2.1)`, async () => {
        const username = `ivo-${Object.keys(fresh)[0]}`;
        await addTestUser(server, username);
        const browser = new PageBrowser(server);
        const { verifier, challenge } = pkce();
        const query = authorizationQuery('strict', challenge, { scope, ...fresh });
        const enrolPage = await password(browser, query, username);
        assert.match(enrolPage.html, /Set up two-step verification/);
        const codesPage = await step(browser, enrolPage, {
          enrolment: hiddenField(enrolPage.html, 'enrolment'),
          code: totpCode(enrolmentSecret(enrolPage.html), server.clock.now()),
        });
        assert.equal(codesPage.status, 200);
        assert.equal(recoveryCodes(codesPage.html).length, 10);
        const continuation = {
          csrf_token: hiddenField(codesPage.html, 'csrf_token'),
          request: hiddenField(codesPage.html, 'request'),
          method: hiddenField(codesPage.html, 'method'),
          fresh: hiddenField(codesPage.html, 'fresh'),
        };
        server.clock.advance(30);
        // A continuation not sealed for this sign-in (tampered) leaves GET /authorize to decide: the password.
        const sealed = JSON.parse(continuation.fresh) as { tag: string };
        sealed.tag = (sealed.tag.startsWith('A') ? 'B' : 'A') + sealed.tag.slice(1);
        const tampered = await browser.post('/login', { ...continuation, fresh: JSON.stringify(sealed) });
        assert.equal(tampered.status, 303);
        assert.match(tampered.location ?? '', /\/authorize\?/);
        const again = new URL(tampered.location ?? '', server.url);
        assert.match((await browser.get(again.pathname + again.search)).html, /name="password"/);
        // "I saved them, continue": the consent page of this request, not the password.
        let page = await browser.post('/login', continuation);
        assert.equal(page.status, 200, page.html.slice(0, 300));
        assert.doesNotMatch(page.html, /name="password"/);
        page = await browser.consent(page, 'allow');
        const { code } = callbackParams(page.location);
        const response = await server.post(
          '/token',
          { grant_type: 'authorization_code', code: code as string, redirect_uri: CALLBACK, code_verifier: verifier },
          { as: strict },
        );
        assert.equal(response.status, 200);
        const claims = decodeJwt(((await response.json()) as { id_token: string }).id_token);
        assert.deepEqual(claims.amr, ['pwd', 'otp', 'mfa']);
        assert.equal(claims.auth_time, server.clock.now() - 30, 'the sign-in of this request (OIDC Core §2 auth_time)');
        // The continuation answers once per sign-in and request: 11 minutes later it asks again.
        server.clock.advance(11 * 60);
        const late = await browser.post('/login', continuation);
        assert.equal(late.status, 303);
        assert.match(late.location ?? '', /\/authorize\?/);
      });

    it('the metadata lists acr_values_supported and acr among the claims (OIDC Discovery §3)', async () => {
      const metadata = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Record<
        string,
        string[]
      >;
      assert.deepEqual(metadata.acr_values_supported, ['sfa', 'mfa']);
      assert.ok(metadata.claims_supported?.includes('acr'));
    });

    it('operators: `users add --require-second-factor` makes the user enrol at its first sign-in; `users factors` lists, `users reset-factors` removes, audited', async () => {
      const out: string[] = [];
      const cli = async (...argv: string[]) => {
        out.length = 0;
        const env = { DATABASE_URL: server.databaseUrl, ISSUER: 'http://gatehouse.test' };
        const code = await runCli(argv, env, {
          out: (t) => out.push(t),
          err: () => {},
          readInput: async () => PASSWORD,
        });
        assert.equal(code, 0);
        return JSON.parse(out.join('\n')) as Record<string, unknown>;
      };
      const added = await cli('users', 'add', '--username', 'erin', '--password-stdin', '--require-second-factor');
      assert.equal(added.second_factor_required, true);
      const browser = new PageBrowser(server);
      const enrolPage = await password(browser, authorizationQuery('plain', pkce().challenge, { scope }), 'erin');
      assert.match(enrolPage.html, /Set up two-step verification/, 'even at a client with second factors off');
      const secret = enrolmentSecret(enrolPage.html);
      const codes = await step(browser, enrolPage, {
        enrolment: hiddenField(enrolPage.html, 'enrolment'),
        code: totpCode(secret, server.clock.now()),
      });
      assert.equal(codes.status, 200);
      const erin = await server.context.store.findUser('erin');
      assert.ok(erin);
      await server.context.store.insertPasskey(testPasskey(erin.subject, 'Erin laptop', server.clock.now()));
      const listed = await cli('users', 'factors', 'erin');
      const kinds = (listed.factors as { kind: string }[]).map((f) => f.kind);
      assert.deepEqual(kinds, ['otp', 'recovery_codes', 'passkey']);
      const passkey = (listed.factors as Record<string, unknown>[])[2];
      assert.equal(passkey?.name, 'Erin laptop');
      assert.equal(passkey?.created_at, new Date(server.clock.now() * 1000).toISOString());
      assert.equal(passkey?.last_used_at, null);
      assert.ok(!JSON.stringify(listed).includes(secret), 'no secret listed');
      assert.ok(!JSON.stringify(listed).includes(PUBLIC_KEY), "no passkey's public key listed");
      const reset = await cli('users', 'reset-factors', 'erin', '--require-enrolment');
      assert.equal(reset.removed, 2, 'the authenticator app and the passkey');
      assert.deepEqual((await cli('users', 'factors', 'erin')).factors, []);
      assert.deepEqual(await server.context.store.listPasskeys(erin.subject), [], 'the passkey is gone');
      assert.equal(
        (await server.context.store.listAuditEvents({ event: 'second_factor_reset', limit: 50 })).filter(
          (e) => e.subject === erin.subject,
        ).length,
        1,
        'one audit record for the whole reset',
      );
      const [event] = (await server.context.store.listAuditEvents({ event: 'second_factor_reset', limit: 1 })).slice(
        -1,
      );
      assert.equal(event?.actor, 'cli');
      assert.equal(event?.reason, 'reset_by_admin');
      const signedOut = await browser.authorize(authorizationQuery('plain', pkce().challenge, { scope }));
      assert.match(signedOut.html, /name="password"/, 'the reset signed the user out');
    });
  });
