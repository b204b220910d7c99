import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { SigningKeyRecord } from '../store/records.js';
import type { Repository } from '../store/repository.js';

/** The keys access tokens are signed and verified with, kept in the store so every node shares them. */
export interface KeyRing {
  readonly signingKey: { readonly kid: string; readonly key: KeyObject };
  /** The public keys served at /jwks: the signing key and every key not yet retired. */
  readonly jwks: JSONWebKeySet;
  readonly verificationKeys: JWTVerifyGetKey;
}

/** Loads the newest active key, creating the first one if the store has none. */
export async function loadKeyRing(store: Repository, now: number): Promise<KeyRing> {
  let keys = (await store.listSigningKeys()).filter((k) => k.retiredAt === null);
  if (keys.length === 0) {
    // Two processes starting together may both generate a key; insertSigningKey keeps both and
    // every process signs with the newest one it reads, verifying with all.
    await store.insertSigningKey(generateSigningKey(now));
    keys = (await store.listSigningKeys()).filter((k) => k.retiredAt === null);
  }
  const newest = keys[0];
  if (!newest) throw new Error('no signing key could be loaded');
  const jwks: JSONWebKeySet = { keys: keys.map((k) => ({ ...k.publicJwk, kid: k.kid, alg: k.alg, use: 'sig' })) as JSONWebKeySet['keys'] };
  return {
    signingKey: { kid: newest.kid, key: createPrivateKey({ key: newest.privateJwk as import('node:crypto').JsonWebKey, format: 'jwk' }) },
    jwks,
    verificationKeys: createLocalJWKSet(jwks),
  };
}

export function generateSigningKey(now: number): SigningKeyRecord {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicJwk = publicKey.export({ format: 'jwk' });
  return {
    kid: jwkThumbprint(publicJwk), alg: 'ES256',
    privateJwk: privateKey.export({ format: 'jwk' }) as JsonWebKey, publicJwk: publicJwk as JsonWebKey,
    createdAt: now, retiredAt: null,
  };
}

/** RFC 7638 thumbprint of an EC public key: the required members in lexicographic order. */
function jwkThumbprint(jwk: { crv?: string; kty?: string; x?: string; y?: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}
