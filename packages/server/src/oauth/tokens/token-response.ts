import type { GatehouseTokenResponse } from '@gatehouse/contract';
import type { ClientRecord, GrantExchange } from '../../primitives/records.js';
import type { AccessTokens, SignInClaims } from './access-tokens.js';
import { acrOf } from '../../primitives/acr.js';
import type { AccessClaims } from '../../access/index.js';
import type { OrganizationClaims } from '../../organizations/index.js';

/** Under its former name, for the grant handlers and operator grants that import it from here. */

interface TokenResponseRequest {
  readonly client: ClientRecord;
  readonly subject: string;
  readonly scope: readonly string[];
  readonly grantId: string | null;
  readonly refreshToken: string | null;
  readonly now: number;
  /** The key of the request's DPoP proof: the access token is bound to it (RFC 9449 §5, §6). */
  readonly dpopJkt?: string | undefined;
  /** A token exchange's grant: every access token carries its `act` and audience (RFC 8693 §4.1). */
  readonly exchange?: GrantExchange | null | undefined;
  /** A token exchange's grant: the access token never outlives the exchanged subject token. */
  readonly notAfter?: number | undefined;
  /** The user's `roles` and `groups` for the token's audience (RFC 9068 §2.2.3.1). */
  readonly access?: AccessClaims | undefined;
  /** The grant's organization, as the token carries it (`org_id`, `org_name`, `org_roles`). */
  readonly organization?: OrganizationClaims | undefined;
  /** How the user signed in, when the grant came from a sign-in: the token's `acr` and `auth_time`. */
  readonly signIn?: { readonly authTime: number | null; readonly amr: readonly string[] | null } | null | undefined;
}

/**
 * Mints the access token and answers it with the refresh token, if any.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 RFC 6749 §5.1
 */
export function tokenResponse(accessTokens: AccessTokens, r: TokenResponseRequest): GatehouseTokenResponse {
  const ttl = r.client.accessTokenTtl;
  const access_token = accessTokens.mint({
    subject: r.subject,
    clientId: r.client.id,
    scope: r.scope,
    grantId: r.grantId,
    ttl,
    now: r.now,
    ...(r.dpopJkt === undefined ? {} : { dpopJkt: r.dpopJkt }),
    ...(r.exchange == null ? {} : { act: r.exchange.act, audience: r.exchange.audience }),
    ...(r.notAfter === undefined ? {} : { notAfter: r.notAfter }),
    ...(r.access === undefined ? {} : { access: r.access }),
    ...(r.organization === undefined ? {} : { organization: r.organization }),
    ...signInClaimsOf(r.signIn),
  });
  return {
    access_token,
    token_type: r.dpopJkt === undefined ? 'Bearer' : 'DPoP',
    expires_in: r.notAfter === undefined ? ttl : Math.max(0, Math.min(r.now + ttl, r.notAfter) - r.now),
    ...(r.refreshToken === null ? {} : { refresh_token: r.refreshToken }),
    scope: r.scope.join(' '),
  };
}

/**
 * RFC 9068 §2.2.1: a user's access token carries the class of the sign-in its grant came from
 * (`acr`, primitives/acr.ts) and its time, so an API can ask for two factors (the admin API does for
 * a client that requires them). Nothing when the sign-in is not known.
 */
function signInClaimsOf(signIn: TokenResponseRequest['signIn']): { signIn?: SignInClaims } {
  if (signIn == null || signIn.authTime === null || signIn.amr === null || signIn.amr.length === 0) return {};
  return { signIn: { acr: acrOf(signIn.amr), auth_time: signIn.authTime } };
}
