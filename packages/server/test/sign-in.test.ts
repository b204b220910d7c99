import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NO_RATE_LIMITS } from '../src/rate-limits.js';
import { RateLimiter } from '../src/abuse/rate-limiter.js';
import type { AuthorizationRequest } from '../src/oauth/authorization-requests/authorization-request.js';
import { runSignInStep, type SignInSubmission } from '../src/authorize/sign-in/sign-in.js';
import { AuditTrail } from '../src/audit/audit.js';
import { amrOf, signedInSession, signInStateOf, type SignInState } from '../src/authorize/sign-in/state.js';
import { FIRST_FACTORS, SECOND_FACTORS } from '../src/authorize/sign-in/steps/index.js';
import { FactorSealing } from '../src/factors/sealing.js';
import { beginOtpEnrolment } from '../src/factors/factors.js';
import { totpCode } from '../src/factors/totp.js';
import type { SecondFactorPolicy } from '../src/primitives/records.js';
import { needsSignIn } from '../src/authorize/sign-in-freshness.js';
import type { BrowserSessionRecord } from '../src/store/identity-repository.js';
import { openStore } from '../src/store/open.js';
import { MemoryRateLimitStore } from '../src/store/sqlite/rate-limit-store.js';
import type { Store } from '../src/store/store.js';
import { addUser } from '../src/users/users.js';
import { DIALECTS, executeStatements, freshDatabase } from './_dialects.js';
import { hashTestPasswordsCheaply } from './_password-cost.js';

hashTestPasswordsCheaply();

const NOW = 1_800_000_000;
const PASSWORD = 'a long passphrase';

const SESSION_ID = 's'.repeat(64);

function submission(
  state: SignInState,
  fields: Record<string, string>,
  now = NOW,
  policy: SecondFactorPolicy = 'optional',
): SignInSubmission {
  return {
    state,
    sessionId: SESSION_ID,
    field: (name) => fields[name],
    address: '192.0.2.1',
    clientId: 'app',
    policy,
    now,
  };
}

/** The session a sign-in state is stored as, read back from the store. */
async function stored(store: Store, id: string, state: SignInState): Promise<BrowserSessionRecord> {
  await store.insertBrowserSession({
    id,
    csrfToken: 't',
    username: state.status === 'anonymous' ? null : state.username,
    authenticatedAt: state.status === 'signed_in' ? state.authTime : null,
    pending: state.status === 'pending',
    methods: state.status === 'anonymous' ? [] : state.methods,
    createdAt: NOW,
    expiresAt: NOW + 3600,
  });
  const session = await store.findBrowserSession(id, NOW);
  assert.ok(session);
  return session;
}

for (const dialect of DIALECTS)
  describe(`sign-in pipeline [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let store: Store;
    const factors = { sealing: new FactorSealing('f'.repeat(43), undefined), issuer: 'http://localhost:1' };
    const services = (): Parameters<typeof runSignInStep>[0] => ({
      store,
      audit: new AuditTrail(store, () => {}),
      rateLimits: new RateLimiter(new MemoryRateLimitStore(), NO_RATE_LIMITS),
      factors,
    });
    const anonymous: SignInState = { status: 'anonymous' };
    /** Signs `username` up for one-time codes through the pipeline; its secret and recovery codes. */
    async function enrol(username: string, now: number): Promise<{ secret: string; codes: readonly string[] }> {
      const first = await runSignInStep(
        services(),
        submission(anonymous, { username, password: PASSWORD }, now, 'required'),
      );
      assert.equal(first.kind, 'pending');
      const enrolment = beginOtpEnrolment(factors, SESSION_ID, username);
      const fields = { method: 'otp_enrolment', enrolment: enrolment.sealed, code: totpCode(enrolment.secret, now) };
      const done = await runSignInStep(services(), submission(first.state, fields, now));
      assert.equal(done.kind, 'signed_in');
      assert.ok(done.reveal);
      return { secret: enrolment.secret, codes: done.reveal };
    }

    before(async () => {
      database = await freshDatabase(dialect);
      store = await openStore(database.url);
      for (const name of ['alice', 'bob', 'carol', 'dave', 'erin']) await addUser(store, name, PASSWORD, NOW);
    });
    after(async () => {
      await store.close();
      await database.drop();
    });

    it('the first factors are a table keyed by the form (password, passkey_sign_in), the second factors another (otp, recovery_code, passkey)', () => {
      assert.deepEqual(Object.keys(FIRST_FACTORS), ['password', 'passkey_sign_in']);
      assert.deepEqual(Object.keys(SECOND_FACTORS), ['otp', 'recovery_code', 'passkey']);
    });

    it('a password alone, for a user without a second factor: amr "pwd", auth_time the sign-in (RFC 8176 §2, OIDC Core §2)', async () => {
      const result = await runSignInStep(services(), submission(anonymous, { username: 'Alice', password: PASSWORD }));
      assert.equal(result.kind, 'signed_in');
      assert.deepEqual(result.state, {
        status: 'signed_in',
        username: 'alice',
        methods: [{ method: 'pwd', at: NOW }],
        authTime: NOW,
      });
      const session = await stored(store, 'a'.repeat(64), result.state);
      assert.deepEqual(signInStateOf(session), result.state, 'the store keeps the methods and their times');
      assert.deepEqual(amrOf(session), ['pwd']);
      assert.equal(signedInSession(session)?.authenticatedAt, NOW);
    });

    it('a wrong password is refused as plain data, audited, and signs nobody in', async () => {
      const result = await runSignInStep(services(), submission(anonymous, { username: 'alice', password: 'wrong' }));
      assert.deepEqual(result, { kind: 'refused', username: 'alice', failure: 'wrong_password' });
      const events = await store.listAuditEvents({ event: 'login_failed', limit: 10 });
      assert.equal(events.at(-1)?.subject, 'alice');
    });

    it('under "required", a user without a factor is pending at enrolment; a wrong confirmation code stores nothing', async () => {
      const first = await runSignInStep(
        services(),
        submission(anonymous, { username: 'bob', password: PASSWORD }, NOW, 'required'),
      );
      assert.equal(first.kind, 'pending');
      assert.deepEqual(first.due, { kind: 'enrol' });
      const pending = await stored(store, 'b'.repeat(64), first.state);
      assert.equal(signedInSession(pending), undefined, 'a pending session is signed in nowhere');
      const request = { oidc: { prompt: new Set<string>(), maxAge: undefined } } as unknown as AuthorizationRequest;
      assert.equal(needsSignIn(request, pending, NOW, true), true);
      const enrolment = beginOtpEnrolment(factors, SESSION_ID, 'bob');
      const wrongCode = String((Number(totpCode(enrolment.secret, NOW)) + 1) % 1_000_000).padStart(6, '0');
      const wrong = await runSignInStep(
        services(),
        submission(first.state, { method: 'otp_enrolment', enrolment: enrolment.sealed, code: wrongCode }),
      );
      assert.equal(wrong.kind, 'refused');
      const bob = await store.findUser('bob');
      assert.ok(bob);
      assert.deepEqual(await store.listSecondFactors(bob.subject), [], 'no factor half-written');
      assert.equal(await store.countRecoveryCodes(bob.subject), 0, 'no recovery codes either');
      const elsewhere = beginOtpEnrolment(factors, 'x'.repeat(64), 'bob');
      const foreign = await runSignInStep(
        services(),
        submission(first.state, {
          method: 'otp_enrolment',
          enrolment: elsewhere.sealed,
          code: totpCode(elsewhere.secret, NOW),
        }),
      );
      assert.deepEqual(foreign.kind === 'refused' && foreign.failure, 'enrolment_refused', "another session's secret");
    });

    it('enrolment stores the secret sealed, ten recovery codes by digest, and records "otp" and "mfa" (RFC 8176 §2)', async () => {
      const { secret, codes } = await enrol('carol', NOW);
      assert.equal(codes.length, 10);
      const carol = await store.findUser('carol');
      assert.ok(carol);
      const [factor] = await store.listSecondFactors(carol.subject);
      assert.ok(factor);
      assert.ok(!factor.secret.includes(secret), 'the stored secret is sealed');
      assert.equal(await store.countRecoveryCodes(carol.subject), 10);
      const events = await store.listAuditEvents({ event: 'second_factor_enrolled', limit: 10 });
      assert.equal(events.at(-1)?.subject, carol.subject);
    });

    it('a code is good once: the same code again in its window is refused (RFC 6238 §5.2), ±1 step accepted', async () => {
      const { secret } = await enrol('dave', NOW);
      const t = NOW + 300;
      const first = await runSignInStep(services(), submission(anonymous, { username: 'dave', password: PASSWORD }, t));
      assert.equal(first.kind, 'pending', 'optional: a user with a factor is asked for it');
      assert.deepEqual(first.due, { kind: 'choose', factors: ['otp', 'recovery_code'] });
      const code = totpCode(secret, t - 30);
      const ok = await runSignInStep(services(), submission(first.state, { method: 'otp', code }, t));
      assert.equal(ok.kind, 'signed_in');
      assert.deepEqual(
        ok.state.methods.map((m) => m.method),
        ['pwd', 'otp'],
      );
      assert.deepEqual(amrOf(await stored(store, 'd'.repeat(64), ok.state)), ['pwd', 'otp', 'mfa']);
      const again = await runSignInStep(services(), submission(first.state, { method: 'otp', code }, t + 1));
      assert.deepEqual(again.kind === 'refused' && again.failure, 'code_replayed');
      const older = await runSignInStep(
        services(),
        submission(first.state, { method: 'otp', code: totpCode(secret, t - 60) }, t + 1),
      );
      assert.equal(older.kind, 'refused', 'a code of an earlier step than one used is refused too');
    });

    it('two requests with one code at once: one passes (one conditional UPDATE)', async () => {
      const { secret } = await enrol('erin', NOW);
      const t = NOW + 600;
      const first = await runSignInStep(services(), submission(anonymous, { username: 'erin', password: PASSWORD }, t));
      assert.equal(first.kind, 'pending');
      const fields = { method: 'otp', code: totpCode(secret, t) };
      const results = await Promise.all(
        Array.from({ length: 4 }, () => runSignInStep(services(), submission(first.state, fields, t))),
      );
      assert.equal(results.filter((r) => r.kind === 'signed_in').length, 1);
    });

    it('a recovery code signs in once; the second use is refused', async () => {
      const alice = await store.findUser('alice');
      assert.ok(alice);
      const { codes } = await enrol('alice', NOW + 1000);
      const t = NOW + 1200;
      const first = await runSignInStep(
        services(),
        submission(anonymous, { username: 'alice', password: PASSWORD }, t),
      );
      assert.equal(first.kind, 'pending');
      const code = (codes[3] as string).toUpperCase();
      const used = await runSignInStep(services(), submission(first.state, { method: 'recovery_code', code }, t));
      assert.equal(used.kind, 'signed_in');
      const twice = await runSignInStep(services(), submission(first.state, { method: 'recovery_code', code }, t));
      assert.deepEqual(twice.kind === 'refused' && twice.failure, 'wrong_recovery_code');
      assert.equal(await store.countRecoveryCodes(alice.subject), 9);
    });

    it('step-up: a signed-in password session does a second factor without the password (OIDC Core §3.1.2.1 acr_values)', async () => {
      const user = await store.findUser('dave');
      assert.ok(user);
      const t = NOW + 2000;
      const session: SignInState = {
        status: 'signed_in',
        username: 'dave',
        methods: [{ method: 'pwd', at: t }],
        authTime: t,
      };
      const factor = await store.findSecondFactor(user.subject, 'otp');
      assert.ok(factor);
      const secret = factors.sealing.open(factor.secret, `otp:${user.subject}`);
      const result = await runSignInStep(
        services(),
        submission(session, { method: 'otp', code: totpCode(secret, t) }, t),
      );
      assert.equal(result.kind, 'signed_in');
      assert.deepEqual(
        result.state.methods.map((m) => m.method),
        ['pwd', 'otp'],
      );
    });

    it('a second-factor form without a sign-in under way, or an unknown method, is stale', async () => {
      assert.deepEqual(await runSignInStep(services(), submission(anonymous, { method: 'otp', code: '123456' })), {
        kind: 'stale',
      });
      assert.deepEqual(await runSignInStep(services(), submission(anonymous, { method: 'toString' })), {
        kind: 'stale',
      });
    });

    it('past a failure limit no step is run at all, second factors included (NIST SP 800-63B §5.2.2)', async () => {
      const limited = {
        ...services(),
        rateLimits: new RateLimiter(new MemoryRateLimitStore(), {
          ...NO_RATE_LIMITS,
          login_failure_user: { limit: 1, periodMs: 60_000 },
        }),
      };
      const t = NOW + 3000;
      const first = await runSignInStep(limited, submission(anonymous, { username: 'carol', password: PASSWORD }, t));
      assert.equal(first.kind, 'pending');
      await runSignInStep(limited, submission(first.state, { method: 'otp', code: '000000' }, t));
      const result = await runSignInStep(limited, submission(first.state, { method: 'otp', code: '111111' }, t));
      assert.equal(result.kind, 'rate_limited');
    });
  });

for (const dialect of DIALECTS)
  describe(`migration 0013_sign_in_methods [${dialect}]`, () => {
    it('signs no one out: a session signed in before it is signed in after, by "pwd" at its auth_time (RFC 8176 §2)', async () => {
      const database = await freshDatabase(dialect);
      try {
        const before = await openStore(database.url);
        await addUser(before, 'alice', PASSWORD, NOW);
        await before.close();
        await executeStatements(dialect, database.url, [
          'alter table browser_sessions drop column pending',
          'alter table browser_sessions drop column methods',
          'alter table authorization_codes drop column amr',
          'alter table device_authorizations drop column amr',
          'alter table grant_authentications drop column amr',
          "delete from kysely_migration where name = '0013_sign_in_methods'",
          `insert into browser_sessions (id, csrf_token, username, authenticated_at, created_at, expires_at)
           values ('${'s'.repeat(64)}', 't', 'alice', ${NOW - 60}, ${NOW - 60}, ${NOW + 3600}),
                  ('${'n'.repeat(64)}', 't', null, null, ${NOW}, ${NOW + 3600})`,
        ]);
        const after = await openStore(database.url);
        try {
          const signedIn = await after.findBrowserSession('s'.repeat(64), NOW);
          assert.equal(signedInSession(signedIn)?.username, 'alice');
          assert.deepEqual(signedIn?.methods, [{ method: 'pwd', at: NOW - 60 }]);
          assert.equal(signedIn && amrOf(signedIn).join(), 'pwd');
          const anonymous = await after.findBrowserSession('n'.repeat(64), NOW);
          assert.equal(anonymous && signInStateOf(anonymous).status, 'anonymous');
        } finally {
          await after.close();
        }
      } finally {
        await database.drop();
      }
    });
  });
