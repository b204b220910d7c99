import { randomBytes, randomInt } from 'node:crypto';

/**
 * Opaque credentials (refresh tokens, authorization codes, client secrets) are 256 random bits,
 * base64url. Being high-entropy, they are stored as a plain SHA-256 digest: a slow KDF adds nothing
 * against guessing 2^256 values, and a lookup by digest stays one indexed read.
 */
export function newOpaqueSecret(): string {
  return randomText(32, 'base64url');
}

/** `bytes` random bytes as hex, from the pool below. */
export function randomHex(bytes: number): string {
  return randomText(bytes, 'hex');
}

/** `length` characters drawn uniformly (no modulo bias) from `alphabet`, e.g. RFC 8628 §6.1 user codes. */
export function randomCharacters(alphabet: string, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[randomInt(alphabet.length)];
  return text;
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
