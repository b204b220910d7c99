import type { AdminApi } from '../admin.js';
import { STEP_UP_MAX_AGE } from '../session.js';

/**
 * Runs a dangerous action (a deletion, a key rotation, a secret reset) only on a recent sign-in:
 * otherwise the operator signs in again first (OIDC Core §3.1.2.1 `max_age` with `prompt=login`,
 * the ID token's `auth_time` checked on return) and comes back to `path` to do it.
 */
export function whenFresh(api: AdminApi, path: string, action: () => void): void {
  if (api.session.isFresh()) action();
  else void api.session.signIn(path, { maxAge: STEP_UP_MAX_AGE });
}
