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
  /**
   * The actor a delegated token (RFC 8693 token exchange) was issued to act for `sub`: the current
   * actor, with the earlier actors of the chain nested in its own `act` (RFC 8693 §4.1). Absent for
   * a token the subject's own client holds, and for impersonation.
   */
  readonly act?: ActorClaim;
  /** RFC 9449 §6.1: the token is bound to the DPoP key of this RFC 7638 thumbprint. */
  readonly cnf?: { readonly jkt?: string };
  /**
   * RFC 9068 §2.2.1: the class of the user's sign-in (`mfa` with two factors, `sfa` with one) and its
   * time, when the token's grant came from a sign-in. Absent for a token that names no sign-in.
   */
  readonly acr?: string;
  readonly auth_time?: number;
  /** RFC 9068 §2.2.3.1: the user's roles for the token's audience, and its server-wide ones. */
  readonly roles?: readonly string[];
  /** RFC 9068 §2.2.3.1: the user's groups, with the groups they belong to. */
  readonly groups?: readonly string[];
  /**
   * OpenID Connect Core §5.6.2 distributed claims: a list too long to carry (`roles`, `groups`) named
   * here, with the source in `_claim_sources` (userinfo) that answers it.
   */
  readonly _claim_names?: Readonly<Record<string, string>>;
  readonly _claim_sources?: Readonly<Record<string, { readonly endpoint: string }>>;
  /** The organization the token was issued for (chosen at /authorize), its name, and the user's roles in it. */
  readonly org_id?: string;
  readonly org_name?: string;
  readonly org_roles?: readonly string[];
}

/**
 * RFC 8693 §4.1 `act`: who acts. `sub` (with `iss` when the actor's identity comes from another
 * issuer) names the actor; `client_id` the OAuth client it acted through, when known; a nested `act`
 * the actor before it. Only the outermost actor is the current one: nested actors are history, not
 * authority (§4.1, last paragraph).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8693#section-4.1 RFC 8693 §4.1
 */
export interface ActorClaim {
  readonly sub: string;
  readonly iss?: string;
  readonly client_id?: string;
  readonly act?: ActorClaim;
}
