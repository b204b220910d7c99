import { PASSKEY_FAILURE } from '../authorize/sign-in/steps/passkey.js';
import type { UserRecord } from '../store/identity-repository.js';
import type { Store } from '../store/store.js';
import { checkPassword } from '../users/users.js';
import { authenticationOptions, relyingPartyOf, verifyPasskeyAssertion } from '../webauthn/index.js';

/**
 * How the owner of an existing account proves it before an upstream identity is linked to it (the
 * `prove` resolution of linking.ts): its password, or a passkey of its own. The passkey answers a
 * challenge made for this browser session and this user only (`account_proof`): another user's
 * passkey is not one of the user's credentials (WebAuthn §7.2 step 5), and the authenticator must
 * have verified the user (step 17: a PIN or a biometric), as for a passwordless sign-in.
 */
export type AccountProof =
  | {
      readonly ok: true;
      readonly user: UserRecord;
      /** RFC 8176 §2 values of the proof: `pwd`, or the passkey's (`hwk`/`swk` and `user`). */
      readonly methods: readonly string[];
      /** What the audit of the link says. */
      readonly how: 'password proved' | 'passkey proved';
    }
  /** `failure` is the sign-in pipeline's audit reason (`wrong_password`, `passkey_unknown`, …). */
  | { readonly ok: false; readonly failure: string; readonly by: 'password' | 'passkey' };

/** The form field naming a passkey proof (its assertion is in `credential`). */
export const PASSKEY_METHOD = 'passkey';

/**
 * The WebAuthn request options (JSON) of the link page's passkey form: the account's passkeys
 * listed, user verification required, the challenge kept for this session and this user;
 * undefined when the account has no passkey or the server offers none (an IP-literal issuer).
 */
export async function passkeyProofOptions(
  store: Store,
  issuer: string,
  username: string,
  sessionId: string,
  now: number,
): Promise<string | undefined> {
  const rp = relyingPartyOf(issuer);
  const user = rp && (await store.findUser(username));
  if (!rp || !user || (await store.listPasskeys(user.subject)).length === 0) return undefined;
  const use = { kind: 'account_proof', subject: user.subject } as const;
  return JSON.stringify(await authenticationOptions(store, rp, use, sessionId, now));
}

/** Checks the link form's proof for `username`: the passkey when the form names it, else the password. */
export async function proveAccount(
  store: Store,
  issuer: string,
  attempt: {
    readonly username: string;
    readonly sessionId: string;
    readonly field: (name: string) => string | undefined;
    readonly now: number;
  },
): Promise<AccountProof> {
  if (attempt.field('method') !== PASSKEY_METHOD) {
    const checked = await checkPassword(store, attempt.username, attempt.field('password') ?? '');
    if ('failure' in checked) return { ok: false, failure: checked.failure, by: 'password' };
    return { ok: true, user: checked.user, methods: ['pwd'], how: 'password proved' };
  }
  const rp = relyingPartyOf(issuer);
  const user = await store.findUser(attempt.username);
  if (!rp || !user) return { ok: false, failure: 'passkey_invalid', by: 'passkey' };
  const result = await verifyPasskeyAssertion(store, rp, {
    use: { kind: 'account_proof', subject: user.subject },
    sessionId: attempt.sessionId,
    response: attempt.field('credential'),
    now: attempt.now,
  });
  if (!result.ok) return { ok: false, failure: PASSKEY_FAILURE[result.reason], by: 'passkey' };
  return { ok: true, user, methods: result.amr, how: 'passkey proved' };
}
