import { passwordStep } from './password.js';
import type { SignInStep } from './step.js';

/**
 * The steps of a sign-in, in order; every one is required. The first is done on the sign-in form
 * (`/login`, `/device/login`); while steps remain, the session is pending (signed in nowhere).
 *
 * | step     | amr (RFC 8176 §2) | checks                          |
 * |----------|-------------------|---------------------------------|
 * | password | pwd               | the user's password, by scrypt  |
 *
 * Adding a factor is a file in this folder and a line in this list (and its page, in the pages table).
 */
export const SIGN_IN_STEPS: readonly SignInStep[] = [passwordStep];

export { SIGN_IN_FAILURES } from './step.js';
export type { AmrValue, SignInFailure, SignInStep, StepAttempt, StepOutcome } from './step.js';
