import { createHash } from 'node:crypto';
import { constantTimeEqual } from './constant-time.js';

/** SHA-256, hex: the only form in which opaque credentials are stored. */
export function digestOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored digest. */
export function secretMatchesDigest(secret: string, storedDigest: string): boolean {
  return constantTimeEqual(Buffer.from(digestOf(secret), 'hex'), Buffer.from(storedDigest, 'hex'));
}

/** SHA-256 then base64url, as PKCE S256 asks (RFC 7636 §4.2). */
export function s256(value: string): string {
  return createHash('sha256').update(value, 'ascii').digest('base64url');
}
