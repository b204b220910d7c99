import { sql, type Kysely } from 'kysely';
import { gcraStep, type RateCharge, type RateLimitStore } from '../rate-limits.js';
import type { Database } from '../schema.js';
import { RATE_LIMIT_CHARGE_FUNCTION } from './migrations.js';

/** The charges of one `consume`, waiting for its event-loop turn's statement. */
interface Waiting {
  readonly charges: readonly RateCharge[];
  readonly resolve: (waits: number[]) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Rate-limit buckets in the `rate_limits` table, shared by every process on the database. The
 * charges of every request of one event-loop turn go to the database together (setImmediate), as
 * one statement: a function (migration 0032) that takes each bucket's row lock, in bucket order so
 * that two charges cannot deadlock, and applies the GCRA (`store/rate-limits.ts`, gcraStep) to its
 * requests one after another, in the order they asked. Two processes charging one bucket at once
 * are counted one after the other; a turn's requests cost one round trip, not one each.
 *
 * The charge's commit is not waited for on disk: `rate_limits` is unlogged, so the transaction
 * writes no WAL and PostgreSQL does not flush its commit record (as `synchronous_commit = off`
 * would; `pg_stat_wal.wal_sync` counted 2 flushes for 500 charges, 2026-11-30). A crash loses the
 * table's rows, and with them charges: for a rate limit that only forgives.
 */
export function postgresRateLimitStore(db: Kysely<Database>): RateLimitStore {
  // A bucket named after a presented client id or username may hold U+0000, which PostgreSQL text
  // cannot: it is stored as U+FFFD, on every query alike (see ./nul-bytes.ts).
  const stored = (charges: readonly RateCharge[]): RateCharge[] =>
    charges.map((charge) =>
      charge.bucket.includes('\u0000') ? { ...charge, bucket: charge.bucket.replaceAll('\u0000', '\uFFFD') } : charge,
    );

  async function read(buckets: readonly string[]): Promise<Map<string, number>> {
    if (buckets.length === 0) return new Map();
    const rows = await db.selectFrom('rate_limits').select(['bucket', 'tat']).where('bucket', 'in', buckets).execute();
    return new Map(rows.map((row) => [row.bucket, row.tat]));
  }

  let turn: Waiting[] = [];
  let turnNow = 0;

  /** Charges every request of the turn in one statement, and answers each its waits. */
  async function chargeTurn(): Promise<void> {
    const waiting = turn;
    const nowMs = turnNow;
    turn = [];
    // Per bucket (in bucket order): its policy and how many of the turn's requests charge it.
    const buckets = new Map<string, { policy: RateCharge['policy']; count: number }>();
    for (const { charges } of waiting)
      for (const { bucket, policy } of charges) {
        const entry = buckets.get(bucket);
        if (entry) entry.count += 1;
        else buckets.set(bucket, { policy, count: 1 });
      }
    const names = [...buckets.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const of = (name: string) => buckets.get(name) as { policy: RateCharge['policy']; count: number };
    try {
      const { rows } = await sql<{ o_bucket: string; o_allowed: number; o_tat: number }>`
        select o_bucket, o_allowed, o_tat from ${sql.raw(RATE_LIMIT_CHARGE_FUNCTION)}(
          ${names}::text[], ${names.map((n) => of(n).count)}::integer[],
          ${names.map((n) => of(n).policy.periodMs / of(n).policy.limit)}::float8[],
          ${names.map((n) => of(n).policy.periodMs)}::float8[], ${nowMs}::float8)`.execute(db);
      // A bucket's first `o_allowed` requests, in the order they asked, are allowed; the rest wait.
      const left = new Map(rows.map((row) => [row.o_bucket, { allowed: row.o_allowed, tat: row.o_tat }]));
      for (const { charges, resolve } of waiting)
        resolve(
          charges.map(({ bucket, policy }) => {
            const outcome = left.get(bucket);
            if (outcome === undefined) throw new Error(`no charge answered for ${bucket}`);
            if (outcome.allowed > 0) {
              outcome.allowed -= 1;
              return 0;
            }
            // Refused a moment ago: at least a millisecond, even if the bucket has refilled since.
            return Math.max(1, gcraStep(outcome.tat, nowMs, policy).retryAfterMs);
          }),
        );
    } catch (error) {
      for (const { reject } of waiting) reject(error);
    }
  }

  return {
    consume(presented: readonly RateCharge[], nowMs: number): Promise<number[]> {
      if (presented.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        if (turn.length === 0) {
          setImmediate(() => void chargeTurn());
          turnNow = nowMs;
        }
        turn.push({ charges: stored(presented), resolve, reject });
        // The turn's requests arrived within it: charged at the latest of their times.
        turnNow = Math.max(turnNow, nowMs);
      });
    },

    async peek(presented: readonly RateCharge[], nowMs: number): Promise<number[]> {
      const charges = stored(presented);
      const tats = await read(charges.map((charge) => charge.bucket));
      return charges.map((charge) => gcraStep(tats.get(charge.bucket), nowMs, charge.policy).retryAfterMs);
    },

    async sweep(nowMs: number): Promise<void> {
      await db.deleteFrom('rate_limits').where('tat', '<=', nowMs).execute();
    },
  };
}
