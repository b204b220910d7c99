/**
 * Rate limits: at most `limit` requests per `periodMs` for each bucket (one client, one address),
 * by the generic cell rate algorithm (GCRA). A bucket is one number, its theoretical arrival time
 * `tat`: each request moves it one emission interval `T = period / limit` later, from now or from
 * where it was, and a request is allowed while `tat` stays within one period of now. So a quiet
 * bucket allows a burst of `limit` requests, then one every `T`; and a refused request changes
 * nothing, so a client that keeps knocking while refused is not punished further.
 *
 * The arithmetic lives here once, in the store's contract, because the stores apply it: they only
 * keep `tat` per bucket, in this process's memory (`sqlite/rate-limit-store.ts`, one process) or in a
 * PostgreSQL table every process shares (`postgres/rate-limit-store.ts`). The policies and the
 * limiter that charges requests are in `abuse/`.
 *
 * @see https://en.wikipedia.org/wiki/Generic_cell_rate_algorithm
 */

export interface RatePolicy {
  readonly limit: number;
  readonly periodMs: number;
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
  /** `consume` answered synchronously, by a store whose buckets are in this process's memory; else absent. */
  consumeAtOnce?(charges: readonly RateCharge[], nowMs: number): number[];
}
