import { PROBLEMS, type ProblemCode } from '@gatehouse/contract';
import type { Actor, AuditTrail } from '../audit/audit.js';
import { randomHex } from '../primitives/random.js';
import { digestOf } from '../primitives/secrets.js';
import type { FederationStateRecord } from '../store/federation-repository.js';
import type { Repository } from '../store/repository.js';
import { planLocalUser, usernameCandidates } from './linking.js';
import { mappedClaims, type UpstreamProvider } from './providers.js';
import { completeUpstreamSignIn, upstreamAuthorizationUrl, type UpstreamIdentity } from './relying-party.js';
import { UpstreamFailure } from './upstream-failures.js';

/**
 * An operator's test sign-in at an upstream (docs/federation.md, "Testing an upstream"): a real
 * authorization code flow (PKCE, `state`, `nonce`, the ID token checked as for any sign-in) whose
 * callback signs nobody in, links nothing and creates nobody. It keeps what came back and what the
 * provider's rules would do with it, for the operator who started it only, read once.
 *
 * Two rows of the federation states: the `state`'s digest (as a sign-in's, single use), marked as a
 * test by its session id, naming the result's row; and the result, whose id is the digest of the
 * operator and the result id, so that another operator's read finds nothing (and takes nothing).
 */

/** A test sign-in must come back, and its result be read, within this many seconds. */
export const TEST_SIGN_IN_TTL = 10 * 60;
/** The session id of a test sign-in's rows: they belong to no browser session. */
export const TEST_SIGN_IN_SESSION = 'test-sign-in';

/** What the state row of a test sign-in keeps until its callback. */
interface PendingTestSignIn {
  readonly test: true;
  readonly nonce: string;
  readonly verifier: string;
  readonly resultRow: string;
  readonly operator: string;
}

/** What Gatehouse would do with the upstream identity, by the provider's rules (linking.ts), without doing it. */
export type TestSignInOutcome =
  | { readonly action: 'sign_in'; readonly username: string }
  | { readonly action: 'link_after_proof'; readonly username: string }
  | { readonly action: 'link'; readonly username: string }
  | { readonly action: 'provision'; readonly username: string }
  | { readonly action: 'refuse'; readonly reason: string };

/** The wire form of a result (the admin API's `UpstreamTestSignIn`). */
export type TestSignInResult =
  | { readonly id: string; readonly upstream: string; readonly status: 'pending'; readonly expires_at: string }
  | {
      readonly id: string;
      readonly upstream: string;
      readonly status: 'succeeded';
      readonly finished_at: string;
      readonly issuer: string;
      readonly subject: string;
      readonly acr: string | null;
      readonly amr: readonly string[];
      /** The ID token's claims merged with userinfo's, as the sign-in sees them. */
      readonly claims: Readonly<Record<string, unknown>>;
      /** The local claims the provider's mapping gives (what a provisioned user would hold). */
      readonly mapped_claims: Readonly<Record<string, unknown>>;
      readonly local_account: TestSignInOutcome;
    }
  | {
      readonly id: string;
      readonly upstream: string;
      readonly status: 'failed';
      readonly finished_at: string;
      /** The catalog entry a real sign-in would have shown. */
      readonly problem: { readonly code: ProblemCode; readonly status: number; readonly title: string };
      readonly detail: string;
    };

const resultRowId = (operator: string, resultId: string): string =>
  `test-result:${digestOf(`${operator}\n${resultId}`)}`;
const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

/** Whether a state row taken at the callback is a test sign-in's. */
export function isTestSignInState(row: FederationStateRecord): boolean {
  return row.sessionId === TEST_SIGN_IN_SESSION && (JSON.parse(row.data) as { test?: unknown }).test === true;
}

/**
 * Starts a test sign-in: the upstream authorization URL (the discovery document read again, as for a
 * sign-in) and the result's id, which only `operator` can read. Throws UpstreamFailure when the
 * upstream cannot be reached or is misconfigured.
 */
export async function startTestSignIn(
  store: Repository,
  provider: UpstreamProvider,
  callbackUrl: string,
  operator: Actor,
  now: number,
): Promise<{ readonly authorizationUrl: URL; readonly result: TestSignInResult }> {
  const started = await upstreamAuthorizationUrl(provider, callbackUrl, undefined);
  await store.deleteExpiredFederationStates(now);
  const resultId = randomHex(16);
  const resultRow = resultRowId(operator.id, resultId);
  const expiresAt = now + TEST_SIGN_IN_TTL;
  const pendingResult: TestSignInResult = {
    id: resultId,
    upstream: provider.id,
    status: 'pending',
    expires_at: iso(expiresAt),
  };
  await store.insertFederationState({
    id: resultRow,
    sessionId: TEST_SIGN_IN_SESSION,
    providerId: provider.id,
    data: JSON.stringify(pendingResult),
    expiresAt,
  });
  const pending: PendingTestSignIn = {
    test: true,
    nonce: started.checks.nonce,
    verifier: started.checks.verifier,
    resultRow,
    operator: operator.id,
  };
  await store.insertFederationState({
    id: digestOf(started.checks.state),
    sessionId: TEST_SIGN_IN_SESSION,
    providerId: provider.id,
    data: JSON.stringify(pending),
    expiresAt,
  });
  return { authorizationUrl: started.url, result: pendingResult };
}

/**
 * The callback of a test sign-in (its state row already taken: single use): the same checks as a
 * sign-in's (openid-client: `state`, RFC 9207 `iss`, the code with the PKCE verifier, the ID token
 * per OIDC Core §3.1.3.7, userinfo), then the outcome by the provider's rules, stored as the result
 * and audited (`upstream_test_sign_in`, the operator as actor). A failure is a result too.
 */
export async function finishTestSignIn(
  store: Repository,
  audit: AuditTrail,
  row: FederationStateRecord,
  provider: UpstreamProvider | undefined,
  callbackUrl: URL,
  state: string,
  now: number,
): Promise<{ readonly upstream: string; readonly status: 'succeeded' | 'failed' }> {
  const pending = JSON.parse(row.data) as PendingTestSignIn;
  const taken = await store.takeFederationState(pending.resultRow, now);
  const id = taken === undefined ? '' : (JSON.parse(taken.data) as TestSignInResult).id;
  const base = { id, upstream: row.providerId, finished_at: iso(now) };
  let result: TestSignInResult;
  if (provider === undefined) result = failed(base, 'federation_no_provider', `provider ${row.providerId} removed`);
  else
    try {
      const identity = await completeUpstreamSignIn(provider, callbackUrl, {
        state,
        nonce: pending.nonce,
        verifier: pending.verifier,
      });
      result = {
        ...base,
        status: 'succeeded',
        issuer: identity.issuer,
        subject: identity.subject,
        acr: identity.acr ?? null,
        amr: identity.amr,
        claims: identity.claims,
        mapped_claims: { ...mappedClaims(provider, identity.claims) },
        local_account: await localOutcome(store, provider, identity),
      };
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) throw error;
      result = failed(base, error.code, `${provider.id}: ${error.reason}`);
    }
  if (taken !== undefined)
    await store.insertFederationState({ ...taken, data: JSON.stringify(result), expiresAt: taken.expiresAt });
  await audit.record({
    event: 'upstream_test_sign_in',
    at: now,
    actor: pending.operator,
    reason: (result.status === 'failed' ? `${row.providerId}: ${result.problem.code}` : row.providerId).slice(0, 200),
  });
  return { upstream: row.providerId, status: result.status === 'failed' ? 'failed' : 'succeeded' };
}

function failed(
  base: { readonly id: string; readonly upstream: string; readonly finished_at: string },
  code: ProblemCode,
  detail: string,
): TestSignInResult {
  const p = PROBLEMS[code];
  return { ...base, status: 'failed', problem: { code, status: p.status, title: p.title }, detail };
}

/** The result of a test sign-in that failed before the browser was sent to the upstream (read at once). */
export function testSignInFailure(upstream: string, failure: UpstreamFailure, now: number): TestSignInResult {
  return failed({ id: '', upstream, finished_at: iso(now) }, failure.code, `${upstream}: ${failure.reason}`);
}

/**
 * The result for `operator`: a pending one as it is, a finished one taken (read once). Another
 * operator's id, an unknown, expired or already read one: undefined.
 */
export async function readTestSignIn(
  store: Repository,
  operator: Actor,
  upstream: string,
  resultId: string,
  now: number,
): Promise<TestSignInResult | undefined> {
  const id = resultRowId(operator.id, resultId);
  const found = await store.findFederationState(id, now);
  if (found === undefined || found.providerId !== upstream) return undefined;
  const result = JSON.parse(found.data) as TestSignInResult;
  if (result.status === 'pending') return result;
  const taken = await store.takeFederationState(id, now);
  return taken === undefined ? undefined : (JSON.parse(taken.data) as TestSignInResult);
}

/**
 * What a sign-in with this identity would do, by the plan a real one carries out (linking.ts
 * `planLocalUser`): the linked user, a link by e-mail (after its owner's proof, or at once where
 * `email_verified` is trusted), a provisioned user and the username it would get, or a refusal.
 */
async function localOutcome(
  store: Repository,
  provider: UpstreamProvider,
  identity: UpstreamIdentity,
): Promise<TestSignInOutcome> {
  const plan = await planLocalUser(store, provider, identity);
  switch (plan.kind) {
    case 'user':
      return { action: 'sign_in', username: plan.user.username };
    case 'link':
      return { action: 'link', username: plan.candidate.username };
    case 'prove':
      return { action: 'link_after_proof', username: plan.candidate.username };
    case 'no_account':
      return { action: 'refuse', reason: plan.reason };
    case 'provision': {
      const names = usernameCandidates(provider, identity);
      for (const username of names)
        if ((await store.findUser(username)) === undefined) return { action: 'provision', username };
      return { action: 'provision', username: names[names.length - 1] as string };
    }
  }
}
