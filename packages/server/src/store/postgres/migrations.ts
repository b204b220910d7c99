import { sql, type Kysely } from 'kysely';
import { pendingMigrations, prepareSchema, type DialectSteps, type MigrationMode } from '../migrations.js';

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
  // Every process reads clients and grants from the database on each request here: nothing to advance.
  async createRowEpoch() {},
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
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK}::bigint)`.execute(trx);
    return prepareSchema(trx, mode, steps);
  });
}

/** The migrations the database lacks, read without taking any lock. */
export function pendingPostgresMigrations(db: Kysely<unknown>): Promise<string[]> {
  return pendingMigrations(db, steps);
}
