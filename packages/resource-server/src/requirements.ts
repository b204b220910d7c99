import { bearerChallenge, BearerChallenge, ProblemError } from '@gatehouse/contract';
import type { AccessTokenClaims } from './access-tokens.js';

/** What a route asks of the token beyond the document: one of these roles, or one of these scopes. */
export type Requirement = { readonly roles: readonly string[] } | { readonly scopes: readonly string[] };

const quoted = (names: readonly string[]): string => names.map((n) => `'${n}'`).join(' or ');

/**
 * Why `token` does not meet `requirement`, or undefined when it does:
 * - no token: 401 invalid_token with the RFC 6750 §3 challenge;
 * - none of the scopes (RFC 6749 §3.3 `scope`): 403 insufficient_scope, its challenge naming the
 *   first (RFC 6750 §3.1);
 * - none of the roles (RFC 9068 §2.2.3.1 `roles`): 403 insufficient_role. A token whose roles
 *   overflowed to Gatehouse's userinfo (`_claim_names.roles`) carries none here: it is refused too.
 */
export function requirementRefusal(
  token: AccessTokenClaims | undefined,
  requirement: Requirement,
  realm: string,
): ProblemError | undefined {
  if (token === undefined)
    return new BearerChallenge('invalid_token', 'The request has no access token.', bearerChallenge({ realm }));
  if ('scopes' in requirement) {
    const granted = typeof token.scope === 'string' ? token.scope.split(' ') : [];
    if (requirement.scopes.some((s) => granted.includes(s))) return undefined;
    return new BearerChallenge(
      'insufficient_scope',
      `This operation needs the scope ${quoted(requirement.scopes)}.`,
      bearerChallenge({ realm }, { error: 'insufficient_scope', scope: requirement.scopes[0] ?? '' }),
    );
  }
  const held = Array.isArray(token['roles']) ? (token['roles'] as unknown[]) : [];
  if (requirement.roles.some((r) => held.includes(r))) return undefined;
  return new ProblemError('insufficient_role', `This operation needs the role ${quoted(requirement.roles)}.`);
}
