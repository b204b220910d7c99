import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface DpopNonceOptions {
  /**
   * The key nonces are derived from, at least 32 bytes (a string counts as its UTF-8 bytes, e.g. from
   * `openssl rand -base64 32`). Give every node of the API the same one, and each accepts the
   * nonces the others give. Default: random, made at start, so this process's nonces only.
   */
  readonly secret?: string | Uint8Array;
  /** How long one nonce is given out, in seconds (default 300); it is accepted for that time and as long again. */
  readonly ttlSeconds?: number;
}

const DEFAULT_TTL_SECONDS = 300;
const MIN_SECRET_BYTES = 32;

/**
 * Server-provided nonces (RFC 9449 §8, §9) without state: the nonce of a time slot is the HMAC of the
 * slot's number under the secret, so any node holding the secret computes the same one and nothing is
 * stored or shared at run time. A proof's nonce is accepted during its slot and the next one (§8.2:
 * the server decides how long a nonce lasts); a client meets `use_dpop_nonce` at most once per
 * grant of a nonce, since each successful answer hands on the new one once the slot moves on.
 */
export class DpopNonces {
  readonly #key: Buffer;
  readonly #ttl: number;
  #slot = -1;
  #nonce = '';

  constructor(options: DpopNonceOptions) {
    const { secret, ttlSeconds = DEFAULT_TTL_SECONDS } = options;
    this.#key = secret === undefined ? randomBytes(MIN_SECRET_BYTES) : Buffer.from(secret);
    if (this.#key.length < MIN_SECRET_BYTES)
      throw new TypeError(
        `dpop.nonce.secret must be at least ${MIN_SECRET_BYTES} bytes (e.g. openssl rand -base64 32)`,
      );
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1)
      throw new TypeError('dpop.nonce.ttlSeconds must be a whole number of seconds, at least 1');
    this.#ttl = ttlSeconds;
  }

  /** The nonce to give now (`DPoP-Nonce`), computed once per slot. */
  current(now: number): string {
    const slot = Math.floor(now / this.#ttl);
    if (slot !== this.#slot) {
      this.#nonce = this.#of(slot);
      this.#slot = slot;
    }
    return this.#nonce;
  }

  /** Whether a proof's nonce is this slot's or the previous one's (§4.3 step 10). */
  accepts(nonce: string | undefined, now: number): boolean {
    if (nonce === undefined) return false;
    return sameText(nonce, this.current(now)) || sameText(nonce, this.#of(Math.floor(now / this.#ttl) - 1));
  }

  #of(slot: number): string {
    return createHmac('sha256', this.#key)
      .update(`gatehouse-resource-server/dpop-nonce/${slot}`)
      .digest('base64url')
      .slice(0, 32);
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
