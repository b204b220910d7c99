import { digestOf } from '../primitives/secrets.js';
import { randomCharacters } from '../primitives/random.js';

/**
 * Recovery codes: ten single-use codes shown once, when made; the store keeps their
 * SHA-256 digests only. Each is 12 characters of a 31-letter alphabet without look-alikes (59
 * bits), shown in groups of four; typed in any case, with or without dashes or spaces.
 */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const text = randomCharacters(ALPHABET, 12);
    return `${text.slice(0, 4)}-${text.slice(4, 8)}-${text.slice(8)}`;
  });
}

/** The canonical form of a typed code (lower case, no separators), or undefined when it cannot be one. */
export function canonicalRecoveryCode(typed: string): string | undefined {
  const text = typed.toLowerCase().replace(/[\s-]/g, '');
  return /^[a-z0-9]{12}$/.test(text) ? text : undefined;
}

/** The digest stored for a code (shown or typed). */
export function recoveryCodeDigest(code: string): string {
  return digestOf(canonicalRecoveryCode(code) ?? code);
}
