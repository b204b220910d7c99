import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { AuthorizationRequest } from '../oauth/authorization-requests/index.js';
import type { FactorSealing } from '../factors/sealing.js';
import { signedInSession, type SignedInSession } from './sign-in/state.js';

/**
 * Whether the browser must sign in (again) before this request is answered (OIDC Core §3.1.2.1):
 * not signed in (or pending); `prompt=login`; or signed in longer ago than `max_age` seconds. A sign-in made in
 * answer to this very request (`justSignedIn`) satisfies prompt=login and max_age, so that the
 * request does not ask again in a loop.
 */
export function needsSignIn(
  request: AuthorizationRequest,
  session: BrowserSessionRecord,
  now: number,
  justSignedIn = false,
): boolean {
  // A pending session (a factor still required) is not signed in.
  const signedIn = signedInSession(session);
  if (!signedIn) return true;
  if (justSignedIn) return false;
  const { prompt, maxAge } = request.oidc;
  if (prompt.has('login')) return true;
  return maxAge !== undefined && now - signedIn.authenticatedAt > maxAge;
}

/** Whether a signed-in request must be answered straight from the sign-in POST, not by GET /authorize again. */
export function asksForFreshSignIn(request: AuthorizationRequest): boolean {
  return request.oidc.prompt.has('login') || request.oidc.maxAge !== undefined;
}

/** How recent a sign-in must be to change how the user signs in (the account page's security section). */
export const FRESH_SIGN_IN_SECONDS = 10 * 60;

/** Whether a signed-in session's sign-in is recent enough to change its second factors. */
export function isFreshSignIn(session: { readonly authenticatedAt: number }, now: number): boolean {
  return now - session.authenticatedAt <= FRESH_SIGN_IN_SECONDS;
}

/**
 * The `method` of the form that goes on from the recovery codes shown at the end of a sign-in
 * (an enrolment during sign-in) to the request that sign-in answered.
 */
export const FRESH_CONTINUE_METHOD = 'continue';

const freshContext = (sessionId: string, request: string): string => `fresh-sign-in:${sessionId}:${request}`;

/**
 * A sign-in made in answer to a request with `prompt=login` or `max_age` satisfies them once (OIDC
 * Core §3.1.2.1), but a page between the sign-in and the answer (the recovery codes of an
 * enrolment) would send the browser to GET /authorize, which asks again: a loop. The page's form
 * carries this instead: the sign-in's time sealed for this browser session and this request only.
 */
export function sealFreshSignIn(sealing: FactorSealing, session: SignedInSession, request: string): string {
  return sealing.seal(String(session.authenticatedAt), freshContext(session.id, request));
}

/**
 * The signed-in session when `sealed` was made for it and this request by sealFreshSignIn, for the
 * sign-in it still holds, less than FRESH_SIGN_IN_SECONDS ago; undefined otherwise (then GET
 * /authorize decides, and asks for a sign-in again).
 */
export function openFreshSignIn(
  sealing: FactorSealing,
  session: BrowserSessionRecord,
  request: string,
  sealed: string,
  now: number,
): SignedInSession | undefined {
  const signedIn = signedInSession(session);
  if (!signedIn) return undefined;
  let at: string;
  try {
    at = sealing.open(sealed, freshContext(signedIn.id, request));
  } catch {
    return undefined;
  }
  if (at !== String(signedIn.authenticatedAt) || !isFreshSignIn(signedIn, now)) return undefined;
  return signedIn;
}
