import { timingSafeEqual } from 'node:crypto';

/**
 * Whether two secrets are equal, in time that depends only on their lengths, so a caller cannot
 * find a secret byte by byte from how fast it is refused. Strings are compared as UTF-8.
 */
export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const x = typeof a === 'string' ? Buffer.from(a, 'utf8') : a;
  const y = typeof b === 'string' ? Buffer.from(b, 'utf8') : b;
  return x.length === y.length && timingSafeEqual(x, y);
}
