import type { GrantTypeName } from './grant-types.js';
import type { ActorClaim } from '@gatehouse/contract';

/** The store's records as the domain sees them: camelCase, typed, times in epoch seconds. */

/** A client's refresh-token policy (docs/architecture.md, "Grants and refresh-token families"). */
export interface RefreshPolicy {
  /** Whether each refresh issues a new refresh token and uses up the old one. */
  readonly rotation: boolean;
  /** How many times one refresh token may be exchanged (1: single use). */
  readonly rotationLimit: number;
  /** Optional cap on how many rotations a family may go through. */
  readonly maxRotations: number | null;
  /** Idle lifetime of each refresh token, seconds. */
  readonly refreshTokenTtl: number;
  /** Lifetime of the family from the grant's first issue, seconds. */
  readonly refreshTokenAbsoluteTtl: number;
  /**
   * Seconds after a rotation during which the rotated token, presented again by its client while its
   * successor is unused, is answered with that same successor (0: off; at most 300).
   */
  readonly replayWindow: number;
}

export interface ClientRecord {
  readonly id: string;
  readonly name: string;
  /** SHA-256 of the secret, hex; null for a public client. */
  readonly secretDigest: string | null;
  readonly redirectUris: readonly string[];
  /** `grant_type` values the client may use (the vocabulary the grant registry, oauth/grants/, implements). */
  readonly grantTypes: readonly GrantTypeName[];
  /** Scopes the client may request. */
  readonly scope: readonly string[];
  readonly policy: RefreshPolicy;
  readonly accessTokenTtl: number;
  /** A resource server may introspect tokens of every client. */
  readonly resourceServer: boolean;
  readonly createdAt: number;
  /** `id_token_signed_response_alg` (OIDC Registration §2); absent means RS256 (OIDC Core §15.1). */
  readonly idTokenAlg?: 'RS256' | 'ES256';
  /** Where RP-initiated logout may send the browser back, compared exactly. */
  readonly postLogoutRedirectUris?: readonly string[];
  /** An admin client may hold the `gatehouse:admin` scopes; only the CLI makes one (0011). */
  readonly admin?: boolean;
  /** What it may do with the token exchange grant (RFC 8693); the defaults when absent (0020). */
  readonly tokenExchange?: TokenExchangePolicy;
  /** The client's public keys, inline (RFC 7591 §2 `jwks`); absent or null for none (0022). */
  readonly jwks?: JsonWebKeySet | null;
  /** Where the client's public keys are published (RFC 7591 §2 `jwks_uri`); absent or null for none. */
  readonly jwksUri?: string | null;
  /**
   * The one client authentication method the client may use; absent, the one its secret implies
   * (client_secret_basic or _post with one, none without). A client of `private_key_jwt` has no secret.
   */
  readonly authMethod?: 'private_key_jwt';
  /** Its authorization requests must be pushed (RFC 9126 §6 `require_pushed_authorization_requests`). */
  readonly requirePushedAuthorizationRequests?: boolean;
  /** RFC 9449 §5.2 `dpop_bound_access_tokens`: every token request must carry a DPoP proof (0021). */
  readonly dpopBoundAccessTokens?: boolean;
  /** Whether signing in to this client asks a second factor; absent: the server's SECOND_FACTOR. */
  readonly secondFactor?: SecondFactorPolicy;
  /**
   * The security profile the client is held to (0023): `fapi2`, the FAPI 2.0 Security Profile
   * (oauth/sender-constraints/fapi-profile.ts); absent, none.
   */
  readonly profile?: 'fapi2';
}

/** A JWK Set (RFC 7517 §5): public keys only, as the client registered them. */
export interface JsonWebKeySet {
  readonly keys: readonly JsonWebKey[];
}

/** Whether the client holds keys it may sign with (client assertions, request objects). */
export function hasClientKeys(client: Pick<ClientRecord, 'jwks' | 'jwksUri'>): boolean {
  return (client.jwks ?? null) !== null || (client.jwksUri ?? null) !== null;
}

/**
 * A public client (RFC 6749 §2.1): no secret and no keys, so it cannot authenticate. A client of
 * private_key_jwt has no secret either, but is confidential.
 */
export function isPublicClient(client: Pick<ClientRecord, 'secretDigest' | 'authMethod'>): boolean {
  return client.secretDigest === null && client.authMethod !== 'private_key_jwt';
}

/**
 * A client's token exchange policy (RFC 8693; docs/authorization.md, "Service-to-service delegation").
 * The grant itself is allowed by the client's grant types; this says what for.
 */
export interface TokenExchangePolicy {
  /**
   * Audiences (RFC 8693 `audience`, RFC 8707 `resource`) it may ask for, besides this server's own
   * (the issuer and its REST API), which it always may.
   */
  readonly audiences: readonly string[];
  /**
   * Audiences of subject tokens it may exchange, besides tokens issued to itself: the APIs it serves,
   * whose callers' tokens it receives.
   */
  readonly subjectAudiences: readonly string[];
  /** Whether an exchange without an actor token issues a token with no `act` (impersonation, RFC 8693 §1.1). */
  readonly impersonation: boolean;
  /**
   * Whether it may ask `requested_token_type` refresh_token (RFC 8693 §2.1, §3): the answer then
   * carries a refresh token of a new grant of this client, revoked with the subject token's grant.
   * Absent in policies stored before it: false.
   */
  readonly refreshTokens?: boolean;
}

export const DEFAULT_TOKEN_EXCHANGE_POLICY: TokenExchangePolicy = Object.freeze({
  audiences: [],
  subjectAudiences: [],
  impersonation: false,
  refreshTokens: false,
});

/**
 * Whether a sign-in asks a second factor: `off` never; `optional` when the user has
 * enrolled one; `required` always, the user enrolling one during the sign-in when it has none.
 */
export const SECOND_FACTOR_POLICIES = ['off', 'optional', 'required'] as const;
export type SecondFactorPolicy = (typeof SECOND_FACTOR_POLICIES)[number];

/** Why a grant was revoked: `grant_revoked`'s reason in the audit trail, `revoked_reason` of `grants list`. */
export const GRANT_REVOCATION_REASONS = [
  'revoked_by_client',
  'revoked_by_admin',
  'revoked_by_user',
  'reuse_detected',
  'code_replayed',
  // A token exchange's grant revoked with the grant of its subject token (RFC 8693; 0024).
  'parent_revoked',
  // The user reset a forgotten password (accounts/password-reset.ts, PASSWORD_RESET_REVOKES_GRANTS).
  'password_reset',
] as const;

export type GrantRevocationReason = (typeof GRANT_REVOCATION_REASONS)[number];

export interface GrantRecord {
  readonly id: string;
  readonly clientId: string;
  /**
   * The user's opaque, stable subject (`users.subject`, OIDC Core §2), the `sub` of every token of
   * the grant; never the username (migration 0015 rewrote the grants that named one).
   */
  readonly subject: string;
  readonly scope: readonly string[];
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly rotationCount: number;
  readonly headTokenId: string | null;
  readonly previousTokenId: string | null;
  readonly revokedAt: number | null;
  readonly revokedReason: GrantRevocationReason | null;
  /** When the family last rotated (epoch seconds); null before its first rotation. */
  readonly rotatedAt: number | null;
  /** RFC 9449 §5: the DPoP key (RFC 7638 thumbprint) its refresh tokens are bound to; null or absent: unbound. */
  readonly dpopJkt?: string | null;
  /**
   * A token exchange's grant (RFC 8693 §2.1 `requested_token_type` refresh_token): the `act` claim
   * and audience every access token of the grant carries, at every refresh. Absent otherwise.
   */
  readonly exchange?: GrantExchange | null;
  /** A token exchange's grant: the subject token's grant, whose revocation revokes this one too. */
  readonly parentGrantId?: string | null;
  /** The organization chosen at /authorize: every token of the grant carries it; absent for none. */
  readonly organizationId?: string | null;
}

/** What a token exchange's grant keeps of the exchange, for the access tokens of its refreshes. */
export interface GrantExchange {
  /** RFC 8693 §4.1; absent for impersonation. */
  readonly act?: ActorClaim;
  readonly audience: string;
}

/** What every bearer request reads of an access token's grant: its revocation, and whose it is. */
export interface GrantLiveness {
  /** Null while the grant is live. */
  readonly revokedAt: number | null;
  readonly subject: string;
}

export interface RefreshTokenRecord {
  readonly id: string;
  readonly grantId: string;
  readonly useCount: number;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export interface AuthorizationCodeRecord {
  readonly id: string;
  readonly clientId: string;
  readonly subject: string;
  readonly scope: readonly string[];
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly codeChallengeMethod: 'S256';
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly usedAt: number | null;
  readonly grantId: string | null;
  /** OIDC Core §3.1.2.1: echoed exactly in the ID token; null when the request sent none. */
  readonly nonce?: string | null;
  /** When the user signed in (OIDC Core §2 auth_time); null for a code not made by a sign-in. */
  readonly authTime?: number | null;
  /** How the user signed in (RFC 8176 `amr` values, OIDC Core §2); null for a code not made by a sign-in. */
  readonly amr?: readonly string[] | null;
  /** RFC 9449 §10: the DPoP key thumbprint the code is bound to; null or absent: none. */
  readonly dpopJkt?: string | null;
  /** The organization chosen at /authorize, for the grant the code becomes; null or absent: none. */
  readonly organizationId?: string | null;
}

export interface SigningKeyRecord {
  readonly kid: string;
  /** ES256 signs access tokens and ID tokens on request; RS256 signs ID tokens (OIDC Core §15.1). */
  readonly alg: 'ES256' | 'RS256';
  /** Plaintext, or sealed under KEY_ENCRYPTION_KEY (oauth/keys/key-sealing.ts). */
  readonly privateJwk: JsonWebKey | SealedPrivateKey;
  readonly publicJwk: JsonWebKey;
  readonly createdAt: number;
  /** When it starts signing; published from createdAt on. */
  readonly activatesAt: number;
  readonly retiredAt: number | null;
}

/** A refresh token with the grant (family) it belongs to. */
export interface RefreshTokenInFamily {
  readonly token: RefreshTokenRecord;
  readonly grant: GrantRecord;
}

/**
 * A refresh token's state and its grant's, without the rest of the grant (`Repository.findRefreshTokenBrief`):
 * what says whether the token is live and what an answer about it names. The scope stays as stored,
 * space-separated (RFC 6749 §3.3).
 */
export interface RefreshTokenBrief {
  readonly token: Pick<RefreshTokenRecord, 'id' | 'useCount' | 'issuedAt' | 'expiresAt'>;
  readonly grant: Pick<
    GrantRecord,
    | 'clientId'
    | 'subject'
    | 'expiresAt'
    | 'rotationCount'
    | 'headTokenId'
    | 'previousTokenId'
    | 'revokedAt'
    | 'rotatedAt'
    | 'exchange'
  >;
  readonly scope: string;
}

/** A private key sealed under KEY_ENCRYPTION_KEY (oauth/keys/key-sealing.ts): AES-256-GCM, the kid as its AAD. */
export interface SealedPrivateKey {
  readonly sealed: 'A256GCM';
  /** Which encryption key sealed it: the start of a digest of the derived key (not secret). */
  readonly kek: string;
  readonly iv: string;
  readonly data: string;
  readonly tag: string;
}
