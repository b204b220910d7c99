import type { GatehouseIntrospectionResponse } from '@gatehouse/contract';
import type { OAuthServices, TokenServices } from '../services.js';
import type { ClientRecord, RefreshTokenBrief } from '../../primitives/records.js';
import { refreshTokenState } from '../tokens/index.js';
import { digestOf } from '../../primitives/secrets.js';
import { clientStillHolds } from '../tokens/index.js';

const INACTIVE: GatehouseIntrospectionResponse = Object.freeze({ active: false });

/**
 * Introspects a refresh or access token for an authenticated caller: every token this server issued
 * and that has not ended, whatever its grant (an authorization code, client credentials, the device
 * grant, a token exchange), its audience (this server's, a resource indicator's, or another service's
 * that a token exchange policy names) or its binding (DPoP). An unknown, expired, revoked or
 * past-limit token, and a token of another client when the caller is not a resource server, all
 * answer `{"active": false}` and nothing more (RFC 7662 §2.2). Who may introspect a token: the client
 * it was issued to (`client_id`), and any client registered as a resource server, as the API of its
 * audience is (RFC 7662 §4 leaves the rule to the server). Refresh tokens are opaque and access
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
  return shownTo(caller, found);
}

/**
 * `introspectToken` answered synchronously where the store reads at once (a refresh token on
 * SQLite); null where a read must be awaited, or for an access token: `introspectToken` answers then.
 */
export function introspectTokenAtOnce(
  services: Pick<OAuthServices, 'store' | 'clock' | 'issuer'>,
  caller: ClientRecord,
  token: string,
): GatehouseIntrospectionResponse | null {
  const reads = services.store.readsAtOnce;
  if (reads === undefined || token.includes('.')) return null;
  const found = reads.findRefreshTokenBrief(digestOf(token));
  if (found === null) return null;
  const client =
    found === undefined || found.grant.clientId === caller.id ? caller : reads.findClient(found.grant.clientId);
  if (client === null) return null;
  return shownTo(caller, refreshTokenAnswer(services, found, client));
}

/** The answer to `caller`: a token of another client is shown only to a resource server (RFC 7662 §4). */
function shownTo(caller: ClientRecord, found: GatehouseIntrospectionResponse): GatehouseIntrospectionResponse {
  if (!found.active) return INACTIVE;
  return caller.resourceServer || caller.id === found.client_id ? found : INACTIVE;
}

async function introspectRefreshToken(
  services: Pick<OAuthServices, 'store' | 'clock' | 'issuer'>,
  caller: ClientRecord,
  token: string,
): Promise<GatehouseIntrospectionResponse> {
  const { store } = services;
  // The token's state and what the answer names, not the whole grant (Repository.findRefreshTokenBrief).
  const found = await store.findRefreshTokenBrief(digestOf(token));
  // The token's client decides its policy; usually it is the caller, just read.
  const client =
    found === undefined || found.grant.clientId === caller.id ? caller : await store.findClient(found.grant.clientId);
  return refreshTokenAnswer(services, found, client);
}

/** What a refresh token's brief says, `client` being its grant's (undefined: removed). */
function refreshTokenAnswer(
  { clock, issuer }: Pick<OAuthServices, 'clock' | 'issuer'>,
  found: RefreshTokenBrief | undefined,
  client: ClientRecord | undefined,
): GatehouseIntrospectionResponse {
  if (!found || !client || refreshTokenState(found, client.policy, clock.now()) !== 'active') return INACTIVE;
  const { grant } = found;
  return {
    active: true,
    token_type: 'refresh_token',
    client_id: grant.clientId,
    sub: grant.subject,
    scope: found.scope,
    exp: Math.min(found.token.expiresAt, grant.expiresAt),
    iat: found.token.issuedAt,
    iss: issuer,
    // RFC 8693 §4.1: a token exchange's grant acts for its user; its access tokens carry this `act`.
    ...(grant.exchange?.act === undefined ? {} : { act: grant.exchange.act }),
  };
}

async function introspectAccessToken(
  { store, clock, accessTokens }: TokenServices,
  token: string,
): Promise<GatehouseIntrospectionResponse> {
  // Every audience: a token exchange's for another service is this server's token all the same.
  const claims = await accessTokens.checkIssued(token, clock.now());
  if (!claims) return INACTIVE;
  // RFC 7662 §2.2 `sub`: the grant's subject, as in the token; a token minted before migration 0015
  // named the username, and is answered with its grant's subject all the same.
  let sub = claims.sub;
  if (claims.grant_id !== undefined) {
    const grant = await store.findGrant(claims.grant_id);
    if (!grant || grant.revokedAt !== null) return INACTIVE;
    sub = grant.subject;
  } else if (!(await clientStillHolds(store, claims))) return INACTIVE;
  const jkt = claims.cnf?.jkt;
  return {
    active: true,
    // RFC 9449 §6.2: a DPoP-bound token is of type DPoP, with the thumbprint of its key in `cnf`.
    token_type: jkt === undefined ? 'Bearer' : 'DPoP',
    client_id: claims.client_id,
    sub,
    scope: claims.scope,
    exp: claims.exp,
    iat: claims.iat,
    iss: claims.iss,
    // RFC 7662 §2.2: to whom the token is addressed.
    aud: claims.aud,
    // RFC 8693 §4.1: a delegated token's actor chain, as the token carries it.
    ...(claims.act === undefined ? {} : { act: claims.act }),
    ...(jkt === undefined ? {} : { cnf: { jkt } }),
  };
}
