import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { prepareSchema, type MigrationMode } from '../migrations.js';
import { createRepository } from '../repository.js';
import type { Database } from '../schema.js';
import { StoreBusyError, type Store } from '../store.js';
import { postgresRateLimitStore } from './rate-limits.js';

export interface PostgresStoreOptions {
  /** `postgres://user@host:port/database`; `?options=-c search_path=…` selects a schema. */
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

/** How often a transaction that lost a serialization race or a deadlock is tried again. */
const ATTEMPTS = 5;
const RETRYABLE = new Set(['40001', '40P01']);
// Connection failures: the store is unreachable, which clients should see as transient.
const UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '53300']);

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
  const pool = new pg.Pool({ connectionString, max: poolSize, types });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let appliedMigrations: string[];
  try {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    appliedMigrations = await prepareSchema(db as Kysely<unknown>, migrations, rows[0]?.schema);
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
      withRetries(() => db.transaction().execute((trx) => work(createRepository(trx, { lockRows: true })))),
    async close() {
      await db.destroy();
    },
  };
}

async function withRetries<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (RETRYABLE.has(code) && attempt < ATTEMPTS) continue;
      if (RETRYABLE.has(code) || UNAVAILABLE.has(code)) throw new StoreBusyError({ cause: error });
      throw error;
    }
  }
}

/** Every repository method, with an unreachable database answered as StoreBusyError (503). */
function withUnavailableMapped<R extends object>(repository: R): R {
  const mapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(repository)) {
    mapped[name] = (...args: unknown[]) =>
      withRetries(() => (method as (...a: unknown[]) => Promise<unknown>)(...args));
  }
  return mapped as R;
}
