import type { AuditTrail } from '../../../audit/audit.js';
import type { FactorServices } from '../../../factors/factors.js';
import type { UserRecord } from '../../../store/identity-repository.js';
import type { Store } from '../../../store/store.js';
import type { RelyingParty } from '../../../webauthn/index.js';

/**
 * Why a sign-in was refused: a step's answer, or a rate limit before any step. The metrics count
 * each from zero at start (`gatehouse_sign_in_failures_total{reason}`); a new step adds its reasons here.
 */
export const SIGN_IN_FAILURES = [
  'wrong_password',
  'unknown_user',
  'user_disabled',
  'wrong_code',
  'code_replayed',
  'wrong_recovery_code',
  'enrolment_refused',
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
export type AmrValue = 'pwd' | 'otp' | 'hwk' | 'swk' | 'user' | 'pin' | 'sms' | 'face' | 'fpt';

/** What a step is given: the user (typed, or the pending session's) and the fields of its form. */
export interface StepAttempt {
  /** The normalized username: typed on the first step, the pending session's after it. */
  readonly username: string;
  readonly field: (name: string) => string | undefined;
  readonly now: number;
  /** The browser session's id: what an enrolment's sealed secret is bound to. */
  readonly sessionId: string;
}

/**
 * What a step may use: the store, the audit trail (a step that writes audits), the factors'
 * sealing, and the WebAuthn Relying Party (undefined when the issuer is an IP address: no passkeys).
 */
export interface StepServices {
  readonly store: Store;
  readonly audit: AuditTrail;
  readonly factors: FactorServices;
  readonly relyingParty?: RelyingParty;
}

/** A step's answer: passed (for whom, and codes to show once), or refused (why, and the name to audit). */
export type StepOutcome =
  | {
      readonly ok: true;
      readonly username: string;
      /** The `amr` values the step proved, when not its `methods` (a passkey: `hwk` or `swk`, and `user`). */
      readonly methods?: readonly AmrValue[];
      readonly reveal?: readonly string[];
    }
  | {
      readonly ok: false;
      readonly failure: Exclude<SignInFailure, 'rate_limited'>;
      readonly auditedName: string | null;
    };

/** One factor of a sign-in: checks its form's fields for the user; no HTTP, no session. */
export interface SignInStep {
  /** The `amr` values recorded when the step passes (RFC 8176 §2). */
  readonly methods: readonly AmrValue[];
  /** Checks the step's fields for the attempt's user. */
  readonly check: (attempt: StepAttempt, services: StepServices) => Promise<StepOutcome>;
}

/**
 * A second factor: a step for a known user (the pending session's), which the user may choose when
 * it has enrolled it (`enrolled`). `label` is the page's name for it.
 */
export interface SecondFactor extends SignInStep {
  readonly label: string;
  readonly enrolled: (user: UserRecord, store: Store) => Promise<boolean>;
}
