import { sql, type Kysely } from 'kysely';
import {
  ACCESS_EPOCH_TABLES,
  pendingMigrations,
  prepareSchema,
  type DialectSteps,
  type MigrationMode,
} from '../migrations.js';
import { ROW_EPOCH, ROW_EPOCH_TABLE } from '../row-cache.js';
import type { SqliteDatabase } from './open.js';

/** SQLite's parts of the shared migrations. */
const steps: DialectSteps = {
  // One process serves a SQLite file in the common case: its rate-limit buckets stay in memory.
  async createRateLimitsTable() {},
  async createRateLimitCharge() {},
  // Prepared once already (sqlite/hot-queries.ts): nothing is planned per call.
  async createTokenPathFunctions() {},
  // A clustered table keyed by the proof's id: one B-tree written per proof, where the rowid table
  // wrote three (its rows, the primary key's index, 0021's index on expires_at). The sweep reads the
  // table by ranges of ids instead of the expiry index (`dpop-sweep.ts`): it holds only the
  // proofs of the last two minutes or so.
  async reshapeDpopProofs(db) {
    await sql`create table dpop_proofs_0040 (id text primary key, expires_at bigint not null) without rowid`.execute(
      db,
    );
    await sql`insert into dpop_proofs_0040 (id, expires_at) select id, expires_at from dpop_proofs`.execute(db);
    await sql`drop table dpop_proofs`.execute(db);
    await sql`alter table dpop_proofs_0040 rename to dpop_proofs`.execute(db);
  },
  async hasTable(db, name) {
    const { rows } = await sql`select 1 from sqlite_master where type = 'table' and name = ${name}`.execute(db);
    return rows.length > 0;
  },
  async createRowEpochTriggers(db) {
    for (const [trigger, event] of ROW_EPOCH_TRIGGERS)
      await sql
        .raw(
          `create trigger ${trigger} after ${event} begin ` +
            `update ${ROW_EPOCH_TABLE} set epoch = epoch + 1 where name = '${ROW_EPOCH}'; end`,
        )
        .execute(db);
  },
  async createAccessEpochTriggers(db) {
    for (const table of ACCESS_EPOCH_TABLES)
      for (const [event, done] of [
        ['insert', 'inserted'],
        ['update', 'updated'],
        ['delete', 'deleted'],
      ])
        await sql
          .raw(
            `create trigger ${table}_${done}_epoch after ${event} on ${table} begin ` +
              `update ${ROW_EPOCH_TABLE} set epoch = epoch + 1 where name = '${ROW_EPOCH}'; end`,
          )
          .execute(db);
  },
};

/** 0026's triggers (name, event). */
export const ROW_EPOCH_TRIGGERS = [
  ['clients_updated_epoch', 'update on clients'],
  ['clients_deleted_epoch', 'delete on clients'],
  ['grants_liveness_updated_epoch', 'update of revoked_at, subject on grants'],
  ['grants_deleted_epoch', 'delete on grants'],
] as const;

/**
 * Runs the migrations inside one BEGIN IMMEDIATE transaction: SQLite's DDL is transactional, so the
 * migrations and their bookkeeping rows commit together or not at all (a crash mid-way leaves the
 * file as it was, and the next start migrates it), and the write lock, taken before the first read,
 * makes a second process starting on the same file wait (BusyWaitingDriver) and then find nothing
 * left to do.
 */
export async function migrateSqlite({ database, db }: SqliteDatabase, mode: MigrationMode): Promise<string[]> {
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const applied = await prepareSchema(connection as Kysely<unknown>, mode, steps);
      await sql`commit`.execute(connection);
      return applied;
    } catch (error) {
      // SQLite may have rolled back already (on some errors it ends the transaction itself).
      if (database.inTransaction) await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

/** The migrations the database lacks, read without taking any lock. */
export function pendingSqliteMigrations(db: Kysely<unknown>): Promise<string[]> {
  return pendingMigrations(db, steps);
}
