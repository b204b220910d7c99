import type { AuditInput, AuditTrail } from '../../../audit/audit.js';
import type { FactorServices } from '../../../factors/factors.js';
import type { UserRecord } from '../../../store/identity-repository.js';
import type { Store } from '../../../store/store.js';
import type { RelyingParty } from '../../../webauthn/index.js';
import type { PageLocale } from '../../../i18n/index.js';

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
  'wrong_email_code',
  // a temporary password's replacement (steps/change-password.ts)
  'password_too_short',
  'password_too_long',
  'password_too_common',
  'password_unchanged',
  // the terms (steps/terms.ts): accepted a version no longer the current one
  'terms_changed',
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
  /** The step's name in its table (FIRST_FACTORS, SECOND_FACTORS, REQUIRED_ACTIONS, ENROLMENT_METHOD). */
  readonly method: string;
  /** The OAuth client the sign-in is for, and the client's address: for the audit trail. */
  readonly clientId: string;
  readonly address: string;
}

/**
 * The audit event of a step passed, `sign_in_step_passed`: the step's method as its reason (with a
 * detail after a colon: a passkey's `amr`, the recovery codes left), the user's subject, the client
 * and the address. Never the code, secret or credential the form carried. A step whose success
 * changes the store records it in the transaction of that change (`audited: true`); otherwise the
 * pipeline records it once the step passed.
 */
export function stepPassed(attempt: StepAttempt, subject: string, detail?: string): AuditInput {
  return {
    event: 'sign_in_step_passed',
    at: attempt.now,
    clientId: attempt.clientId,
    address: attempt.address,
    subject,
    reason: detail === undefined ? attempt.method : `${attempt.method}: ${detail}`,
  };
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
  /** The e-mail code of a required verification (accounts/, passed in by app.ts); none: not offered. */
  readonly emailCodes?: EmailCodes;
  /** TERMS_URL and TERMS_VERSION: the terms the terms step records the acceptance of; none: not offered. */
  readonly terms?: { readonly url: string; readonly version: string };
}

/**
 * The mailed six-digit code that verifies a user's address (accounts/email-verification.ts), as the
 * verification step and its page use it: `send` mails a new one (rate limited per account as the
 * account page's), `check` verifies the address by it (its own failure limit).
 */
export interface EmailCodes {
  send(
    user: UserRecord,
    request: { readonly locale: PageLocale; readonly address: string; readonly now: number },
  ): Promise<
    { readonly kind: 'sent' | 'nothing_to_verify' } | { readonly kind: 'rate_limited'; readonly retryAfter: number }
  >;
  check(
    user: UserRecord,
    code: string,
    address: string,
    now: number,
  ): Promise<
    { readonly kind: 'verified' | 'wrong_code' } | { readonly kind: 'rate_limited'; readonly retryAfter: number }
  >;
}

/** A step's answer: passed (for whom, and codes to show once), or refused (why, and the name to audit). */
export type StepOutcome =
  | {
      readonly ok: true;
      readonly username: string;
      /** The `amr` values the step proved, when not its `methods` (a passkey: `hwk` or `swk`, and `user`). */
      readonly methods?: readonly AmrValue[];
      readonly reveal?: readonly string[];
      /** The step recorded its `stepPassed` event itself, in the transaction of its own change. */
      readonly audited?: true;
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
