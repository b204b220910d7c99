import { sql, type Kysely } from 'kysely';
import type { AdminRepository } from '../admin-repository.js';
import type { Database } from '../schema.js';

/**
 * Past this many rows (the planner's `reltuples`), users and live grants are counted from
 * PostgreSQL's statistics rather than row by row: `count(*)` reads every row (MVCC keeps no count),
 * about 40 ms at 100,000 on a loaded 2-core machine, on every dashboard read (docs/performance.md).
 */
export const ESTIMATED_FROM_ROWS = 10_000;

type Counts = Awaited<ReturnType<AdminRepository['countOverview']>>;

/**
 * The dashboard's counts on PostgreSQL: exact below ESTIMATED_FROM_ROWS, above it the users from
 * `pg_class.reltuples` and the live grants from the planner's estimate of the counting query, both
 * as fresh as autovacuum's last ANALYZE, and said to be approximate. Clients are always counted.
 */
export function postgresOverviewCounts(db: Kysely<Database>): Pick<AdminRepository, 'countOverview'> {
  return {
    async countOverview(now): Promise<Counts> {
      const sizes = await sql<{ relname: string; reltuples: number }>`
        select relname, reltuples from pg_class where oid in (to_regclass('users'), to_regclass('grants'))`.execute(db);
      const size = (table: string): number => sizes.rows.find((r) => r.relname === table)?.reltuples ?? -1;
      // reltuples is -1 until the table's first ANALYZE: counted then.
      const estimateUsers = size('users') >= ESTIMATED_FROM_ROWS;
      const estimateGrants = size('grants') >= ESTIMATED_FROM_ROWS;
      const [users, clients, liveGrants] = await Promise.all([
        estimateUsers ? Math.round(size('users')) : countAll(db, 'users'),
        countAll(db, 'clients'),
        estimateGrants ? plannedLiveGrants(db, now) : countLiveGrants(db, now),
      ]);
      return { users, clients, liveGrants, approximate: estimateUsers || estimateGrants };
    },
  };
}

async function countAll(db: Kysely<Database>, table: 'users' | 'clients'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function countLiveGrants(db: Kysely<Database>, now: number): Promise<number> {
  const row = await db
    .selectFrom('grants')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The rows the planner expects the live-grants count to read: an estimate, planned, never run. */
async function plannedLiveGrants(db: Kysely<Database>, now: number): Promise<number> {
  const plan = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`
    explain (format json) select 1 from grants where revoked_at is null and expires_at > ${sql.lit(Math.floor(now))}`.execute(
    db,
  );
  return Math.round(plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
}
