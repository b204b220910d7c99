import type { Store } from '../../../store/store.js';

/**
 * Why a sign-in was refused: a step's answer, or a rate limit before any step. The metrics count
 * each from zero at start (`gatehouse_sign_in_failures_total{reason}`); a new step adds its reasons here.
 */
export const SIGN_IN_FAILURES = [
  'wrong_password',
  'unknown_user',
  'user_disabled',
  'rate_limited',
  // passkey (steps/passkey.ts)
  'passkey_unknown',
  'passkey_challenge_invalid',
  'passkey_origin_mismatch',
  'passkey_invalid',
  'passkey_counter_regressed',
] as const;
export type SignInFailure = (typeof SIGN_IN_FAILURES)[number];

/**
 * An RFC 8176 §2 Authentication Method Reference value: the ones a step of this server may record
 * (the registry has more; add one here with its step).
 */
export type AmrValue = 'pwd' | 'otp' | 'hwk' | 'swk' | 'pin' | 'sms' | 'face' | 'fpt' | 'user';

/** What a step is given: the user (typed, or the pending session's) and the fields of its form. */
export interface StepAttempt {
  /** The normalized username: typed on the first step, the pending session's after it. */
  readonly username: string;
  readonly field: (name: string) => string | undefined;
  readonly now: number;
}

/** A step's refusal: why (for metrics and audit), and the name to audit (null to record none). */
export type StepOutcome =
  | {
      readonly ok: true;
      readonly username: string;
      /** The `amr` values the step proved, when not just its `method` (a passkey: `hwk` or `swk`, and `user`). */
      readonly methods?: readonly AmrValue[];
    }
  | {
      readonly ok: false;
      readonly failure: Exclude<SignInFailure, 'rate_limited'>;
      readonly auditedName: string | null;
    };

/** One factor of a sign-in: checks its form's fields for the user; no HTTP, no session. */
export interface SignInStep {
  /** The `amr` value recorded when the step passes. */
  readonly method: AmrValue;
  /** Checks the step's fields for the attempt's user. */
  readonly check: (attempt: StepAttempt, services: { readonly store: Store }) => Promise<StepOutcome>;
}
