import { randomBytes } from 'node:crypto';
import { SlotNonces } from '@gatehouse/contract/node';

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
 * Server-provided nonces (RFC 9449 §8, §9) without state (SlotNonces: the HMAC of a time slot under
 * the secret), so any node holding the secret computes the same ones. A client meets
 * `use_dpop_nonce` at most once per nonce, since a successful answer hands on the new one once the
 * slot moves on.
 */
export class DpopNonces extends SlotNonces {
  constructor(options: DpopNonceOptions) {
    const { secret, ttlSeconds = DEFAULT_TTL_SECONDS } = options;
    const key = secret === undefined ? randomBytes(MIN_SECRET_BYTES) : Buffer.from(secret);
    if (key.length < MIN_SECRET_BYTES)
      throw new TypeError(
        `dpop.nonce.secret must be at least ${MIN_SECRET_BYTES} bytes (e.g. openssl rand -base64 32)`,
      );
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1)
      throw new TypeError('dpop.nonce.ttlSeconds must be a whole number of seconds, at least 1');
    super(key, ttlSeconds, 'gatehouse-resource-server/dpop-nonce/');
  }
}
