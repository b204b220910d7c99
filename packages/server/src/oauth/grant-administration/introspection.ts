import type { GatehouseIntrospectionResponse } from '@gatehouse/contract';
import type { OAuthServices, TokenServices } from '../services.js';
import type { ClientRecord } from '../../primitives/records.js';
import { refreshTokenState } from '../tokens/index.js';
import { digestOf } from '../../primitives/secrets.js';
import { clientStillHolds } from '../tokens/index.js';

const INACTIVE: GatehouseIntrospectionResponse = Object.freeze({ active: false });

/**
 * Introspects a refresh or access token for an authenticated caller. An unknown, expired, revoked
 * or past-limit token, and a token of another client when the caller is not a resource server, all
 * answer `{"active": false}` and nothing more (RFC 7662 §2.2). Refresh tokens are opaque and access
 * tokens are JWTs, so the token's shape says where to look and `token_type_hint` is not needed.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7662#section-2 RFC 7662 §2
 */
export async function introspectToken(
  services: OAuthServices,
  caller: ClientRecord,
  token: string,
): Promise<GatehouseIntrospectionResponse> {
  const found = token.includes('.')
    ? await introspectAccessToken(services, token)
    : await introspectRefreshToken(services, caller, token);
  if (!found.active) return INACTIVE;
  return caller.resourceServer || caller.id === found.client_id ? found : INACTIVE;
}

async function introspectRefreshToken(
  { store, clock, issuer }: Pick<OAuthServices, 'store' | 'clock' | 'issuer'>,
  caller: ClientRecord,
  token: string,
): Promise<GatehouseIntrospectionResponse> {
  const found = await store.findRefreshToken(digestOf(token));
  if (!found) return INACTIVE;
  // The token's client decides its policy; usually it is the caller, just read.
  const client = found.grant.clientId === caller.id ? caller : await store.findClient(found.grant.clientId);
  if (!client || refreshTokenState(found, client.policy, clock.now()) !== 'active') return INACTIVE;
  const { grant } = found;
  return {
    active: true,
    token_type: 'refresh_token',
    client_id: grant.clientId,
    sub: grant.subject,
    scope: grant.scope.join(' '),
    exp: Math.min(found.token.expiresAt, grant.expiresAt),
    iat: found.token.issuedAt,
    iss: issuer,
  };
}

async function introspectAccessToken(
  { store, clock, accessTokens }: TokenServices,
  token: string,
): Promise<GatehouseIntrospectionResponse> {
  const claims = await accessTokens.check(token, clock.now());
  if (!claims) return INACTIVE;
  // RFC 7662 §2.2 `sub`: the grant's subject, as in the token; a token minted before migration 0015
  // named the username, and is answered with its grant's subject all the same.
  let sub = claims.sub;
  if (claims.grant_id !== undefined) {
    const grant = await store.findGrant(claims.grant_id);
    if (!grant || grant.revokedAt !== null) return INACTIVE;
    sub = grant.subject;
  } else if (!(await clientStillHolds(store, claims))) return INACTIVE;
  return {
    active: true,
    token_type: 'Bearer',
    client_id: claims.client_id,
    sub,
    scope: claims.scope,
    exp: claims.exp,
    iat: claims.iat,
    iss: claims.iss,
    // RFC 8693 §4.1: a delegated token's actor chain, as the token carries it.
    ...(claims.act === undefined ? {} : { act: claims.act }),
  };
}
