import { jwtVerify } from 'jose';
import type { KeyRing } from './keys.js';
import { signEs256Jwt } from './jwt.js';
import { newId } from './secrets.js';

/** The claims of a Gatehouse access token (RFC 9068 §2.2 plus the grant it belongs to). */
export interface AccessTokenClaims {
  readonly iss: string;
  readonly sub: string;
  readonly aud: string;
  readonly client_id: string;
  readonly scope: string;
  readonly jti: string;
  readonly iat: number;
  readonly exp: number;
  /** Absent for client_credentials, which has no grant to revoke. */
  readonly grant_id?: string;
}

export interface MintRequest {
  readonly subject: string;
  readonly clientId: string;
  readonly scope: readonly string[];
  readonly grantId: string | null;
  readonly ttl: number;
  readonly now: number;
}

/** Signs access tokens as RFC 9068 JWTs and verifies them. The audience is the issuer's own API. */
export class AccessTokens {
  readonly #issuer: string;
  readonly #keys: KeyRing;

  constructor(issuer: string, keys: KeyRing) {
    this.#issuer = issuer;
    this.#keys = keys;
  }

  mint({ subject, clientId, scope, grantId, ttl, now }: MintRequest): string {
    const claims: AccessTokenClaims = {
      iss: this.#issuer, sub: subject, aud: this.#issuer, client_id: clientId, scope: scope.join(' '),
      jti: newId(), iat: now, exp: now + ttl, ...(grantId === null ? {} : { grant_id: grantId }),
    };
    // RFC 9068 §2.1: typ "at+jwt" keeps access tokens from being confused with other JWTs.
    return signEs256Jwt({ alg: 'ES256', typ: 'at+jwt', kid: this.#keys.signingKey.kid }, claims, this.#keys.signingKey.key);
  }

  /** The claims of a token this server signed and that has not expired at `now`; undefined otherwise. */
  async verify(token: string, now: number): Promise<AccessTokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#keys.verificationKeys, {
        issuer: this.#issuer, audience: this.#issuer, typ: 'at+jwt', algorithms: ['ES256'],
        currentDate: new Date(now * 1000), requiredClaims: ['sub', 'client_id', 'scope', 'jti', 'iat', 'exp'],
      });
      return payload as unknown as AccessTokenClaims;
    } catch {
      return undefined;
    }
  }
}
