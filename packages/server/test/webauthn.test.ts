import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { RateLimiter } from '../src/abuse/rate-limiter.js';
import { AuditTrail } from '../src/audit/audit.js';
import { runSignInStep } from '../src/authorize/sign-in/sign-in.js';
import { FactorSealing } from '../src/factors/sealing.js';
import { NO_RATE_LIMITS } from '../src/rate-limits.js';
import { openStore } from '../src/store/open.js';
import { MemoryRateLimitStore } from '../src/store/sqlite/rate-limit-store.js';
import type { Store } from '../src/store/store.js';
import { addUser } from '../src/users/users.js';
import {
  amrOfAssertion,
  authenticationOptions,
  CHALLENGE_TTL,
  enrolPasskey,
  registrationOptions,
  relyingPartyOf,
  verifyPasskeyAssertion,
  type AssertionUse,
  type PasskeyOwner,
  type RelyingParty,
} from '../src/webauthn/index.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { withFailingAuditInsert } from './_factors.js';
import { SoftAuthenticator, type AuthenticatorFlags } from './_webauthn.js';
import { hashTestPasswordsCheaply } from './_password-cost.js';

hashTestPasswordsCheaply();

const NOW = 1_800_000_000;
const RP = relyingPartyOf('https://login.example.com') as RelyingParty;

describe('the Relying Party of an issuer (WebAuthn §5.1.2, §13.4.9)', () => {
  it('takes the RP ID from the issuer host and the one accepted origin from the issuer origin', () => {
    assert.deepEqual(relyingPartyOf('https://login.example.com/tenant'), {
      id: 'login.example.com',
      name: 'Gatehouse',
      origin: 'https://login.example.com',
    });
    assert.deepEqual(relyingPartyOf('http://localhost:8080'), {
      id: 'localhost',
      name: 'Gatehouse',
      origin: 'http://localhost:8080',
    });
  });

  it('offers no passkeys on an IP-literal issuer: an RP ID is a domain, never an IP address (WebAuthn §5.1.2)', () => {
    assert.equal(relyingPartyOf('http://127.0.0.1:8080'), undefined);
    assert.equal(relyingPartyOf('http://[::1]:8080'), undefined);
  });

  it('records hwk for a key that cannot leave its authenticator (BE=0), swk for a synced one (BE=1), and user when verified (RFC 8176 §2)', () => {
    assert.deepEqual(amrOfAssertion(false, true), ['hwk', 'user']);
    assert.deepEqual(amrOfAssertion(true, true), ['swk', 'user']);
    assert.deepEqual(amrOfAssertion(false, false), ['hwk']);
  });
});

for (const dialect of DIALECTS)
  describe(`passkeys: enrolment and assertion [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let store: Store;
    let alice: PasskeyOwner;
    let bob: PasskeyOwner;

    before(async () => {
      database = await freshDatabase(dialect);
      store = await openStore(database.url);
      const a = await addUser(store, 'alice', 'a long passphrase', NOW);
      const b = await addUser(store, 'bob', 'a long passphrase', NOW);
      alice = { subject: a.subject, username: 'alice', displayName: 'Alice' };
      bob = { subject: b.subject, username: 'bob', displayName: 'Bob' };
    });
    after(async () => {
      await store?.close();
      await database?.drop();
    });

    /** A browser session (challenges are bound to one). */
    async function session(): Promise<string> {
      const id = randomBytes(32).toString('hex');
      await store.insertBrowserSession({
        id,
        csrfToken: 't',
        username: null,
        authenticatedAt: null,
        createdAt: NOW,
        expiresAt: NOW + 3600,
      });
      return id;
    }

    /** A new authenticator holding a passkey of `owner`, enrolled through the ceremony. */
    async function enrolled(owner: PasskeyOwner, flags: AuthenticatorFlags = { userVerified: true }) {
      const authenticator = new SoftAuthenticator(RP.id, RP.origin, flags);
      const sessionId = await session();
      const options = await registrationOptions(store, RP, owner, sessionId, NOW);
      const result = await enrolPasskey(store, RP, {
        owner,
        sessionId,
        response: authenticator.create(options),
        name: 'Laptop',
        now: NOW,
      });
      assert.ok(result.ok, JSON.stringify(result));
      return authenticator;
    }

    async function assertion(use: AssertionUse = { kind: 'passwordless' }) {
      const sessionId = await session();
      const options = await authenticationOptions(store, RP, use, sessionId, NOW);
      const verify = (response: string, now = NOW + 1) =>
        verifyPasskeyAssertion(store, RP, { use, sessionId, response, now });
      return { sessionId, options, verify };
    }

    it('enrols a discoverable passkey with user verification required and stores its counter and backup flags (WebAuthn §7.1, §6.1)', async () => {
      const authenticator = await enrolled(alice, { userVerified: true, backupEligible: true, backedUp: true });
      const [stored] = (await store.listPasskeys(alice.subject)).filter((p) => p.id === authenticator.credentialId);
      assert.ok(stored);
      assert.equal(stored.name, 'Laptop');
      assert.equal(stored.counter, 0);
      assert.equal(stored.backupEligible, true);
      assert.equal(stored.backedUp, true);
      assert.deepEqual(stored.transports, ['internal']);
      assert.equal(stored.lastUsedAt, null);
      const options = await registrationOptions(store, RP, alice, await session(), NOW);
      assert.equal(options.authenticatorSelection?.residentKey, 'required');
      assert.equal(options.authenticatorSelection?.userVerification, 'required');
      assert.equal(options.rp.id, 'login.example.com');
      assert.ok(
        options.excludeCredentials?.some((c) => c.id === authenticator.credentialId),
        'a passkey is not made twice (§5.4 excludeCredentials)',
      );
    });

    it('signs in without a password: the credential names its user, the counter and last use are stored, amr is swk+user or hwk+user (WebAuthn §7.2, RFC 8176 §2)', async () => {
      for (const [flags, amr] of [
        [{ userVerified: true }, ['hwk', 'user']],
        [{ userVerified: true, backupEligible: true, backedUp: true }, ['swk', 'user']],
      ] as const) {
        const authenticator = await enrolled(alice, flags);
        const { options, verify } = await assertion();
        assert.equal(options.userVerification, 'required');
        assert.equal(options.allowCredentials, undefined, 'discoverable: no credential listed');
        const result = await verify(authenticator.get(options));
        assert.ok(result.ok, JSON.stringify(result));
        assert.equal(result.passkey.username, 'alice');
        assert.deepEqual(result.amr, amr);
        const stored = (await store.findPasskey(authenticator.credentialId))!;
        assert.equal(stored.counter, 1);
        assert.equal(stored.lastUsedAt, NOW + 1);
      }
    });

    it('refuses a challenge the server never issued (WebAuthn §7.2 step 12, §13.4.3)', async () => {
      const authenticator = await enrolled(alice);
      const { options, verify } = await assertion();
      const result = await verify(authenticator.get(options, { challenge: randomBytes(32).toString('base64url') }));
      assert.deepEqual(result, { ok: false, reason: 'challenge_unknown' });
    });

    it("refuses another session's challenge: a challenge is bound to the session that asked for it (WebAuthn §13.4.3)", async () => {
      const authenticator = await enrolled(alice);
      const mine = await assertion();
      const other = await assertion();
      const result = await other.verify(authenticator.get(mine.options));
      assert.deepEqual(result, { ok: false, reason: 'challenge_unknown' });
      assert.ok(
        (await mine.verify(authenticator.get(mine.options))).ok,
        'the challenge was not burnt by the other session',
      );
    });

    it('refuses a replayed response: a challenge is used once (WebAuthn §13.4.3)', async () => {
      const authenticator = await enrolled(alice);
      const { options, verify } = await assertion();
      const response = authenticator.get(options);
      assert.equal((await verify(response)).ok, true);
      assert.deepEqual(await verify(response), { ok: false, reason: 'challenge_unknown' });
    });

    it('refuses an expired challenge (short-lived, WebAuthn §13.4.3)', async () => {
      const authenticator = await enrolled(alice);
      const { options, verify } = await assertion();
      const result = await verify(authenticator.get(options), NOW + CHALLENGE_TTL);
      assert.deepEqual(result, { ok: false, reason: 'challenge_expired' });
    });

    it('refuses a response made for another origin (WebAuthn §7.2 step 13) or another RP ID (step 15)', async () => {
      const authenticator = await enrolled(alice);
      const first = await assertion();
      const wrongOrigin = await first.verify(authenticator.get(first.options, { origin: 'https://evil.example' }));
      assert.equal(wrongOrigin.ok === false && wrongOrigin.reason, 'origin_mismatch');
      const second = await assertion();
      const wrongRp = await second.verify(authenticator.get(second.options, { rpId: 'evil.example' }));
      assert.equal(wrongRp.ok === false && wrongRp.reason, 'verification_failed');
    });

    it('refuses an unknown credential, and a removed one (WebAuthn §7.2 step 5)', async () => {
      const stranger = new SoftAuthenticator(RP.id, RP.origin);
      const first = await assertion();
      assert.deepEqual(await first.verify(stranger.get(first.options)), { ok: false, reason: 'unknown_credential' });
      const authenticator = await enrolled(alice);
      assert.equal(await store.removePasskey(bob.subject, authenticator.credentialId), false, "not bob's to remove");
      assert.equal(await store.removePasskey(alice.subject, authenticator.credentialId), true);
      const second = await assertion();
      assert.deepEqual(await second.verify(authenticator.get(second.options)), {
        ok: false,
        reason: 'unknown_credential',
      });
    });

    it('refuses a signature counter that goes backwards and keeps the stored one (WebAuthn §7.2 step 21)', async () => {
      const authenticator = await enrolled(alice);
      authenticator.counter = 41;
      const first = await assertion();
      assert.equal((await first.verify(authenticator.get(first.options))).ok, true);
      const second = await assertion();
      const result = await second.verify(authenticator.get(second.options, { counter: 42 }));
      assert.equal(result.ok === false && result.reason, 'counter_regressed', 'equal is not growing');
      const third = await assertion();
      const lower = await third.verify(authenticator.get(third.options, { counter: 7 }));
      assert.equal(lower.ok === false && lower.reason, 'counter_regressed');
      assert.equal((await store.findPasskey(authenticator.credentialId))?.counter, 42);
    });

    it('accepts a counter that stays zero: an authenticator without a counter (WebAuthn §6.1.1)', async () => {
      const authenticator = await enrolled(alice);
      for (let i = 0; i < 2; i++) {
        const { options, verify } = await assertion();
        assert.equal((await verify(authenticator.get(options, { counter: 0 }))).ok, true);
      }
    });

    it('refuses a passwordless sign-in without user verification (WebAuthn §7.2 step 17)', async () => {
      const authenticator = await enrolled(alice);
      const { options, verify } = await assertion();
      const result = await verify(authenticator.get(options, { userVerified: false }));
      assert.equal(result.ok === false && result.reason, 'verification_failed');
    });

    it("refuses a user handle that is not the credential owner's (WebAuthn §7.2 step 6)", async () => {
      const authenticator = await enrolled(alice);
      const { options, verify } = await assertion();
      const result = await verify(
        authenticator.get(options, { userHandle: Buffer.from(bob.subject).toString('base64url') }),
      );
      assert.equal(result.ok === false && result.reason, 'user_handle_mismatch');
    });

    it('refuses a credential whose backup eligibility changed: BE is fixed at creation (WebAuthn §6.1.3)', async () => {
      const authenticator = await enrolled(alice);
      const { options, verify } = await assertion();
      const result = await verify(authenticator.get(options, { backupEligible: true }));
      assert.equal(result.ok === false && result.reason, 'backup_eligibility_changed');
    });

    it("as a second factor: the known user's credentials only, listed in the options", async () => {
      const alices = await enrolled(alice);
      const bobs = await enrolled(bob);
      const use: AssertionUse = { kind: 'second_factor', subject: alice.subject };
      const first = await assertion(use);
      assert.ok(first.options.allowCredentials?.some((c) => c.id === alices.credentialId));
      assert.ok(!first.options.allowCredentials?.some((c) => c.id === bobs.credentialId));
      assert.deepEqual(await first.verify(bobs.get(first.options)), { ok: false, reason: 'unknown_credential' });
      const second = await assertion(use);
      assert.equal((await second.verify(alices.get(second.options))).ok, true);
    });

    it('refuses an enrolment answering another origin, replayed, without user verification, or already registered (WebAuthn §7.1)', async () => {
      const sessionId = await session();
      const enrol = (response: string) =>
        enrolPasskey(store, RP, { owner: alice, sessionId, response, name: undefined, now: NOW });
      const a = new SoftAuthenticator(RP.id, RP.origin);
      const o1 = await registrationOptions(store, RP, alice, sessionId, NOW);
      assert.deepEqual(await enrol(a.create(o1, { origin: 'https://evil.example' })), {
        ok: false,
        reason: 'origin_mismatch',
      });
      const o2 = await registrationOptions(store, RP, alice, sessionId, NOW);
      assert.deepEqual(await enrol(a.create(o2, { userVerified: false })), {
        ok: false,
        reason: 'verification_failed',
      });
      const o3 = await registrationOptions(store, RP, alice, sessionId, NOW);
      const good = a.create(o3);
      assert.equal((await enrol(good)).ok, true);
      assert.deepEqual(await enrol(good), { ok: false, reason: 'challenge_unknown' }, 'replayed');
      const o4 = await registrationOptions(store, RP, alice, sessionId, NOW);
      assert.deepEqual(await enrol(a.create(o4)), { ok: false, reason: 'already_registered' });
      const o5 = await registrationOptions(store, RP, bob, sessionId, NOW);
      assert.deepEqual(await enrol(a.create(o5)), { ok: false, reason: 'challenge_unknown' }, "bob's challenge");
      assert.deepEqual(await enrol('{"id":"x"'), { ok: false, reason: 'malformed' });
      assert.equal((await store.listPasskeys(alice.subject)).filter((p) => p.id === a.credentialId).length, 1);
    });

    /** The pipeline's services, the Relying Party's included (StepServices.relyingParty). */
    const pipeline = () => ({
      store,
      audit: new AuditTrail(store, () => {}),
      rateLimits: new RateLimiter(new MemoryRateLimitStore(), NO_RATE_LIMITS),
      factors: { sealing: new FactorSealing('f'.repeat(43), undefined), issuer: 'http://localhost:1' },
      relyingParty: RP,
    });

    it('the passkey sign-in step (FIRST_FACTORS.passkey_sign_in): signed in as the owner with amr hwk+user; a refusal is audited with its reason and counted against the owner', async () => {
      const authenticator = await enrolled(alice);
      const services = pipeline();
      const { sessionId, options } = await assertion();
      const submit = (credential: string) =>
        runSignInStep(services, {
          state: { status: 'anonymous' },
          sessionId,
          field: (name) => ({ credential, method: 'passkey_sign_in' })[name as 'credential' | 'method'],
          address: '192.0.2.9',
          clientId: 'app',
          policy: 'optional',
          now: NOW + 5,
        });
      const response = authenticator.get(options);
      const result = await submit(response);
      assert.equal(result.kind, 'signed_in');
      assert.deepEqual(result.kind === 'signed_in' && result.state.methods, [
        { method: 'hwk', at: NOW + 5 },
        { method: 'user', at: NOW + 5 },
      ]);
      assert.equal(result.kind === 'signed_in' && result.state.username, 'alice');
      const replay = await submit(response);
      assert.deepEqual(replay, { kind: 'refused', username: '', failure: 'passkey_challenge_invalid' });
      const [replayed] = await store.listAuditEvents({ event: 'login_failed', limit: 1 });
      assert.equal(replayed?.reason, 'passkey_challenge_invalid');
      assert.equal(replayed?.subject, null, 'no credential was looked up for a challenge never issued');
      const next = await authenticationOptions(store, RP, { kind: 'passwordless' }, sessionId, NOW);
      const regressed = await submit(authenticator.get(next, { counter: 0 }));
      assert.equal(regressed.kind === 'refused' && regressed.failure, 'passkey_counter_regressed');
      const [event] = await store.listAuditEvents({ event: 'login_failed', limit: 1 });
      assert.equal(event?.reason, 'passkey_counter_regressed');
      assert.equal(event?.subject, 'alice', "a known credential's refusal names its owner");
      const passed = await store.listAuditEvents({ event: 'sign_in_step_passed', limit: 10 });
      assert.deepEqual(
        passed.map((e) => [e.reason, e.subject, e.clientId, e.address]),
        [['passkey_sign_in: hwk user', alice.subject, 'app', '192.0.2.9']],
        'the success audited once, the refusals not',
      );
      assert.ok(!JSON.stringify(passed).includes(JSON.parse(response).response.signature), 'not the assertion');
      assert.equal((await store.findPasskey(authenticator.credentialId))?.counter, 1, 'the refused counter not stored');
    });

    it("a passkey's use whose audit event cannot be written is not stored: the counter and the event are one transaction", async () => {
      const authenticator = await enrolled(alice);
      const { sessionId, options } = await assertion();
      const failing = { ...pipeline(), audit: new AuditTrail(withFailingAuditInsert(store), () => {}) };
      const signIn = runSignInStep(failing, {
        state: { status: 'anonymous' },
        sessionId,
        field: (name) =>
          ({ credential: authenticator.get(options), method: 'passkey_sign_in' })[name as 'credential' | 'method'],
        address: '192.0.2.9',
        clientId: 'app',
        policy: 'optional',
        now: NOW + 5,
      });
      await assert.rejects(signIn, /the audit insert failed/);
      const stored = await store.findPasskey(authenticator.credentialId);
      assert.deepEqual([stored?.counter, stored?.lastUsedAt], [0, null]);
    });

    it('the passkey as a second factor (SECOND_FACTORS.passkey) after a password: pending after pwd, then signed in with pwd, hwk and user (RFC 8176 §2)', async () => {
      const authenticator = await enrolled(alice);
      const services = pipeline();
      const sessionId = await session();
      const fields = (values: Record<string, string>) => ({
        sessionId,
        field: (name: string) => values[name],
        address: '192.0.2.9',
        clientId: 'app',
        policy: 'optional' as const,
      });
      const first = await runSignInStep(services, {
        state: { status: 'anonymous' },
        ...fields({ username: 'alice', password: 'a long passphrase' }),
        now: NOW,
      });
      assert.equal(first.kind, 'pending', 'optional: a user with a passkey is asked for it after the password');
      if (first.kind !== 'pending') return;
      assert.deepEqual(first.due, { kind: 'choose', factors: ['passkey'] });
      const options = await authenticationOptions(
        store,
        RP,
        { kind: 'second_factor', subject: alice.subject },
        sessionId,
        NOW,
      );
      const second = await runSignInStep(services, {
        state: first.state,
        ...fields({ method: 'passkey', credential: authenticator.get(options) }),
        now: NOW + 9,
      });
      assert.equal(second.kind, 'signed_in');
      assert.deepEqual(second.kind === 'signed_in' && second.state.methods, [
        { method: 'pwd', at: NOW },
        { method: 'hwk', at: NOW + 9 },
        { method: 'user', at: NOW + 9 },
      ]);
    });
  });
