import type { HeldAccess } from '../store/access-resolution.js';
import { ADMIN_API_PATH, REST_API_AUDIENCE } from './names.js';

/**
 * The size rule of the `roles` and `groups` claims (RFC 9068 §2.2.3.1). Each is carried when it has
 * at most `MAX_CLAIM_NAMES` names and its JSON is at most `MAX_CLAIM_BYTES` bytes. Past either bound
 * the token carries, instead of the list, a distributed-claims marker (OpenID Connect Core §5.6.2,
 * as Azure AD marks a groups overage): `_claim_names` maps the claim to a source in `_claim_sources`
 * whose `endpoint` is this server's userinfo, which answers the whole list to a token with the
 * `roles` / `groups` scope. So both lists together add at most some 5.5 KB to a token (base64url),
 * and a token stays below the 8 KB header limits of common proxies.
 */
export const MAX_CLAIM_NAMES = 100;
export const MAX_CLAIM_BYTES = 2048;

/** The name of the distributed-claims source the overflow marker points to. */
export const OVERFLOW_SOURCE = 'userinfo';

/** The access claims of a token: the lists, or for a list too long, the marker that replaces it. */
export interface AccessClaims {
  readonly roles?: readonly string[];
  readonly groups?: readonly string[];
  readonly _claim_names?: Readonly<Partial<Record<'roles' | 'groups', string>>>;
  readonly _claim_sources?: Readonly<Record<string, { readonly endpoint: string }>>;
}

/** The claims `held` gives a token; an empty list is left out. `userinfo`: the userinfo endpoint's URL. */
export function accessClaims(held: HeldAccess, userinfo: string): AccessClaims {
  const claims: { -readonly [K in keyof AccessClaims]: AccessClaims[K] } = {};
  const overflowed: Partial<Record<'roles' | 'groups', string>> = {};
  for (const name of ['roles', 'groups'] as const) {
    const list = held[name];
    if (list.length === 0) continue;
    if (fits(list)) claims[name] = list;
    else overflowed[name] = OVERFLOW_SOURCE;
  }
  if (Object.keys(overflowed).length > 0) {
    claims._claim_names = overflowed;
    claims._claim_sources = { [OVERFLOW_SOURCE]: { endpoint: userinfo } };
  }
  return claims;
}

function fits(list: readonly string[]): boolean {
  return list.length <= MAX_CLAIM_NAMES && Buffer.byteLength(JSON.stringify(list)) <= MAX_CLAIM_BYTES;
}

/**
 * The API whose roles a token for `aud` carries (besides the server-wide ones): the built-in REST
 * API's for a token for this server (`aud` the issuer, which the REST API accepts) or for the REST
 * API itself; none for the admin API (its roles are server-wide); otherwise the audience itself,
 * the client id of a resource server (a token exchange's target, RFC 8693 §2.1).
 */
export function apiOfAudience(aud: string, issuer: string): string | null {
  if (aud === issuer || aud === `${issuer}${REST_API_AUDIENCE}`) return REST_API_AUDIENCE;
  if (aud === `${issuer}${ADMIN_API_PATH}`) return null;
  return aud;
}

/**
 * What `held` keeps of a token exchange's subject token's claims (RFC 8693 §2.1: the new token is
 * never wider than the subject token): only the roles and groups both have. A subject token that
 * carried no list (none, or its overflow marker) gives none.
 */
export function cappedBy(held: HeldAccess, cap: { readonly roles?: unknown; readonly groups?: unknown }): HeldAccess {
  const within = (list: readonly string[], limit: unknown): string[] =>
    Array.isArray(limit) ? list.filter((name) => limit.includes(name)) : [];
  return { roles: within(held.roles, cap.roles), groups: within(held.groups, cap.groups) };
}
