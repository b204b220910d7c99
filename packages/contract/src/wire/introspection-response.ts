import type { ActorClaim } from '../access-token/claims.js';

/**
 * An introspection response: `{"active": false}` and nothing more for a token that is not active
 * (RFC 7662 §2.2 says a server SHOULD NOT say why), or the active token's members, each OPTIONAL in
 * the RFC. Wire names are the RFC's.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7662#section-2.2 RFC 7662 §2.2
 */
export type IntrospectionResponse = InactiveIntrospectionResponse | ActiveIntrospectionResponse;

export interface InactiveIntrospectionResponse {
  readonly active: false;
}

export interface ActiveIntrospectionResponse {
  readonly active: true;
  readonly token_type?: string;
  readonly client_id?: string;
  readonly username?: string;
  readonly sub?: string;
  /** Space-separated scope tokens (RFC 6749 §3.3). */
  readonly scope?: string;
  /** Seconds since the epoch, as are `iat` and `nbf`. */
  readonly exp?: number;
  readonly iat?: number;
  readonly nbf?: number;
  readonly aud?: string | readonly string[];
  readonly iss?: string;
  readonly jti?: string;
}

/**
 * The introspection response Gatehouse sends: an active token always has all of these members but
 * `aud`, `act` and `cnf`. `token_type` says which kind of token was asked about: an opaque refresh
 * token, or a JWT access token used as a Bearer token or bound to a DPoP key (RFC 9449 §6.2).
 */
export type GatehouseIntrospectionResponse = InactiveIntrospectionResponse | GatehouseActiveIntrospectionResponse;

export interface GatehouseActiveIntrospectionResponse extends ActiveIntrospectionResponse {
  readonly token_type: 'refresh_token' | 'Bearer' | 'DPoP';
  readonly client_id: string;
  readonly sub: string;
  readonly scope: string;
  /** For a refresh token, the earlier of its own expiry and its grant's. */
  readonly exp: number;
  readonly iat: number;
  readonly iss: string;
  /** An access token's audience (RFC 7662 §2.2): this server, a resource it serves, or another service's. */
  readonly aud?: string | readonly string[];
  /**
   * A delegated token's actor chain (RFC 8693 §4.1, shown by introspection per §2.2.1 of RFC 7662's
   * extensibility); for a refresh token of a token exchange's grant, the actor of its access tokens.
   */
  readonly act?: ActorClaim;
  /** RFC 9449 §6.2: the RFC 7638 thumbprint of the DPoP key a bound access token is bound to. */
  readonly cnf?: { readonly jkt: string };
}
