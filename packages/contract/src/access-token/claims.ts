/**
 * The claims of a verified access token: RFC 9068 §2.2's required claims as Gatehouse signs them,
 * plus the grant the token belongs to.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9068#section-2.2 RFC 9068 §2.2
 */
export interface AccessTokenClaims {
  readonly iss: string;
  readonly sub: string;
  readonly aud: string | readonly string[];
  readonly client_id: string;
  /** Space-delimited (RFC 9068 §2.2.3, RFC 6749 §3.3). */
  readonly scope: string;
  readonly jti: string;
  readonly iat: number;
  readonly exp: number;
  readonly nbf?: number;
  /** Present when the token belongs to a grant that can be revoked (absent for client_credentials). */
  readonly grant_id?: string;
  /** RFC 9449 §6.1: the token is bound to the DPoP key of this RFC 7638 thumbprint. */
  readonly cnf?: { readonly jkt?: string };
}
