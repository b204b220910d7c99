import { sql, type Kysely } from 'kysely';
import { prepareSchema, type DialectSteps, type MigrationMode } from '../migrations.js';
import type { Database } from '../schema.js';

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
};

/**
 * Kysely's migrator makes the run atomic and safe to race here: it holds an advisory lock for the
 * run (a second process waits, then finds nothing left to do) and applies each migration in a
 * transaction with its bookkeeping row, PostgreSQL's DDL being transactional.
 */
export async function migratePostgres(db: Kysely<Database>, mode: MigrationMode): Promise<string[]> {
  // The migration tables live in the connection's schema (`search_path`), named explicitly.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return prepareSchema(db as Kysely<unknown>, mode, { steps, schema: rows[0]?.schema });
}
