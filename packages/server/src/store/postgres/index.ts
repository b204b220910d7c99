import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { prepareSchema, type MigrationMode } from '../migrations.js';
import { createRepository } from '../repository.js';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';
import { createPool, DEFAULT_POOL_SETTINGS, withUnboundedStatements } from './pool.js';
import { postgresRateLimitStore } from './rate-limits.js';
import { runTransaction, withUnavailableMapped } from './retries.js';

export interface PostgresStoreOptions {
  /**
   * `postgres://user@host:port/database`; `?options=-c search_path=…` selects a schema. Several
   * hosts (`h1:5432,h2:5432`) with `target_session_attrs=read-write` follow a failover (./pool.ts).
   */
  readonly connectionString: string;
  /** Connections per process. */
  readonly poolSize?: number;
  readonly migrations?: MigrationMode;
}

// int8 (oid 20) comes back as a string by default; our bigints are epoch seconds, well inside 2^53.
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * The store on PostgreSQL, for several Gatehouse processes sharing one database. Transactions run
 * at READ COMMITTED with row locks (`SELECT … FOR UPDATE`): of concurrent exchanges of one token,
 * one takes the lock and the others, once it commits, read the row as it left it.
 */
export async function openPostgresStore({
  connectionString,
  poolSize = 10,
  migrations = 'apply',
}: PostgresStoreOptions): Promise<Store> {
  const pool = createPool(connectionString, { ...DEFAULT_POOL_SETTINGS, max: poolSize, types });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let appliedMigrations: string[];
  try {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    // Migrations, and waiting for another process's, may take longer than a request's statement timeout.
    appliedMigrations = await withUnboundedStatements(connectionString, (migrationDb) =>
      prepareSchema(migrationDb, migrations, rows[0]?.schema),
    );
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const repository = createRepository(db, { lockRows: false });
  return {
    dialect: 'postgres',
    appliedMigrations,
    ...withUnavailableMapped(repository),
    rateLimits: withUnavailableMapped(postgresRateLimitStore(db)),
    transaction: (work) =>
      runTransaction((committing) =>
        db.transaction().execute(async (trx) => {
          const result = await work(createRepository(trx, { lockRows: true }));
          committing();
          return result;
        }),
      ),
    async close() {
      await db.destroy();
    },
  };
}
