import { accessClaims, apiOfAudience, cappedBy, type AccessClaims } from '../../access/index.js';
import type { Repository } from '../../store/repository.js';
import type { HeldAccess, HolderAccessRead } from '../../store/access-resolution.js';
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

/**
 * What a refresh asks the store to read with its token (`Repository.findRefreshToken`): the access
 * of the grant's user for the API of the access token it answers (its default audience).
 */
export function holderAccessRead(accessTokens: AccessTokens): HolderAccessRead {
  return { api: apiOfAudience(accessTokens.audience, accessTokens.issuer) };
}

/** `userAccessClaims` for the default audience, from what the store read with the token (`holderAccessRead`). */
export function heldAccessClaims(accessTokens: AccessTokens, held: HeldAccess): AccessClaims {
  return accessClaims(held, `${accessTokens.issuer}/userinfo`);
}

/** The scopes that ask for the user's roles and groups in the ID token and at userinfo. */
export const ROLES_SCOPE = 'roles';
export const GROUPS_SCOPE = 'groups';

/**
 * The `roles` and `groups` an ID token or userinfo releases for `scope` (OIDC Core §5.4: a scope
 * asks for claims): `roles` with the `roles` scope, `groups` with the `groups` scope, none without.
 * The roles are the server-wide ones and those of the API `audience` (userinfo: its token's; an ID
 * token: the client's own, when it is a resource server). `bound`: the ID token keeps the size rule
 * of access tokens; userinfo, where the overflow marker points, answers the whole lists.
 */
export async function releasedAccessClaims(
  store: Repository,
  accessTokens: AccessTokens,
  r: { subject: string; audience: string; scope: readonly string[]; bound: boolean },
): Promise<AccessClaims> {
  const [roles, groups] = [r.scope.includes(ROLES_SCOPE), r.scope.includes(GROUPS_SCOPE)];
  if (!roles && !groups) return {};
  const held = await store.heldAccess(r.subject, apiOfAudience(r.audience, accessTokens.issuer));
  const asked = { roles: roles ? held.roles : [], groups: groups ? held.groups : [] };
  if (r.bound) return accessClaims(asked, `${accessTokens.issuer}/userinfo`);
  return { ...(roles ? { roles: asked.roles } : {}), ...(groups ? { groups: asked.groups } : {}) };
}
