import { InvalidAccessToken, type AccessTokenClaims as WireClaims } from '@gatehouse/contract';
import { createRemoteJWKSet, customFetch, errors, jwtVerify } from 'jose';
import { AuthorizationServerUnavailable } from './discovery.js';

/**
 * The claims of a verified Gatehouse access token: the contract's RFC 9068 §2.2 claims, and any
 * other claim the token carries.
 */
export interface AccessTokenClaims extends WireClaims {
  readonly [claim: string]: unknown;
}

export interface VerifierOptions {
  readonly issuer: string;
  readonly audience: string;
  readonly jwksUri: string;
  /** Seconds of clock difference tolerated on `exp`, `nbf` and `iat`. */
  readonly clockToleranceSeconds: number;
  /** No key-set request sooner than this after the last one, even for an unknown `kid`. */
  readonly jwksCooldownMs: number;
  readonly fetch: typeof fetch;
}

/** Why a token is refused: the kit answers 401 invalid_token with this detail (the contract's class). */
export { InvalidAccessToken };

export interface AccessTokenVerifier {
  /** The claims, at once when the token was verified before (the usual case), else once verified. */
  (token: string): AccessTokenClaims | Promise<AccessTokenClaims>;
  /**
   * The claims of a token verified before and still within its lifetime, else undefined. Any
   * string may be asked about: only a token exactly as verified is found.
   */
  readonly known: (token: string) => AccessTokenClaims | undefined;
}

/**
 * Verifies RFC 9068 access tokens against the server's JSON Web Key Set. jose caches the key set
 * and refetches it when a token names an unknown `kid` (a rotated key), at most once per
 * `jwksCooldownMs`, so a rotation is picked up with no restart.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9068#section-4 RFC 9068 §4 (validating JWT access tokens)
 */
export function accessTokenVerifier(options: VerifierOptions): AccessTokenVerifier {
  const keys = createRemoteJWKSet(new URL(options.jwksUri), {
    cooldownDuration: options.jwksCooldownMs,
    timeoutDuration: 5000,
    [customFetch]: options.fetch,
  });
  const verified = new VerifiedTokens(options.clockToleranceSeconds);
  const known = (token: string) => verified.get(token);
  return Object.assign((token: string) => known(token) ?? verify(token), { known });

  async function verify(token: string): Promise<AccessTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        // RFC 9068 §4: the `typ` header must be at+jwt, so an ID token is never taken for an access token.
        typ: 'at+jwt',
        // RFC 8725 §3.1: accept only the algorithm Gatehouse signs with, never `none` or HS*.
        algorithms: ['ES256'],
        clockTolerance: options.clockToleranceSeconds,
        requiredClaims: ['iss', 'sub', 'aud', 'client_id', 'scope', 'jti', 'iat', 'exp'],
      });
      return verified.set(token, payload as AccessTokenClaims);
    } catch (error) {
      throw isTokenFault(error) ? new InvalidAccessToken(describe(error), { cause: error }) : unavailable(error);
    }
  }
}

/** Faults of the token itself; everything else (network, a 5xx key set) is the server being unavailable. */
function isTokenFault(error: unknown): boolean {
  return (
    error instanceof errors.JWTClaimValidationFailed ||
    error instanceof errors.JWTExpired ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported
  );
}

function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The access token has expired.';
  if (error instanceof errors.JWKSNoMatchingKey)
    return 'The access token is signed by a key the server does not publish.';
  if (error instanceof errors.JWTClaimValidationFailed)
    return `The access token's ${error.claim} claim is not acceptable.`;
  return 'The access token is malformed or its signature does not verify.';
}

function unavailable(error: unknown): AuthorizationServerUnavailable {
  return new AuthorizationServerUnavailable(`cannot verify the token: ${(error as Error).message}`, { cause: error });
}

/**
 * Tokens verified in the last minute: a client presents the same token on every call, and the ES256
 * verification costs more than the rest of the request. Entries are found by the token's signature
 * (the part after the last dot; 86 characters for ES256, unique to the token) and hold the whole
 * token, which must equal the one presented: hashing the whole 500-byte token, or a digest of it,
 * on every request was the cache's main cost. Only tokens whose signature verified (so signed,
 * bounded in size) are ever stored. `exp` and `nbf` are checked again on every use. A key retired
 * at the server is thus honoured up to a minute longer, well within the ten minutes jose keeps a
 * fetched key set (`cacheMaxAge`).
 */
class VerifiedTokens {
  static readonly #TTL_MS = 60_000;
  static readonly #CAPACITY = 4096;
  readonly #tolerance: number;
  readonly #entries = new Map<
    string,
    { readonly token: string; readonly claims: AccessTokenClaims; readonly until: number }
  >();

  constructor(toleranceSeconds: number) {
    this.#tolerance = toleranceSeconds;
  }

  get(token: string): AccessTokenClaims | undefined {
    const signature = signatureOf(token);
    const entry = this.#entries.get(signature);
    if (entry === undefined || entry.token !== token) return undefined;
    const now = Date.now();
    const nbf = typeof entry.claims.nbf === 'number' ? entry.claims.nbf : 0;
    if (entry.until > now && entry.claims.exp + this.#tolerance > now / 1000 && nbf - this.#tolerance <= now / 1000)
      return entry.claims;
    this.#entries.delete(signature);
    return undefined;
  }

  set(token: string, claims: AccessTokenClaims): AccessTokenClaims {
    if (this.#entries.size >= VerifiedTokens.#CAPACITY)
      this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(signatureOf(token), {
      token,
      claims: Object.freeze(claims),
      until: Date.now() + VerifiedTokens.#TTL_MS,
    });
    return claims;
  }
}

function signatureOf(token: string): string {
  return token.slice(token.lastIndexOf('.') + 1);
}
