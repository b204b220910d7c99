import { forgetPast, gcraStep, type RateCharge, type RateLimitStore } from '../rate-limits.js';

/**
 * The buckets in this process's memory, for the embedded SQLite store. At most `maxBuckets` are
 * kept: past that, buckets that are back to full are forgotten first (forgetting them changes
 * nothing), then the least recently charged.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #tats = new Map<string, number>();
  readonly #maxBuckets: number;

  constructor(maxBuckets = 100_000) {
    this.#maxBuckets = maxBuckets;
  }

  async consume(charges: readonly RateCharge[], nowMs: number): Promise<number[]> {
    return this.consumeAtOnce(charges, nowMs);
  }

  consumeAtOnce(charges: readonly RateCharge[], nowMs: number): number[] {
    const waits = charges.map(({ bucket, policy }) => {
      const step = gcraStep(this.#tats.get(bucket), nowMs, policy);
      if (step.allowed) {
        this.#tats.delete(bucket);
        this.#tats.set(bucket, step.tat);
      }
      return step.retryAfterMs;
    });
    // Down to 90% of the cap, so that a full map is swept once per many charges, not on each.
    if (this.#tats.size > this.#maxBuckets) forgetPast(this.#tats, nowMs, Math.floor(this.#maxBuckets * 0.9));
    return waits;
  }

  async peek(charges: readonly RateCharge[], nowMs: number): Promise<number[]> {
    return charges.map(({ bucket, policy }) => gcraStep(this.#tats.get(bucket), nowMs, policy).retryAfterMs);
  }

  async sweep(nowMs: number): Promise<void> {
    forgetPast(this.#tats, nowMs);
  }

  /** How many buckets are remembered (for tests). */
  get size(): number {
    return this.#tats.size;
  }
}
