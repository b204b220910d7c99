import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { AuthorizationRequest } from '../oauth/authorization-request.js';
import { signedInSession } from './sign-in/state.js';

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
