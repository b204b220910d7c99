import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Server-provided DPoP nonces (RFC 9449 §8, §9) without state, for the server and the kit: the nonce
 * of a time slot is the HMAC of the slot's number under a key, so every process holding the key
 * gives and accepts the same nonces and nothing is stored or shared at run time. A nonce is given
 * during its slot and accepted during that slot and the next (§8.2: the server decides how long a
 * nonce lasts).
 */
export class SlotNonces {
  readonly #key: Buffer;
  readonly #slotSeconds: number;
  /** What the HMAC covers before the slot's number: tells one use of a key from another. */
  readonly #label: string;
  #slot = -1;
  #nonce = '';

  constructor(key: Buffer, slotSeconds: number, label: string) {
    this.#key = key;
    this.#slotSeconds = slotSeconds;
    this.#label = label;
  }

  /** The nonce to give now (the `DPoP-Nonce` header), computed once per slot. */
  current(now: number): string {
    const slot = Math.floor(now / this.#slotSeconds);
    if (slot !== this.#slot) {
      this.#nonce = this.#of(slot);
      this.#slot = slot;
    }
    return this.#nonce;
  }

  /** Whether a proof's nonce is this slot's or the previous one's (§4.3 step 10), compared in constant time. */
  accepts(nonce: string | undefined, now: number): boolean {
    if (nonce === undefined) return false;
    const slot = Math.floor(now / this.#slotSeconds);
    return sameText(nonce, this.current(now)) || sameText(nonce, this.#of(slot - 1));
  }

  #of(slot: number): string {
    return createHmac('sha256', this.#key).update(`${this.#label}${slot}`).digest('base64url').slice(0, 32);
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
