import type { AccessTokenClaims } from './claims.js';

/**
 * The scopes a request needs: alternatives, of which one suffices when the token holds every scope
 * it lists (an OpenAPI security requirement's shape). `[['contacts:write']]` needs one scope;
 * `[['admin:read'], ['admin']]` either of two.
 */
export type RequiredScopes = readonly (readonly string[])[];

/** The scopes a token grants, split once per claims object (verifiers hand out the same object). */
const granted = new WeakMap<AccessTokenClaims, ReadonlySet<string>>();

export function grantedScopes(claims: AccessTokenClaims): ReadonlySet<string> {
  let scopes = granted.get(claims);
  if (scopes === undefined) granted.set(claims, (scopes = new Set(claims.scope.split(' '))));
  return scopes;
}

/**
 * Whether the token's scope satisfies one of the alternatives (RFC 6750 §3.1 insufficient_scope
 * otherwise). No alternatives at all needs no scope.
 */
export function hasRequiredScope(claims: AccessTokenClaims, required: RequiredScopes): boolean {
  if (required.length === 0) return true;
  const held = grantedScopes(claims);
  for (const alternative of required) if (holdsAll(held, alternative)) return true;
  return false;
}

/** Stops at the first scope missing; no closure on the request path. */
function holdsAll(held: ReadonlySet<string>, scopes: readonly string[]): boolean {
  for (const scope of scopes) if (!held.has(scope)) return false;
  return true;
}

/** The scope a refusal names in its challenge (RFC 6750 §3): the first alternative, space-delimited. */
export function challengeScope(required: RequiredScopes): string {
  return (required[0] ?? []).join(' ');
}

/** The one wording of an insufficient-scope refusal: "This operation needs the scope 'a' or 'b c'." */
export function insufficientScopeDetail(required: RequiredScopes): string {
  return `This operation needs the scope ${required.map((scopes) => `'${scopes.join(' ')}'`).join(' or ')}.`;
}
