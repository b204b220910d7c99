import { randomHex } from './random.js';

/**
 * Random identifier for records (grants, JWT ids): 128 bits, hex, so that an id an operator copies
 * from one command into another can never be read as an option (base64url may start with '-').
 */
export function newId(): string {
  return randomHex(16);
}

const SEQUENCE_SPAN = 36 ** 3;
let lastMillis = 0;
let sequence = 0;

/**
 * Time-ordered ids, so that listing by id lists in creation order: milliseconds, a sequence within
 * the millisecond, and randomness against other processes. Monotonic within a process even if the
 * wall clock steps back or a millisecond sees more ids than the sequence holds.
 */
export function newRecordId(): string {
  let millis = Math.max(Date.now(), lastMillis);
  sequence = millis === lastMillis ? sequence + 1 : 0;
  if (sequence >= SEQUENCE_SPAN) {
    millis += 1;
    sequence = 0;
  }
  lastMillis = millis;
  return `${millis.toString(36).padStart(9, '0')}${sequence.toString(36).padStart(3, '0')}${randomHex(6)}`;
}
