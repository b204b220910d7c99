import { verifyPasskeyAssertion, type AssertionRefusal, type RelyingParty } from '../../../webauthn/index.js';
import type { SignInFailure, SignInStep } from './step.js';

/** Each refusal of an assertion as a sign-in failure (metrics, audit reason). */
const FAILURE: { readonly [R in AssertionRefusal]: Exclude<SignInFailure, 'rate_limited'> } = {
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
 * answering a challenge kept for the browser session `sessionId`. Records RFC 8176 §2 `hwk` (a key
 * that cannot leave its authenticator, BE=0) or `swk` (a synced passkey, BE=1), and `user` when the
 * authenticator verified the user (see `amrOfAssertion` for the mapping).
 *
 * - `passwordless`: the first and only step; the user is the credential's owner (the typed username
 *   is ignored), user verification required.
 * - `second_factor`: after a password, for the pending session's user; only their credentials.
 *
 * A refusal audits the owner's username when the credential is known, none otherwise.
 */
export function passkeyStep(rp: RelyingParty, sessionId: string, kind: 'passwordless' | 'second_factor'): SignInStep {
  return {
    method: 'hwk',
    async check({ username, field, now }, { store }) {
      let use: { kind: 'passwordless' } | { kind: 'second_factor'; subject: string } = { kind: 'passwordless' };
      if (kind === 'second_factor') {
        const user = await store.findUser(username);
        if (user === undefined) return { ok: false, failure: 'unknown_user', auditedName: null };
        use = { kind: 'second_factor', subject: user.subject };
      }
      const result = await verifyPasskeyAssertion(store, rp, { use, sessionId, response: field('credential'), now });
      if (!result.ok)
        return { ok: false, failure: FAILURE[result.reason], auditedName: result.passkey?.username ?? null };
      return { ok: true, username: result.passkey.username, methods: result.amr };
    },
  };
}
