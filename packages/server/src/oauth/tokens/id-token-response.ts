import type { GatehouseTokenResponse } from '@gatehouse/contract';
import type { ClientRecord, GrantRecord } from '../../primitives/records.js';
import { OPENID_SCOPE } from './id-tokens.js';
import type { TokenServices } from '../services.js';
import { releasedAccessClaims } from './access-claims.js';
import type { OrganizationClaims } from '../../organizations/index.js';
import { releasedOrganization } from './grant-organization.js';

interface IdTokenContext {
  readonly client: ClientRecord;
  readonly grant: GrantRecord;
  /** The scope of this response (a refresh may narrow it). */
  readonly scope: readonly string[];
  /** The code's nonce; null on refresh (OIDC Core §12.2 issues no nonce then). */
  readonly nonce: string | null;
  /** The original sign-in's time, or null when the grant came from none. */
  readonly authTime: number | null;
  /** How the user signed in (RFC 8176 `amr` values), or null with authTime. */
  readonly amr: readonly string[] | null;
  readonly now: number;
  /** The grant's organization claims, read at this issuance; released with the `organization` scope. */
  readonly organization?: OrganizationClaims | undefined;
}

/**
 * Adds an ID token to a token response whose scope has `openid` (OIDC Core §3.1.3.3, §12.2) and
 * whose grant is a user's. A grant whose subject is no user's (an operator's grant to a name that was
 * no user, from before migration 0015) has no ID token.
 */
export async function withIdToken(
  { store, idTokens, accessTokens }: Pick<TokenServices, 'store' | 'idTokens' | 'accessTokens'>,
  response: GatehouseTokenResponse,
  c: IdTokenContext,
): Promise<GatehouseTokenResponse> {
  if (!c.scope.includes(OPENID_SCOPE)) return response;
  const user = await store.findUserBySubject(c.grant.subject);
  if (!user) return response;
  const access = await releasedAccessClaims(store, accessTokens, {
    subject: user.subject,
    audience: c.client.id,
    scope: c.scope,
    bound: true,
  });
  const id_token = await idTokens.mint({
    client: c.client,
    user,
    scope: c.scope,
    accessToken: response.access_token,
    authTime: c.authTime,
    amr: c.amr,
    nonce: c.nonce,
    now: c.now,
    access,
    organization: releasedOrganization(c.scope, c.organization),
  });
  return { ...response, id_token };
}

/**
 * The ID token of a refresh (OIDC Core §12.2): a new one whose `auth_time` and `amr` are the original
 * sign-in's (read, and the grant's use noted, by the exchange: refresh-token-lifecycle.ts) and which
 * has no nonce.
 */
export function withRefreshIdToken(
  services: Pick<TokenServices, 'store' | 'idTokens' | 'accessTokens'>,
  response: GatehouseTokenResponse,
  c: Omit<IdTokenContext, 'nonce'>,
): GatehouseTokenResponse | Promise<GatehouseTokenResponse> {
  // Most refreshes are not OpenID ones: answered with no copy of the context and no promise.
  if (!c.scope.includes(OPENID_SCOPE)) return response;
  return withIdToken(services, response, { ...c, nonce: null });
}
