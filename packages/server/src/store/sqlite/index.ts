import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { migrateToLatest } from '../migrations.js';
import { createRepository } from '../repository.js';
import type { Database } from '../schema.js';
import { StoreBusyError, type Store } from '../store.js';

export interface SqliteStoreOptions {
  /** A file path, or `:memory:`. */
  readonly filename: string;
  /** How long a writer waits for another process's lock before giving up with a 503, ms. */
  readonly busyTimeoutMs?: number;
}

/**
 * The embedded store: one SQLite file in WAL mode with `synchronous=FULL`, so a commit is on disk
 * before the transaction resolves and so before any response that depends on it is sent.
 */
export async function openSqliteStore({ filename, busyTimeoutMs = 5000 }: SqliteStoreOptions): Promise<Store> {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const database = new BetterSqlite3(filename);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  await migrateToLatest(db as Kysely<unknown>);

  return {
    dialect: 'sqlite',
    ...createRepository(db, { lockRows: false }),
    // BEGIN IMMEDIATE takes the write lock before the first read, so two transactions (in this
    // process or another one on the same file) never both read a token as unused.
    async transaction(work) {
      return db.connection().execute(async (conn) => {
        await runBusyAware(() => sql`begin immediate`.execute(conn));
        try {
          const result = await work(createRepository(conn, { lockRows: false }));
          await runBusyAware(() => sql`commit`.execute(conn));
          return result;
        } catch (error) {
          if (database.inTransaction) await sql`rollback`.execute(conn);
          throw error;
        }
      });
    },
    async close() {
      await db.destroy();
    },
  };
}

async function runBusyAware<T>(statement: () => Promise<T>): Promise<T> {
  try {
    return await statement();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') throw new StoreBusyError({ cause: error });
    throw error;
  }
}
