import { randomCharacters } from '../../primitives/random.js';

/**
 * RFC 8628 §6.1: consonants only, upper case — no digits or vowels to confuse (0/O, 1/I/L) and no
 * words spelt by accident; 20^8 ≈ 2^34.6 codes, enough with the guessing limits of the /device
 * page (§5.1). Shown as XXXX-XXXX.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const HALF = 4;

export function newUserCode(): string {
  const code = randomCharacters(USER_CODE_ALPHABET, HALF * 2);
  return `${code.slice(0, HALF)}-${code.slice(HALF)}`;
}

/**
 * The canonical form of a typed user code, or undefined when it cannot be one. Case, dashes and
 * spaces are ignored (RFC 8628 §6.1: "the server should ... be case-insensitive ... and ignore
 * punctuation").
 */
export function canonicalUserCode(typed: string): string | undefined {
  const letters = typed.toUpperCase().replace(/[\s-]+/g, '');
  if (letters.length !== HALF * 2 || [...letters].some((c) => !USER_CODE_ALPHABET.includes(c))) return undefined;
  return `${letters.slice(0, HALF)}-${letters.slice(HALF)}`;
}
