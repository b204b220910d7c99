import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/** A DPoP key of a test client: its key pair, public JWK and RFC 7638 thumbprint. */
export interface DpopKey {
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
  readonly jkt: string;
  /** A proof (RFC 9449 §4.2) for `htm` and `htu`; `iat` is the server's clock's, given by the test. */
  proof(claims: ProofClaims, header?: Record<string, unknown>): Promise<string>;
}

export interface ProofClaims {
  readonly htm: string;
  readonly htu: string;
  readonly iat: number;
  readonly jti?: string;
  readonly nonce?: string;
  /** The access token whose hash `ath` is (RFC 9449 §4.2). */
  readonly accessToken?: string;
}

export async function dpopKey(alg: 'ES256' | 'EdDSA' | 'PS256' = 'ES256'): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  const jkt = await calculateJwkThumbprint(jwk, 'sha256');
  return {
    privateKey,
    jwk,
    jkt,
    proof: ({ htm, htu, iat, jti = randomUUID(), nonce, accessToken }, header = {}) =>
      new SignJWT({
        htm,
        htu,
        jti,
        ...(nonce === undefined ? {} : { nonce }),
        ...(accessToken === undefined ? {} : { ath: accessTokenHash(accessToken) }),
      })
        .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk, ...header })
        .setIssuedAt(iat)
        .sign(privateKey),
  };
}

export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
