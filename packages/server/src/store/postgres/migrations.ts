import { sql, type Kysely } from 'kysely';
import {
  ACCESS_EPOCH_TABLES,
  pendingMigrations,
  prepareSchema,
  type DialectSteps,
  type MigrationMode,
} from '../migrations.js';
import { ROW_EPOCH, ROW_EPOCH_TABLE } from '../row-cache.js';
import { createTokenPathFunctions } from './token-path-functions.js';

/** 0032's function: the rate-limit charges of many requests in one statement. */
export const RATE_LIMIT_CHARGE_FUNCTION = 'rate_limits_charge';

/** 0026's function and triggers (name, event). */
export const ROW_EPOCH_FUNCTION = 'row_epoch_advance';
export const POSTGRES_ROW_EPOCH_TRIGGERS = [
  ['clients_changed_epoch', 'update or delete on clients'],
  ['grants_liveness_changed_epoch', 'update of revoked_at, subject or delete on grants'],
] as const;

/** PostgreSQL's parts of the shared migrations. */
const steps: DialectSteps = {
  async createRateLimitsTable(db) {
    // Rate limits are shared between processes here. Unlogged: no WAL for counters that may be
    // lost. No index on `tat`: each charge rewrites it, and an unindexed column keeps that a
    // heap-only update.
    await db.schema
      .createTable('rate_limits')
      .modifyFront(sql`unlogged`)
      .addColumn('bucket', 'text', (c) => c.primaryKey())
      .addColumn('tat', 'double precision', (c) => c.notNull())
      .addColumn('period_ms', 'double precision', (c) => c.notNull())
      .execute();
  },
  // Statement triggers; the function keeps the schema it was made in, whatever the caller's search_path.
  async createRowEpochTriggers(db) {
    await sql
      .raw(
        `create function ${ROW_EPOCH_FUNCTION}() returns trigger language plpgsql set search_path from current as $$ ` +
          `begin update ${ROW_EPOCH_TABLE} set epoch = epoch + 1 where name = '${ROW_EPOCH}'; return null; end $$`,
      )
      .execute(db);
    for (const [trigger, event] of POSTGRES_ROW_EPOCH_TRIGGERS)
      await sql
        .raw(`create trigger ${trigger} after ${event} for each statement execute function ${ROW_EPOCH_FUNCTION}()`)
        .execute(db);
  },
  // Statement triggers, as 0026's: one advance per statement, whatever the rows it changed.
  async createAccessEpochTriggers(db) {
    for (const table of ACCESS_EPOCH_TABLES)
      await sql
        .raw(
          `create trigger ${table}_changed_epoch after insert or update or delete on ${table} ` +
            `for each statement execute function ${ROW_EPOCH_FUNCTION}()`,
        )
        .execute(db);
  },
  // GCRA (../rate-limits.ts, gcraStep) for each bucket, its requests one after another, buckets
  // locked in the order given (sorted by the caller, so that two charges cannot deadlock).
  async createRateLimitCharge(db) {
    await sql
      .raw(
        `create function ${RATE_LIMIT_CHARGE_FUNCTION}(p_buckets text[], p_counts integer[], p_intervals float8[], p_periods float8[], p_now float8)
  returns table (o_bucket text, o_allowed integer, o_tat float8)
  language plpgsql set search_path from current as $$
declare
  i integer;
  j integer;
  current_tat float8;
  next_tat float8;
  granted integer;
begin
  for i in 1 .. coalesce(array_length(p_buckets, 1), 0) loop
    insert into rate_limits as r (bucket, tat, period_ms) values (p_buckets[i], p_now, p_periods[i])
      on conflict (bucket) do nothing;
    select r.tat into current_tat from rate_limits r where r.bucket = p_buckets[i] for update;
    granted := 0;
    for j in 1 .. p_counts[i] loop
      next_tat := greatest(current_tat, p_now) + p_intervals[i];
      exit when next_tat - p_periods[i] > p_now;
      current_tat := next_tat;
      granted := granted + 1;
    end loop;
    if granted > 0 then
      update rate_limits r set tat = current_tat, period_ms = p_periods[i] where r.bucket = p_buckets[i];
    end if;
    o_bucket := p_buckets[i];
    o_allowed := granted;
    o_tat := current_tat;
    return next;
  end loop;
end $$`,
      )
      .execute(db);
  },
  createTokenPathFunctions,
  // 0021's shape stays: PostgreSQL keeps rows in a heap whatever the keys, the primary key decides a
  // replay across processes, and the index on expires_at takes each proof at its right edge (the
  // expiry grows with time) and lets the sweep, one statement, read only what has expired.
  async reshapeDpopProofs() {},
  async hasTable(db, name) {
    // Resolved by the connection's search_path: the store's schema.
    const { rows } = await sql<{ found: boolean }>`select to_regclass(${name}) is not null as found`.execute(db);
    return rows[0]?.found === true;
  },
};

/**
 * The advisory lock Kysely's migrator takes (earlier versions migrated with it), so that a process of
 * an earlier version and one of this version never migrate one database at once.
 */
const MIGRATION_LOCK = '3853314791062309107';

/**
 * Runs the migrations in one transaction that first takes the migration lock: PostgreSQL's DDL is
 * transactional, so the migrations and their bookkeeping rows commit together or not at all, and a
 * second process starting meanwhile waits for the lock and then finds nothing to do.
 */
export async function migratePostgres(db: Kysely<unknown>, mode: MigrationMode): Promise<string[]> {
  const { rows } = await sql<{ server_version_num: string }>`show server_version_num`.execute(db);
  requireSupportedVersion(Number(rows[0]?.server_version_num));
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK}::bigint)`.execute(trx);
    return prepareSchema(trx, mode, steps);
  });
}

/** The oldest PostgreSQL the store runs on: 13, for `pg_current_xact_id` and `pg_xact_status` (./in-doubt.ts). */
export const MIN_SERVER_VERSION_NUM = 130000;

/** Refuses, with a message that says so, a PostgreSQL older than MIN_SERVER_VERSION_NUM (`server_version_num`). */
export function requireSupportedVersion(versionNum: number): void {
  if (!(versionNum >= MIN_SERVER_VERSION_NUM))
    throw new Error(
      `Gatehouse needs PostgreSQL 13 or later; this server is version ${Number.isFinite(versionNum) ? Math.floor(versionNum / 10000) : 'unknown'}`,
    );
}

/** The migrations the database lacks, read without taking any lock. */
export function pendingPostgresMigrations(db: Kysely<unknown>): Promise<string[]> {
  return pendingMigrations(db, steps);
}
