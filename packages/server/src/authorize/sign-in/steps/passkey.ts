import { verifyPasskeyAssertion, type AssertionRefusal } from '../../../webauthn/index.js';
import { stepPassed, type SecondFactor, type SignInFailure, type SignInStep } from './step.js';

/** Each refusal of an assertion as a sign-in failure (metrics, audit reason); the federation's link proof audits them too. */
export const PASSKEY_FAILURE: { readonly [R in AssertionRefusal]: Exclude<SignInFailure, 'rate_limited'> } = {
  malformed: 'passkey_invalid',
  challenge_unknown: 'passkey_challenge_invalid',
  challenge_expired: 'passkey_challenge_invalid',
  origin_mismatch: 'passkey_origin_mismatch',
  unknown_credential: 'passkey_unknown',
  user_handle_mismatch: 'passkey_invalid',
  user_disabled: 'user_disabled',
  verification_failed: 'passkey_invalid',
  counter_regressed: 'passkey_counter_regressed',
  backup_eligibility_changed: 'passkey_invalid',
};

/**
 * A passkey (WebAuthn assertion, `webauthn/authentication.ts`) from the form's `credential` field,
 * answering a challenge kept for the browser session (`attempt.sessionId`). Records RFC 8176 §2
 * `hwk` (a key that cannot leave its authenticator, BE=0) or `swk` (a synced passkey, BE=1), and
 * `user` when the authenticator verified the user (see `amrOfAssertion` for the mapping).
 *
 * - `passwordless` (FIRST_FACTORS.passkey_sign_in): the user is the credential's owner (the typed username
 *   is ignored), user verification required, so it counts as two factors (`hwk`/`swk` and `user`).
 * - `second_factor` (SECOND_FACTORS.passkey): for the pending session's user; only their credentials.
 *
 * A refusal audits the owner's username when the credential is known, none otherwise; a success
 * stores the credential's use and its `sign_in_step_passed` event (reason: the method and the
 * `amr`) in one transaction. A server whose issuer is an IP address has no Relying Party: every
 * passkey is refused there.
 */
function passkeyCheck(kind: 'passwordless' | 'second_factor'): SignInStep['check'] {
  return async (attempt, { store, audit, relyingParty }) => {
    const { username, field, now, sessionId } = attempt;
    if (relyingParty === undefined) return { ok: false, failure: 'passkey_invalid', auditedName: null };
    let use: { kind: 'passwordless' } | { kind: 'second_factor'; subject: string } = { kind: 'passwordless' };
    if (kind === 'second_factor') {
      const user = await store.findUser(username);
      if (user === undefined) return { ok: false, failure: 'unknown_user', auditedName: null };
      use = { kind: 'second_factor', subject: user.subject };
    }
    const result = await verifyPasskeyAssertion(store, relyingParty, {
      use,
      sessionId,
      response: field('credential'),
      now,
      // The counter and time of use, and the step's audit event, in one transaction.
      recordUse: (passkey, used, amr) =>
        audit.transaction(async (tx, record) => {
          await tx.recordPasskeyUse(passkey.id, used);
          await record(stepPassed(attempt, passkey.subject, amr.join(' ')));
        }),
    });
    if (!result.ok)
      return { ok: false, failure: PASSKEY_FAILURE[result.reason], auditedName: result.passkey?.username ?? null };
    return { ok: true, username: result.passkey.username, methods: result.amr, audited: true };
  };
}

/** The passwordless sign-in: a first factor that names the user by the credential. */
export const passkeySignInStep: SignInStep = { methods: ['hwk', 'user'], check: passkeyCheck('passwordless') };

/** A passkey after a password (or another first factor), for a user who has one. */
export const passkeySecondFactor: SecondFactor = {
  methods: ['hwk'],
  label: 'A passkey',
  async enrolled(user, store) {
    return (await store.listPasskeys(user.subject)).length > 0;
  },
  check: passkeyCheck('second_factor'),
};
