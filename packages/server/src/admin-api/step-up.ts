import { BearerChallenge, bearerChallenge, dpopChallenge, DPOP_SIGNING_ALGORITHMS } from '@gatehouse/contract';
import type { AccessTokenClaims } from '../oauth/tokens/index.js';

/** The OpenAPI extension naming, on an operation, how recent (seconds) a user's sign-in must be to call it. */
export const STEP_UP = 'x-step-up-max-age';

/** How recent a user's sign-in must be for a dangerous operation: five minutes, as the console asks. */
export const STEP_UP_MAX_AGE = 300;

/**
 * The dangerous operations, by operationId: the deletions of an object (not of a membership, a
 * domain or an invitation, which are undone by adding them again), a new client secret (the old one
 * stops working), and rotating or retiring a signing key. The document declares `x-step-up-max-age`
 * on each (document.ts) and the caller check reads it from there.
 */
const DANGEROUS = new Set([
  'deleteClient',
  'deleteUser',
  'deleteUpstream',
  'deleteOrganization',
  'deleteGroup',
  'deleteRole',
  'rotateClientSecret',
  'rotateSigningKeys',
  'retireSigningKey',
]);

/** The `x-step-up-max-age` of the operation `operationId`, or undefined when it asks none. */
export function stepUpOf(operationId: unknown): number | undefined {
  return typeof operationId === 'string' && DANGEROUS.has(operationId) ? STEP_UP_MAX_AGE : undefined;
}

/**
 * RFC 9470 step-up, made by the admin API itself and not only by the console: a user's token (one
 * from a grant) may call an operation that declares a `maxAge` only when its user signed in at most
 * `maxAge` seconds ago, as its `auth_time` says (RFC 9068 §2.2.1); a token that does not say is
 * refused too. The refusal is 401 `step_up_required` with the challenge of RFC 9470 §3,
 * `error="insufficient_user_authentication"` and `max_age`, in the token's own scheme (DPoP for a
 * DPoP-bound token, RFC 9449 §7.1).
 *
 * An admin client's own token (client_credentials, RFC 6749 §4.4) has no user and so no sign-in to
 * renew: it is not asked, as Keycloak's and Zitadel's service accounts are not. Such a client's
 * secret or key is its credential; narrower admin roles (`roles assign … --client`) limit it.
 */
export function requireRecentSignIn(
  claims: AccessTokenClaims,
  maxAge: number | undefined,
  now: number,
  realm: string,
): void {
  if (maxAge === undefined || claims.grant_id === undefined) return;
  const authTime = claims.auth_time;
  if (typeof authTime === 'number' && now - authTime <= maxAge) return;
  const refusal = {
    error: 'insufficient_user_authentication',
    errorDescription: `A sign-in within the last ${maxAge} seconds is required`,
    maxAge,
  } as const;
  throw new BearerChallenge(
    'step_up_required',
    typeof authTime === 'number'
      ? `This operation needs a sign-in within the last ${maxAge} seconds; this token's user signed in ${now - authTime} seconds ago.`
      : `This operation needs a sign-in within the last ${maxAge} seconds; this token does not say when its user signed in.`,
    claims.cnf?.jkt === undefined
      ? bearerChallenge({ realm }, refusal)
      : dpopChallenge({ realm }, DPOP_SIGNING_ALGORITHMS, refusal),
  );
}

/** `METHOD {prefix}/path/:param` (the route as Fastify names it) → the `x-step-up-max-age` its operation declares. */
export function stepUpByRoute(paths: Readonly<Record<string, unknown>>, prefix: string): ReadonlyMap<string, number> {
  const routes = new Map<string, number>();
  for (const [path, item] of Object.entries(paths))
    for (const [method, operation] of Object.entries(item as Record<string, unknown>)) {
      const maxAge = (operation as Record<string, unknown> | undefined)?.[STEP_UP];
      if (typeof maxAge === 'number')
        routes.set(`${method.toUpperCase()} ${prefix}${path.replace(/\{([^}]+)\}/g, ':$1')}`, maxAge);
    }
  return routes;
}
