import { emailCodeStep } from './email-code.js';
import { otpEnrolmentStep } from './otp-enrolment.js';
import { otpStep } from './otp.js';
import { passkeySecondFactor, passkeySignInStep } from './passkey.js';
import { passwordStep } from './password.js';
import { recoveryCodeStep } from './recovery-code.js';
import type { SecondFactor, SignInStep } from './step.js';

/**
 * The first factors of a sign-in, by the form's `method` field (absent: `password`). The first
 * factor names the user; it is done on the sign-in form (`/login`, `/device/login`; the passkey's
 * form posts to `/login/passkey`, which sets `method=passkey_sign_in`). A name is in one table only:
 * the form's `method` alone says whether it begins a sign-in or goes on with one.
 *
 * | method          | amr (RFC 8176 §2)    | checks                                                   |
 * |-----------------|----------------------|----------------------------------------------------------|
 * | password        | pwd                  | the user's password, by scrypt                           |
 * | passkey_sign_in | hwk or swk, and user | a WebAuthn assertion with user verification (passwordless) |
 *
 * A passkey with user verification counts as two factors (RFC 8176 §2 "mfa"), so the policy asks
 * nothing more after it. An upstream identity provider (federation/) is not an entry: its sign-in
 * comes back on a redirect, and `federation/` applies the same policy after it (docs/federation.md).
 */
export const FIRST_FACTORS: Readonly<Record<string, SignInStep>> = {
  password: passwordStep,
  passkey_sign_in: passkeySignInStep,
};

/**
 * The second factors, by the factor page's `method` field: the user chooses among those it has
 * enrolled, when the second-factor policy asks for one (sign-in/second-factor-policy.ts). While
 * one is due the session is pending (signed in nowhere); a signed-in session asked for more
 * (`acr_values=mfa`, a client that requires one) does it as a step-up.
 *
 * | method        | amr | checks                                                      |
 * |---------------|-----|-------------------------------------------------------------|
 * | otp           | otp | a code of the user's authenticator app (RFC 6238), once     |
 * | recovery_code | otp | one of the user's recovery codes, once                       |
 * | passkey       | hwk/swk (+user) | a WebAuthn assertion of one of the user's passkeys  |
 *
 * Adding a factor is a file in this folder and a line here (and its form on the
 * factor page, `authorize/factor-pages.ts`).
 */
export const SECOND_FACTORS: Readonly<Record<string, SecondFactor>> = {
  otp: otpStep,
  recovery_code: recoveryCodeStep,
  passkey: passkeySecondFactor,
};

/** The enrolment of a second factor during a sign-in, for a user the policy requires one of and who has none. */
export const ENROLMENT_METHOD = 'otp_enrolment';
export const ENROLMENT_STEP: SignInStep = otpEnrolmentStep;

/** The verification of the user's address, a required action (EMAIL_VERIFICATION=required). */
export const EMAIL_CODE_METHOD = 'verify_email';
export const EMAIL_CODE_STEP: SignInStep = emailCodeStep;

export { SIGN_IN_FAILURES, stepPassed } from './step.js';
export type {
  AmrValue,
  EmailCodes,
  SecondFactor,
  SignInFailure,
  SignInStep,
  StepAttempt,
  StepOutcome,
} from './step.js';
