import { sql, type Kysely } from 'kysely';
import { gcraStep, type RateCharge, type RateLimitStore } from '../rate-limits.js';
import type { Database } from '../schema.js';

/**
 * Rate-limit buckets in the `rate_limits` table, shared by every process on the database. A charge
 * is one statement for all its buckets: an upsert that moves a bucket's `tat` only where the GCRA
 * allows it (`store/rate-limits.ts`), under the row lock PostgreSQL takes for the upsert, so two
 * processes charging one bucket at once are counted one after the other.
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

  return {
    async consume(presented: readonly RateCharge[], nowMs: number): Promise<number[]> {
      if (presented.length === 0) return [];
      const charges = stored(presented);
      // Rows locked in one order, so two charges of the same buckets cannot deadlock.
      const ordered = [...charges].sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));
      const values = sql.join(
        ordered.map(
          ({ bucket, policy }) =>
            sql`(${bucket}, ${nowMs + policy.periodMs / policy.limit}::float8, ${policy.periodMs}::float8)`,
        ),
      );
      // excluded.tat is now + the bucket's emission interval: the next tat of a bucket at rest.
      const next = sql`greatest(r.tat, ${nowMs}::float8) + excluded.tat - ${nowMs}::float8`;
      const { rows } = await sql<{ bucket: string }>`
        insert into rate_limits as r (bucket, tat, period_ms) values ${values}
        on conflict (bucket) do update set tat = ${next}, period_ms = excluded.period_ms
        where ${next} - excluded.period_ms <= ${nowMs}::float8
        returning r.bucket`.execute(db);
      const allowed = new Set(rows.map((row) => row.bucket));
      const refused = charges.filter((charge) => !allowed.has(charge.bucket));
      const tats = await read(refused.map((charge) => charge.bucket));
      return charges.map((charge) => {
        if (allowed.has(charge.bucket)) return 0;
        // Refused a moment ago: at least a millisecond, even if the bucket has refilled since.
        return Math.max(1, gcraStep(tats.get(charge.bucket), nowMs, charge.policy).retryAfterMs);
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
