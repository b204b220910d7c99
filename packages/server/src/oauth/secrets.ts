import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Opaque credentials (refresh tokens, authorization codes, client secrets) are 256 random bits,
 * base64url. Being high-entropy, they are stored as a plain SHA-256 digest: a slow KDF adds nothing
 * against guessing 2^256 values, and a lookup by digest stays one indexed read.
 */
export function newOpaqueSecret(): string {
  return randomText(32, 'base64url');
}

/**
 * Random identifier for records (grants, JWT ids): 128 bits, hex, so that an id an operator copies
 * from one command into another can never be read as an option (base64url may start with '-').
 */
export function newId(): string {
  return randomText(16, 'hex');
}

/** `bytes` random bytes as hex, from the pool below. */
export function randomHex(bytes: number): string {
  return randomText(bytes, 'hex');
}

// A call to the CSPRNG costs several microseconds whatever its size, twice per token response; so
// random bytes are drawn 4 KiB at a time (as node:crypto's randomUUID does) and handed out once
// each. What was handed out is zeroed, so the pool never holds a value already in use.
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function randomText(bytes: number, encoding: 'base64url' | 'hex'): string {
  if (poolOffset + bytes > pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const chunk = pool.subarray(poolOffset, (poolOffset += bytes));
  const text = chunk.toString(encoding);
  chunk.fill(0);
  return text;
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
