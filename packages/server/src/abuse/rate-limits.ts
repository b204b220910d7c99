/**
 * Rate limits: at most `limit` requests per `periodMs` for each bucket (one client, one address),
 * by the generic cell rate algorithm (GCRA). A bucket is one number, its theoretical arrival time
 * `tat`: each request moves it one emission interval `T = period / limit` later, from now or from
 * where it was, and a request is allowed while `tat` stays within one period of now. So a quiet
 * bucket allows a burst of `limit` requests, then one every `T`; and a refused request changes
 * nothing, so a client that keeps knocking while refused is not punished further.
 *
 * The arithmetic lives here once; the stores only keep `tat` per bucket: in this process's memory
 * (SQLite, one process) or in a PostgreSQL table every process shares.
 *
 * @see https://en.wikipedia.org/wiki/Generic_cell_rate_algorithm
 */

export interface RatePolicy {
  readonly limit: number;
  readonly periodMs: number;
}

const UNITS = { s: 1000, min: 60_000, h: 3_600_000 } as const;

/** `limit` requests per second, minute or hour. */
export function per(limit: number, unit: keyof typeof UNITS): RatePolicy {
  return { limit, periodMs: UNITS[unit] };
}

/** `<count>/<s|min|h>` (e.g. `1200/min`), or `off`. */
export function parseRatePolicy(text: string): RatePolicy | null {
  const value = text.trim();
  if (value === 'off') return null;
  const match = /^([1-9]\d{0,8})\/(s|min|h)$/.exec(value);
  if (!match) throw new Error(`a rate limit is <count>/<s|min|h> (e.g. 1200/min) or off, got ${JSON.stringify(text)}`);
  return per(Number(match[1]), match[2] as keyof typeof UNITS);
}

/** One bucket to charge one request to. */
export interface RateCharge {
  /** e.g. `token:client:demo`, `login:address:192.0.2.1`. */
  readonly bucket: string;
  readonly policy: RatePolicy;
}

/** The outcome of one charge: allowed, or refused with how long until it would be allowed. */
interface GcraStep {
  readonly allowed: boolean;
  /** The bucket's new `tat` (unchanged when refused). */
  readonly tat: number;
  /** Milliseconds until a request would be allowed; 0 when allowed. */
  readonly retryAfterMs: number;
}

/** One GCRA step for a bucket whose `tat` is `tat` (undefined: never seen, or forgotten). */
export function gcraStep(tat: number | undefined, nowMs: number, { limit, periodMs }: RatePolicy): GcraStep {
  const interval = periodMs / limit;
  const next = Math.max(tat ?? nowMs, nowMs) + interval;
  const allowedAt = next - periodMs;
  if (allowedAt <= nowMs) return { allowed: true, tat: next, retryAfterMs: 0 };
  return { allowed: false, tat: tat ?? nowMs, retryAfterMs: allowedAt - nowMs };
}

/**
 * Keeps a map of times (a bucket's `tat`, a refusal's end) small: entries already past are dropped
 * (they mean nothing any more), then the oldest-inserted, down to `keepAtMost`.
 */
export function forgetPast(times: Map<string, number>, nowMs: number, keepAtMost = Number.POSITIVE_INFINITY): void {
  for (const [key, time] of times) if (time <= nowMs) times.delete(key);
  for (const key of times.keys()) {
    if (times.size <= keepAtMost) break;
    times.delete(key);
  }
}

/** Where the buckets live. `consume` charges every bucket it is given, each on its own. */
export interface RateLimitStore {
  /** Per charge, 0 when allowed, else the milliseconds to wait; every allowed charge is counted. */
  consume(charges: readonly RateCharge[], nowMs: number): Promise<number[]>;
  /** Per charge, what `consume` would answer, without counting anything. */
  peek(charges: readonly RateCharge[], nowMs: number): Promise<number[]>;
  /** Forgets buckets that are back to full (their `tat` is past): they answer as a new bucket would. */
  sweep(nowMs: number): Promise<void>;
}

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
