import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Opaque credentials (refresh tokens, authorization codes, client secrets) are 256 random bits,
 * base64url. Being high-entropy, they are stored as a plain SHA-256 digest: a slow KDF adds nothing
 * against guessing 2^256 values, and a lookup by digest stays one indexed read.
 */
export function newOpaqueSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Random identifier for records (grants, JWT ids): 128 bits, hex, so that an id an operator copies
 * from one command into another can never be read as an option (base64url may start with '-').
 */
export function newId(): string {
  return randomBytes(16).toString('hex');
}

/** SHA-256, hex: the only form in which opaque credentials are stored. */
export function digestOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored digest. */
export function secretMatchesDigest(secret: string, storedDigest: string): boolean {
  const presented = Buffer.from(digestOf(secret), 'hex');
  const stored = Buffer.from(storedDigest, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** SHA-256 then base64url, as PKCE S256 asks (RFC 7636 §4.2). */
export function s256(value: string): string {
  return createHash('sha256').update(value, 'ascii').digest('base64url');
}
