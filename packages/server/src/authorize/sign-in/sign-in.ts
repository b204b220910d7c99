import { AUDIT_USERNAME_MAX, truncated, type AuditTrail } from '../../audit/audit.js';
import { addressKey, usernameKey, type Charge, type RateLimiter } from '../../abuse/rate-limiter.js';
import type { Store } from '../../store/store.js';
import { normalizeUsername } from '../../users/users.js';
import type { CompletedSignIn, PendingSignIn, SignInState } from './state.js';
import { SIGN_IN_STEPS, type AmrValue, type SignInFailure, type SignInStep } from './steps/index.js';

/** What a sign-in needs besides the form: no request, no reply. */
export interface SignInServices {
  readonly store: Store;
  readonly rateLimits: RateLimiter;
  /** Where a refused step is recorded (and so logged and counted). */
  readonly audit: AuditTrail;
}

/** One submitted step of a sign-in, as plain data. */
export interface SignInSubmission {
  /** The session's state: anonymous or signed in (a new sign-in begins), or pending (it goes on). */
  readonly state: SignInState;
  /** The submitted form's fields. */
  readonly field: (name: string) => string | undefined;
  /** The client's address, for the limits and the audit trail. */
  readonly address: string;
  /** The OAuth client the sign-in is for. */
  readonly clientId: string;
  readonly now: number;
}

/** What became of a submission; the route turns it into headers, a session and a page. */
export type SignInResult =
  | { readonly kind: 'signed_in'; readonly state: CompletedSignIn }
  | { readonly kind: 'pending'; readonly state: PendingSignIn; readonly next: AmrValue }
  | { readonly kind: 'rate_limited'; readonly username: string; readonly retryAfter: number }
  | { readonly kind: 'refused'; readonly username: string; readonly failure: Exclude<SignInFailure, 'rate_limited'> };

/**
 * Runs the next step of a sign-in for an OAuth client: the rate limits, then the step (the first
 * of `steps` unless the session is pending). Every attempt counts per address and per OAuth client,
 * and every failure per username and per address; past a failure limit, the form is refused before
 * any secret is checked, the right one included (NIST SP 800-63B §5.2.2). A passed step is
 * recorded with its time (RFC 8176 `amr`); once every step passed, the sign-in is complete and its
 * time is the `auth_time` (OIDC Core §2).
 */
export async function runSignInStep(
  services: SignInServices,
  submission: SignInSubmission,
  steps: readonly SignInStep[] = SIGN_IN_STEPS,
): Promise<SignInResult> {
  const { store, rateLimits, audit } = services;
  const { state, address, clientId, now } = submission;
  const pending = state.status === 'pending' ? state : undefined;
  const username = pending?.username ?? normalizeUsername(submission.field('username') ?? '');
  const done = pending?.methods ?? [];
  const step = steps[done.length];
  if (step === undefined) throw new Error('a pending sign-in has no step left');
  const failureBuckets: Charge[] = [
    ['login_failure_user', usernameKey(username)],
    ['login_failure_address', addressKey(address)],
  ];
  const wait =
    (await rateLimits.consume([
      ['login_address', addressKey(address)],
      ['login_client', clientId],
    ])) || (await rateLimits.peek(failureBuckets));
  if (wait > 0) return { kind: 'rate_limited', username, retryAfter: wait };
  const outcome = await step.check({ username, field: submission.field, now }, { store });
  if (!outcome.ok) {
    await rateLimits.consume(failureBuckets);
    const subject = outcome.auditedName === null ? null : truncated(outcome.auditedName, AUDIT_USERNAME_MAX);
    await audit.record({ event: 'login_failed', at: now, clientId, address, reason: outcome.failure, subject });
    return { kind: 'refused', username, failure: outcome.failure };
  }
  // passkey: a step may record several amr values (`hwk`/`swk` and `user`), so the next step is
  // found by the step's index, not by the methods' count. (A step after such a step would need the
  // pending state to count steps; none follows one today: a passkey is a whole sign-in or the last.)
  const methods = [...done, ...(outcome.methods ?? [step.method]).map((method) => ({ method, at: now }))];
  const next = steps[done.length + 1];
  if (next !== undefined)
    return { kind: 'pending', state: { status: 'pending', username: outcome.username, methods }, next: next.method };
  return { kind: 'signed_in', state: { status: 'signed_in', username: outcome.username, methods, authTime: now } };
}
