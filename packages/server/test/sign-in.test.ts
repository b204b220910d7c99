import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NO_RATE_LIMITS } from '../src/rate-limits.js';
import { RateLimiter } from '../src/abuse/rate-limiter.js';
import type { AuthorizationRequest } from '../src/oauth/authorization-request.js';
import { runSignInStep, type SignInSubmission } from '../src/authorize/sign-in/sign-in.js';
import { AuditTrail } from '../src/audit/audit.js';
import { amrOf, signedInSession, signInStateOf, type SignInState } from '../src/authorize/sign-in/state.js';
import { SIGN_IN_STEPS, type SignInStep } from '../src/authorize/sign-in/steps/index.js';
import { needsSignIn } from '../src/authorize/sign-in-freshness.js';
import type { BrowserSessionRecord } from '../src/store/identity-repository.js';
import { openStore } from '../src/store/open.js';
import { MemoryRateLimitStore } from '../src/store/sqlite/rate-limit-store.js';
import type { Store } from '../src/store/store.js';
import { addUser } from '../src/users/users.js';
import { DIALECTS, executeStatements, freshDatabase } from './_dialects.js';

const NOW = 1_800_000_000;
const PASSWORD = 'a long passphrase';

/** A second factor for the tests: the one-time code "123456" (RFC 8176 §2 "otp"). */
const testOtpStep: SignInStep = {
  method: 'otp',
  async check({ username, field }) {
    return field('otp') === '123456'
      ? { ok: true, username }
      : { ok: false, failure: 'wrong_password', auditedName: username };
  },
};

function submission(state: SignInState, fields: Record<string, string>, now = NOW): SignInSubmission {
  return { state, field: (name) => fields[name], address: '192.0.2.1', clientId: 'app', now };
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

describe('sign-in steps', () => {
  let database: { url: string; drop(): Promise<void> };
  let store: Store;
  const services = (): Parameters<typeof runSignInStep>[0] => ({
    store,
    audit: new AuditTrail(store, () => {}),
    rateLimits: new RateLimiter(new MemoryRateLimitStore(), NO_RATE_LIMITS),
  });
  const anonymous: SignInState = { status: 'anonymous' };

  before(async () => {
    database = await freshDatabase('sqlite');
    store = await openStore(database.url);
    await addUser(store, 'alice', PASSWORD, NOW);
  });
  after(async () => {
    await store.close();
    await database.drop();
  });

  it('today one step, the password: it records amr "pwd" with its time, and auth_time is the sign-in (RFC 8176 §2, OIDC Core §2)', async () => {
    assert.deepEqual(
      SIGN_IN_STEPS.map((s) => s.method),
      ['pwd'],
    );
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

  it('a first factor with more required leaves the session pending, and a pending session is signed in nowhere (OIDC Core §3.1.2.1, RFC 8176 §2)', async () => {
    const steps = [...SIGN_IN_STEPS, testOtpStep];
    const first = await runSignInStep(
      services(),
      submission(anonymous, { username: 'alice', password: PASSWORD }),
      steps,
    );
    assert.equal(first.kind, 'pending');
    assert.equal(first.next, 'otp');
    const pending = await stored(store, 'b'.repeat(64), first.state);
    assert.equal(signInStateOf(pending).status, 'pending');
    assert.equal(signedInSession(pending), undefined, 'not signed in');
    const request = { oidc: { prompt: new Set<string>(), maxAge: undefined } } as unknown as AuthorizationRequest;
    assert.equal(needsSignIn(request, pending, NOW, true), true, 'not even just after the first factor');

    const wrong = await runSignInStep(services(), submission(first.state, { otp: '000000' }, NOW + 20), steps);
    assert.equal(wrong.kind, 'refused');
    const second = await runSignInStep(services(), submission(first.state, { otp: '123456' }, NOW + 30), steps);
    assert.equal(second.kind, 'signed_in');
    assert.deepEqual(second.state.methods, [
      { method: 'pwd', at: NOW },
      { method: 'otp', at: NOW + 30 },
    ]);
    assert.equal(second.state.authTime, NOW + 30, 'auth_time is when the sign-in completed');
    const done = await stored(store, 'c'.repeat(64), second.state);
    assert.deepEqual(amrOf(done), ['pwd', 'otp']);
    assert.equal(signedInSession(done)?.username, 'alice');
  });

  it('past a failure limit the step is not run at all (NIST SP 800-63B §5.2.2)', async () => {
    const limited = {
      store,
      audit: new AuditTrail(store, () => {}),
      rateLimits: new RateLimiter(new MemoryRateLimitStore(), {
        ...NO_RATE_LIMITS,
        login_failure_user: { limit: 1, periodMs: 60_000 },
      }),
    };
    await runSignInStep(limited, submission(anonymous, { username: 'alice', password: 'wrong' }));
    const result = await runSignInStep(limited, submission(anonymous, { username: 'alice', password: PASSWORD }));
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
