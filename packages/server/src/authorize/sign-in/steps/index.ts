import { changePasswordStep } from './change-password.js';
import { emailCodeStep } from './email-code.js';
import { otpEnrolmentStep } from './otp-enrolment.js';
import { otpStep } from './otp.js';
import { passkeySecondFactor, passkeySignInStep } from './passkey.js';
import { passwordStep } from './password.js';
import { recoveryCodeStep } from './recovery-code.js';
import { termsStep } from './terms.js';
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

/** The replacement of an operator's temporary password, a required action (`users passwd --temporary`). */
export const CHANGE_PASSWORD_METHOD = 'change_password';
export const CHANGE_PASSWORD_STEP: SignInStep = changePasswordStep;

/** The acceptance of the terms, a required action (TERMS_URL, TERMS_VERSION); the last step of a sign-in. */
export const TERMS_METHOD = 'accept_terms';
export const TERMS_STEP: SignInStep = termsStep;

/** The kinds of due a required action's step answers (second-factor-policy.ts `SecondFactorDue`). */
export type RequiredActionKind = 'verify_email' | 'change_password' | 'accept_terms';

/**
 * The required actions' steps, by the page's `method` field, each offered only to a pending session
 * whose next due is its kind (sign-in.ts `mayUseStep`). They come after the first factor and a
 * chosen second factor, in a fixed order: verify the address, replace a temporary password, (enrol
 * a second factor), accept the terms (second-factor-policy.ts `nextDue`).
 *
 * | method          | due             | checks                                                        |
 * |-----------------|-----------------|---------------------------------------------------------------|
 * | verify_email    | verify_email    | the six-digit code mailed to the address (EMAIL_VERIFICATION=required) |
 * | change_password | change_password | a new password by the password policy, not the temporary one |
 * | accept_terms    | accept_terms    | the version of the terms the page showed (TERMS_VERSION)      |
 */
export const REQUIRED_ACTIONS: Readonly<
  Record<string, { readonly step: SignInStep; readonly due: RequiredActionKind }>
> = {
  [EMAIL_CODE_METHOD]: { step: emailCodeStep, due: 'verify_email' },
  [CHANGE_PASSWORD_METHOD]: { step: changePasswordStep, due: 'change_password' },
  [TERMS_METHOD]: { step: termsStep, due: 'accept_terms' },
};

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
