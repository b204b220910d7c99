import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';

/**
 * Issuers other than this server whose JWTs a client may present as the `subject_token` or
 * `actor_token` of a token exchange (RFC 8693 §2.1, token type `urn:ietf:params:oauth:token-type:jwt`),
 * configured by the operator (TOKEN_EXCHANGE_TRUSTED_ISSUERS). Each names where its keys are, and
 * which claim of its tokens names a user of this server (by username): an exchanged token's `sub` is
 * always this server's own subject for the user (RFC 9068 §2.2), never another issuer's.
 */
export interface TrustedIssuerConfig {
  readonly issuer: string;
  /** Its JWK Set URL (fetched with a timeout, cached by jose), or its keys inline. */
  readonly jwksUri?: string;
  readonly jwks?: JSONWebKeySet;
  /** The claim whose value is a username of this server; `sub` by default. */
  readonly userClaim: string;
}

/** Signature algorithms accepted from another issuer: asymmetric only, never `none` or HMAC (RFC 8725 §3.1). */
const ALGORITHMS = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'];

/** What a trusted issuer's JWT says, once verified. */
export interface VerifiedForeignToken {
  readonly issuer: string;
  readonly payload: JWTPayload;
  /** The username its `userClaim` names, if it names one. */
  readonly username: string | undefined;
}

type KeyLookup = ReturnType<typeof createLocalJWKSet> | ReturnType<typeof createRemoteJWKSet>;

export class TrustedIssuers {
  readonly #issuers = new Map<string, { config: TrustedIssuerConfig; keys: KeyLookup }>();

  constructor(configs: readonly TrustedIssuerConfig[]) {
    for (const config of configs) {
      const keys =
        config.jwks !== undefined
          ? createLocalJWKSet(config.jwks)
          : createRemoteJWKSet(new URL(config.jwksUri ?? ''), { timeoutDuration: 5000, cooldownDuration: 30_000 });
      this.#issuers.set(config.issuer, { config, keys });
    }
  }

  static readonly none = new TrustedIssuers([]);

  get size(): number {
    return this.#issuers.size;
  }

  /**
   * The verified token, or undefined when its issuer is not trusted or it does not verify (bad
   * signature, algorithm, expiry, not yet valid). The caller checks the audience against its policy.
   */
  async verify(token: string, now: number): Promise<VerifiedForeignToken | undefined> {
    const issuer = unverifiedIssuer(token);
    const trusted = issuer === undefined ? undefined : this.#issuers.get(issuer);
    if (trusted === undefined) return undefined;
    try {
      const { payload } = await jwtVerify(token, trusted.keys, {
        issuer: trusted.config.issuer,
        algorithms: ALGORITHMS,
        currentDate: new Date(now * 1000),
        requiredClaims: ['exp', 'sub'],
      });
      const named = payload[trusted.config.userClaim];
      return { issuer: trusted.config.issuer, payload, username: typeof named === 'string' ? named : undefined };
    } catch {
      return undefined;
    }
  }
}

/** The `iss` a JWT claims, read before verifying only to pick the keys it is verified with. */
function unverifiedIssuer(token: string): string | undefined {
  const part = token.split('.')[1];
  if (part === undefined) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof payload.iss === 'string' ? payload.iss : undefined;
  } catch {
    return undefined;
  }
}

/**
 * TOKEN_EXCHANGE_TRUSTED_ISSUERS: a JSON array of `{"issuer", "jwks_uri" | "jwks", "user_claim"?}`.
 * Throws a message naming what is wrong, for the server to refuse to start with.
 */
export function trustedIssuersFrom(value: string | undefined): TrustedIssuerConfig[] {
  if (value === undefined || value.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error('TOKEN_EXCHANGE_TRUSTED_ISSUERS must be a JSON array of {"issuer", "jwks_uri" or "jwks"}');
  }
  if (!Array.isArray(parsed)) throw new Error('TOKEN_EXCHANGE_TRUSTED_ISSUERS must be a JSON array');
  return parsed.map((entry: unknown, i) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    const where = `TOKEN_EXCHANGE_TRUSTED_ISSUERS[${i}]`;
    if (typeof e.issuer !== 'string' || !/^https?:\/\//.test(e.issuer))
      throw new Error(`${where}.issuer must be the issuer's URL`);
    const hasUri = typeof e.jwks_uri === 'string';
    const hasKeys = typeof e.jwks === 'object' && e.jwks !== null && Array.isArray((e.jwks as { keys?: unknown }).keys);
    if (hasUri === hasKeys) throw new Error(`${where} needs exactly one of jwks_uri (a URL) and jwks (a JWK Set)`);
    if (hasUri) {
      try {
        new URL(e.jwks_uri as string);
      } catch {
        throw new Error(`${where}.jwks_uri is not a URL`);
      }
    }
    if (e.user_claim !== undefined && typeof e.user_claim !== 'string')
      throw new Error(`${where}.user_claim must be a claim name`);
    return {
      issuer: e.issuer,
      ...(hasUri ? { jwksUri: e.jwks_uri as string } : { jwks: e.jwks as JSONWebKeySet }),
      userClaim: e.user_claim ?? 'sub',
    };
  });
}
