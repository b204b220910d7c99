import { AUDIT_USERNAME_MAX, truncated, type AuditTrail } from '../../audit/audit.js';
import { addressKey, usernameKey, type Charge, type RateLimiter } from '../../abuse/rate-limiter.js';
import type { FactorServices } from '../../factors/factors.js';
import type { SecondFactorPolicy } from '../../primitives/records.js';
import type { Store } from '../../store/store.js';
import type { RelyingParty } from '../../webauthn/index.js';
import { normalizeUsername } from '../../users/users.js';
import {
  enrolledFactors,
  nextDue,
  pendingDue,
  type RequiredActionSettings,
  type SecondFactorDue,
} from './second-factor-policy.js';
import type { CompletedSignIn, PendingSignIn, SignInState } from './state.js';
import {
  ENROLMENT_METHOD,
  ENROLMENT_STEP,
  FIRST_FACTORS,
  REQUIRED_ACTIONS,
  SECOND_FACTORS,
  stepPassed,
  type EmailCodes,
  type RequiredActionKind,
  type SignInFailure,
  type SignInStep,
} from './steps/index.js';

/** What a sign-in needs besides the form: no request, no reply. */
export interface SignInServices {
  readonly store: Store;
  readonly rateLimits: RateLimiter;
  /** Where a refused step is recorded (and so logged and counted). */
  readonly audit: AuditTrail;
  readonly factors: FactorServices;
  /** The WebAuthn Relying Party of the passkey steps; undefined: no passkeys (an IP-literal issuer). */
  readonly relyingParty?: RelyingParty;
  /** The required actions of the server's settings (EMAIL_VERIFICATION=required, the terms); none when absent. */
  readonly actions?: RequiredActionSettings;
  /** The mailed code of that verification (accounts/, through app.ts). */
  readonly emailCodes?: EmailCodes;
}

/** One submitted step of a sign-in, as plain data. */
export interface SignInSubmission {
  /** The session's state: anonymous (a sign-in begins), pending (it goes on) or signed in (a step-up). */
  readonly state: SignInState;
  /** The browser session's id (an enrolment's secret is sealed to it). */
  readonly sessionId: string;
  /** The submitted form's fields; `method` names the step (absent: the password). */
  readonly field: (name: string) => string | undefined;
  /** The client's address, for the limits and the audit trail. */
  readonly address: string;
  /** The OAuth client the sign-in is for. */
  readonly clientId: string;
  /** Whether this sign-in asks a second factor (second-factor-policy.ts `requestPolicy`). */
  readonly policy: SecondFactorPolicy;
  readonly now: number;
}

/** What became of a submission; the route turns it into headers, a session and a page. */
export type SignInResult =
  | { readonly kind: 'signed_in'; readonly state: CompletedSignIn; readonly reveal?: readonly string[] }
  | {
      readonly kind: 'pending';
      readonly state: PendingSignIn;
      readonly due: Exclude<SecondFactorDue, { kind: 'none' }>;
      /** Recovery codes to show once before the next step (an enrolment before the terms). */
      readonly reveal?: readonly string[];
    }
  | { readonly kind: 'rate_limited'; readonly username: string; readonly retryAfter: number }
  | {
      readonly kind: 'refused';
      readonly username: string;
      readonly failure: Exclude<SignInFailure, 'rate_limited'>;
      /** On a second-factor form: what the page asks again. */
      readonly due?: Exclude<SecondFactorDue, { kind: 'none' }>;
    }
  /** A second-factor form without a sign-in under way, or a method no table has: the form is stale. */
  | { readonly kind: 'stale' };

/**
 * The step a form names, whether it is a first factor (a new sign-in) or one for a known user, and
 * for a required action, the due it answers.
 */
function stepOf(
  method: string,
): { readonly step: SignInStep; readonly first: boolean; readonly action?: RequiredActionKind } | undefined {
  const first = Object.hasOwn(FIRST_FACTORS, method) ? FIRST_FACTORS[method] : undefined;
  if (first) return { step: first, first: true };
  if (method === ENROLMENT_METHOD) return { step: ENROLMENT_STEP, first: false };
  const action = Object.hasOwn(REQUIRED_ACTIONS, method) ? REQUIRED_ACTIONS[method] : undefined;
  if (action) return { step: action.step, first: false, action: action.due };
  const second = Object.hasOwn(SECOND_FACTORS, method) ? SECOND_FACTORS[method] : undefined;
  return second && { step: second, first: false };
}

/**
 * Runs one step of a sign-in for an OAuth client: the rate limits, then the step the form names.
 * A first factor (FIRST_FACTORS) begins a sign-in and names the user; then, when the policy asks a
 * second factor, the session is pending until one of SECOND_FACTORS passes (or the enrolment, for
 * a user required to have one who has none). A signed-in session may do a second factor as a
 * step-up. Every attempt counts per address and per OAuth client, and every failure of any step
 * per username and per address (one budget for all factors: a six-digit code gets no more guesses
 * than a password); past a failure limit, the form is refused before any secret is checked, the
 * right one included (NIST SP 800-63B §5.2.2). A passed step is recorded with its time (RFC 8176
 * `amr`); once complete, the sign-in's time is the `auth_time` (OIDC Core §2). Every step is
 * audited: a refusal as `login_failed`, a success as `sign_in_step_passed` (`stepPassed`), written
 * by the step in the transaction of its own change (a code's step used, a recovery code spent, a
 * passkey's counter) where it makes one, so that a refused step leaves neither.
 */
export async function runSignInStep(services: SignInServices, submission: SignInSubmission): Promise<SignInResult> {
  const { store, rateLimits, audit } = services;
  const { state, address, clientId, now, policy } = submission;
  const method = submission.field('method') ?? 'password';
  const chosen = stepOf(method);
  if (!chosen || (!chosen.first && state.status === 'anonymous')) return { kind: 'stale' };
  const known = chosen.first || state.status === 'anonymous' ? undefined : state;
  const username = known?.username ?? normalizeUsername(submission.field('username') ?? '');
  const done = known?.methods ?? [];
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
  const attempt = {
    username,
    field: submission.field,
    now,
    sessionId: submission.sessionId,
    method,
    clientId,
    address,
  };
  const actions = services.actions ?? { emailRequired: false };
  if (!chosen.first && !(await mayUseStep(store, username, chosen, state, actions, policy)))
    return refuse(services, submission, username, 'enrolment_refused');
  const outcome = await chosen.step.check(attempt, {
    store,
    audit,
    factors: services.factors,
    relyingParty: services.relyingParty,
    emailCodes: services.emailCodes,
    terms: actions.terms,
  });
  if (!outcome.ok) {
    await rateLimits.consume(failureBuckets);
    const subject = outcome.auditedName === null ? null : truncated(outcome.auditedName, AUDIT_USERNAME_MAX);
    await audit.record({ event: 'login_failed', at: now, clientId, address, reason: outcome.failure, subject });
    if (chosen.first) return { kind: 'refused', username, failure: outcome.failure };
    return refuse(services, submission, username, outcome.failure);
  }
  // A step may record amr values of its own (a passkey: `hwk` or `swk`, and `user`).
  const methods = [...done, ...(outcome.methods ?? chosen.step.methods).map((method) => ({ method, at: now }))];
  const user = await store.findUser(outcome.username);
  if (!user) return { kind: 'refused', username, failure: 'unknown_user' };
  if (outcome.audited !== true) await audit.record(stepPassed(attempt, user.subject));
  // After every step passed: a factor still to choose, then the required actions, enrolment, the terms.
  const due = await nextDue(store, user, policy, methods, actions);
  if (due.kind !== 'none')
    return {
      kind: 'pending',
      state: { status: 'pending', username: user.username, methods },
      due,
      ...(outcome.reveal ? { reveal: outcome.reveal } : {}),
    };
  const signedIn: CompletedSignIn = { status: 'signed_in', username: user.username, methods, authTime: now };
  return { kind: 'signed_in', state: signedIn, ...(outcome.reveal ? { reveal: outcome.reveal } : {}) };
}

/**
 * Whether a known user may take this second step: enrolment only while the user has no second
 * factor, so that a password alone never adds one beside an existing factor; a required action
 * (REQUIRED_ACTIONS) only by a pending session that stopped at it (after the second factor it
 * chose, if any, and the actions before it).
 */
async function mayUseStep(
  store: Store,
  username: string,
  chosen: { readonly step: SignInStep; readonly action?: RequiredActionKind },
  state: SignInState,
  actions: RequiredActionSettings,
  policy: SecondFactorPolicy,
): Promise<boolean> {
  if (chosen.step !== ENROLMENT_STEP && chosen.action === undefined) return true;
  const user = await store.findUser(username);
  if (user === undefined) return false;
  if (chosen.step === ENROLMENT_STEP) return (await enrolledFactors(store, user)).length === 0;
  if (state.status !== 'pending') return false;
  return (await pendingDue(store, user, state.methods, actions, policy)).kind === chosen.action;
}

/** A refused second step: the failure, and what the factor page asks again. */
async function refuse(
  { store, actions }: SignInServices,
  submission: SignInSubmission,
  username: string,
  failure: Exclude<SignInFailure, 'rate_limited'>,
): Promise<SignInResult> {
  const user = await store.findUser(username);
  const methods = submission.state.status === 'anonymous' ? [] : submission.state.methods;
  const due = user && (await pendingDue(store, user, methods, actions ?? { emailRequired: false }, submission.policy));
  return { kind: 'refused', username, failure, ...(due && due.kind !== 'none' ? { due } : {}) };
}
