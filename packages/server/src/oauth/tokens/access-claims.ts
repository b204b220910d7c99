import { accessClaims, apiOfAudience, cappedBy, type AccessClaims } from '../../access/index.js';
import type { Repository } from '../../store/repository.js';
import type { AccessTokens } from './access-tokens.js';

/**
 * The `roles` and `groups` (RFC 9068 §2.2.3.1) of a user's access token for `audience`: read from
 * the store when the token is minted, so a role removed before a refresh starts is absent from the
 * access token it answers. The roles are the server-wide ones and those of the audience's API only:
 * a token for one API never carries another's (access/claims.ts). `cap`: a token exchange's subject
 * token's claims, which the new token never exceeds (RFC 8693 §2.1).
 */
export async function userAccessClaims(
  store: Repository,
  accessTokens: AccessTokens,
  subject: string,
  audience: string = accessTokens.audience,
  cap?: { readonly roles?: unknown; readonly groups?: unknown },
): Promise<AccessClaims> {
  const { issuer } = accessTokens;
  const held = await store.heldAccess(subject, apiOfAudience(audience, issuer));
  return accessClaims(cap === undefined ? held : cappedBy(held, cap), `${issuer}/userinfo`);
}
