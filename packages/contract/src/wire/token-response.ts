/**
 * A successful token response, as any authorization server may send it: `expires_in` is only
 * RECOMMENDED and `scope` may be left out when it is the scope requested. Wire names are the RFC's.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 RFC 6749 §5.1
 */
export interface TokenResponse {
  readonly access_token: string;
  /** Case-insensitive (RFC 6749 §5.1). */
  readonly token_type: string;
  /** Seconds the access token lives. */
  readonly expires_in?: number;
  readonly refresh_token?: string;
  /** Space-separated scope tokens (RFC 6749 §3.3). */
  readonly scope?: string;
  /** An OpenID Connect ID token, for a request with the `openid` scope (OIDC Core §3.1.3.3). */
  readonly id_token?: string;
}

/**
 * The token response Gatehouse sends: a Bearer (or DPoP-bound) token with its lifetime and its scope; a
 * refresh token when the grant has one (never for client_credentials, RFC 6749 §4.4.3).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-4 RFC 6750 §4 (the Bearer token type)
 */
export interface GatehouseTokenResponse extends TokenResponse {
  /** `DPoP` for an access token bound to the key of the request's DPoP proof (RFC 9449 §5). */
  readonly token_type: 'Bearer' | 'DPoP';
  readonly expires_in: number;
  readonly scope: string;
  /**
   * RFC 8693 §2.2.1: REQUIRED in a token exchange's answer (the type of `access_token`, e.g.
   * `urn:ietf:params:oauth:token-type:access_token`); absent from every other grant's.
   */
  readonly issued_token_type?: string;
}
