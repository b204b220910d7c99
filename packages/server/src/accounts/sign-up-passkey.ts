import type { SignUpSettings } from '../context.js';
import type { PasskeyRepository } from '../store/passkey-repository.js';
import {
  relyingPartyOf,
  verifyEnrolment,
  type EnrolmentResult,
  type PasskeyOwner,
  type RelyingParty,
} from '../webauthn/index.js';

/**
 * A sign-up with a passkey instead of a password (docs/accounts.md, "Signing up"): which ways the
 * form offers, the user its passkey is made for, and the check of the passkey before the answer.
 * The account is made with it by sign-up.ts, after the answer, as a password's.
 */

/** What the form offers an account to sign in with (SIGN_UP_METHODS, where the issuer allows it). */
export interface SignUpMethodsOffered {
  readonly password: boolean;
  /** The Relying Party the passkey is made for; undefined when the form offers none. */
  readonly passkey: RelyingParty | undefined;
}

/**
 * The ways SIGN_UP_METHODS offers under this issuer: a passkey only where the issuer can have one
 * (an IP address cannot, webauthn/relying-party.ts), and a password whenever no passkey is offered,
 * so that the form can always make an account (config.ts refuses passkeys alone where they cannot work).
 */
export function signUpMethodsOffered(settings: SignUpSettings, issuer: string): SignUpMethodsOffered {
  const methods = settings.methods ?? ['password'];
  const passkey = methods.includes('passkey') ? relyingPartyOf(issuer) : undefined;
  return { password: methods.includes('password') || passkey === undefined, passkey };
}

/**
 * The user a sign-up's passkey is made for: the subject the account will have (chosen when the form
 * is shown, no account has it), named on the authenticator by the address (the page's script puts
 * the address typed there; the subject stands in until then).
 */
export function signUpPasskeyOwner(subject: string, email: string | undefined): PasskeyOwner {
  const name = email || subject;
  return { subject, username: name, displayName: name };
}

/** A sign-up's passkey as posted: the browser's answer to the form's creation options. */
export interface SignUpPasskeySubmission {
  /** The subject the form's options were made for, as the form carries it. */
  readonly subject: string;
  /** The registration response (JSON), as the page's script posts it. */
  readonly credential: string;
  /** The browser session the form's options were made for. */
  readonly sessionId: string;
  readonly now: number;
}

/**
 * Checks a sign-up's passkey before the answer, the same whether the address has an account or not
 * (WebAuthn §7.1, webauthn/registration.ts): the challenge this browser session's form was given for
 * a sign-up (`sign_up`, so that no other ceremony's challenge makes an account) and for the subject
 * the form names, taken once; the issuer's origin; user verification. Nothing is stored: the
 * passkey is stored with the account it makes, or dropped when the address has one (completeSignUp).
 */
export async function checkSignUpPasskey(
  store: PasskeyRepository,
  rp: RelyingParty,
  submission: SignUpPasskeySubmission,
): Promise<EnrolmentResult> {
  return verifyEnrolment(store, rp, {
    owner: signUpPasskeyOwner(submission.subject, undefined),
    sessionId: submission.sessionId,
    response: submission.credential,
    name: undefined,
    now: submission.now,
    purpose: 'sign_up',
  });
}
