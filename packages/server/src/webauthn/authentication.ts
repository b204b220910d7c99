import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { webauthnLibrary } from './library.js';
import type { PasskeyRecord, PasskeyRepository, PasskeyWithOwner } from '../store/passkey-repository.js';
import { keepChallenge, takeChallenge, type ChallengeRefusal } from './challenges.js';
import { summarizeResponse } from './client-data.js';
import { transportsOf, userHandleOf } from './registration.js';
import type { RelyingParty } from './relying-party.js';

/**
 * How a sign-in uses a passkey. `passwordless`: the passkey is the whole sign-in, any user's
 * discoverable credential, user verification required (it stands for two factors: something held,
 * something known or been). `second_factor`: after a password, for the known user `subject`, only
 * their credentials, user verification preferred. `account_proof`: the owner of the known account
 * `subject` proves it in place of its password (before an upstream identity is linked to it,
 * federation/link-proof.ts): only their credentials, user verification required.
 */
export type AssertionUse =
  { readonly kind: 'passwordless' } | { readonly kind: 'second_factor' | 'account_proof'; readonly subject: string };

/** The user a use is for (its credentials only), null for any user's (passwordless). */
const subjectOf = (use: AssertionUse): string | null => (use.kind === 'passwordless' ? null : use.subject);
/** Whether a use requires user verification (WebAuthn §7.2 step 17): all but a second factor. */
const requiresVerification = (use: AssertionUse): boolean => use.kind !== 'second_factor';

/**
 * The options of `navigator.credentials.get()` (WebAuthn §5.5), their challenge kept for this
 * session. Passwordless: no `allowCredentials`, so the browser offers the discoverable credentials
 * it holds for the RP ID (conditional UI included, §5.1.4.1 `mediation: conditional`); second
 * factor and account proof: the user's credentials listed.
 */
export async function authenticationOptions(
  store: PasskeyRepository,
  rp: RelyingParty,
  use: AssertionUse,
  sessionId: string,
  now: number,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const subject = subjectOf(use);
  const allowCredentials =
    subject === null
      ? undefined
      : (await store.listPasskeys(subject)).map((p) => ({ id: p.id, transports: transportsOf(p) }));
  const options = await (
    await webauthnLibrary()
  ).generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials,
    userVerification: requiresVerification(use) ? 'required' : 'preferred',
  });
  await keepChallenge(store, { challenge: options.challenge, sessionId, purpose: 'authenticate' }, subject, now);
  return options;
}

/** Why an assertion was refused (each audited with its reason). */
export type AssertionRefusal =
  | 'malformed'
  | ChallengeRefusal
  | 'origin_mismatch'
  | 'unknown_credential'
  | 'user_handle_mismatch'
  | 'user_disabled'
  | 'verification_failed'
  | 'counter_regressed'
  | 'backup_eligibility_changed';

/** What a verified assertion changes of its credential. */
export type PasskeyUse = Pick<PasskeyRecord, 'counter' | 'backedUp' | 'lastUsedAt'>;

/** RFC 8176 §2 values a passkey sign-in records. */
export type PasskeyAmr = 'hwk' | 'swk' | 'user';

export type AssertionResult =
  | {
      readonly ok: true;
      readonly passkey: PasskeyWithOwner;
      readonly userVerified: boolean;
      readonly amr: readonly PasskeyAmr[];
    }
  | { readonly ok: false; readonly reason: AssertionRefusal; readonly passkey?: PasskeyWithOwner };

/**
 * The `amr` of a verified assertion (RFC 8176 §2). A passkey is a proof of possession of a key:
 * `hwk` when the key cannot leave its authenticator, which WebAuthn says by the backup-eligibility
 * flag being clear (BE=0, §6.1.3: a single-device credential, a security key or a platform
 * authenticator's TPM/secure enclave key); `swk` when BE=1, a synced passkey whose private key is
 * exported to a cloud keychain (software-held, whatever hardware it was made on). The authenticator
 * attachment (platform or cross-platform) does not decide it: a platform key can be either. `user`
 * when the authenticator verified the user (UV, §6.1: a PIN, a fingerprint, a face); RFC 8176
 * names no value for "PIN or biometric, unknown which", and `user` (the user was present and
 * interacted) is the one that always holds when UV does.
 */
export function amrOfAssertion(backupEligible: boolean, userVerified: boolean): readonly PasskeyAmr[] {
  return [backupEligible ? 'swk' : 'hwk', ...(userVerified ? (['user'] as const) : [])];
}

/**
 * Verifies a browser's answer to `authenticationOptions` (WebAuthn §7.2), in the order of its
 * steps: the challenge this session was given, taken once (§7.2 step 12); the credential, one the
 * server knows (step 5) and, for a known user, that user's; the user handle, the owner's (step
 * 6); the origin and RP ID hash (steps 13, 15); user presence and, but for a second factor,
 * verification (steps 16-17); the signature (step 20); then the signature counter (step 21) and the
 * backup flags (BE may not change, §6.1.3). On success the counter, the backup state and the time of
 * use are stored, by `recordUse` when given (the sign-in step stores them with its audit event in one
 * transaction), else by `store.recordPasskeyUse`; a refusal stores none of them. Exported for every
 * use: the passwordless sign-in, a second factor after a password, and the proof of an account
 * before a federated link.
 */
export async function verifyPasskeyAssertion(
  store: PasskeyRepository,
  rp: RelyingParty,
  request: {
    readonly use: AssertionUse;
    readonly sessionId: string;
    readonly response: string | undefined;
    readonly now: number;
    readonly recordUse?: (passkey: PasskeyWithOwner, used: PasskeyUse, amr: readonly PasskeyAmr[]) => Promise<void>;
  },
): Promise<AssertionResult> {
  const { use, sessionId, now } = request;
  const parsed = summarizeResponse(request.response);
  if (parsed === undefined) return { ok: false, reason: 'malformed' };
  const { summary } = parsed;
  const subject = subjectOf(use);
  const taken = await takeChallenge(store, summary.challenge, { sessionId, purpose: 'authenticate', subject }, now);
  if (!taken.ok) return { ok: false, reason: taken.reason };
  const passkey = await store.findPasskey(summary.id);
  if (passkey === undefined || (subject !== null && passkey.subject !== subject))
    return { ok: false, reason: 'unknown_credential' };
  const response = parsed.json as AuthenticationResponseJSON;
  const userHandle = response.response?.userHandle;
  // §7.2 step 6: a discoverable credential names its user, who must be the credential's owner.
  if (
    use.kind === 'passwordless'
      ? userHandle !== userHandleOf(passkey.subject)
      : userHandle !== undefined && userHandle !== userHandleOf(passkey.subject)
  )
    return { ok: false, reason: 'user_handle_mismatch', passkey };
  if (passkey.ownerDisabled) return { ok: false, reason: 'user_disabled', passkey };
  if (summary.origin !== rp.origin) return { ok: false, reason: 'origin_mismatch', passkey };
  let info;
  try {
    const verified = await (
      await webauthnLibrary()
    ).verifyAuthenticationResponse({
      response,
      expectedChallenge: summary.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      // The counter rule is applied below, after the signature, so that it is told apart and audited.
      credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: 0 },
      requireUserVerification: requiresVerification(use),
    });
    if (!verified.verified) return { ok: false, reason: 'verification_failed', passkey };
    info = verified.authenticationInfo;
  } catch {
    return { ok: false, reason: 'verification_failed', passkey };
  }
  // §7.2 step 21: a counter that does not grow (where either is non-zero) may be a cloned authenticator.
  if ((info.newCounter !== 0 || passkey.counter !== 0) && info.newCounter <= passkey.counter)
    return { ok: false, reason: 'counter_regressed', passkey };
  // §6.1.3: BE is fixed when the credential is made; a change is a different authenticator or a lie.
  const backupEligible = info.credentialDeviceType === 'multiDevice';
  if (backupEligible !== passkey.backupEligible) return { ok: false, reason: 'backup_eligibility_changed', passkey };
  const used: PasskeyUse = { counter: info.newCounter, backedUp: info.credentialBackedUp, lastUsedAt: now };
  const amr = amrOfAssertion(backupEligible, info.userVerified);
  if (request.recordUse) await request.recordUse(passkey, used, amr);
  else await store.recordPasskeyUse(passkey.id, used);
  return { ok: true, passkey, userVerified: info.userVerified, amr };
}
