import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteDriver, SqliteIntrospector, SqliteQueryCompiler, type Dialect } from 'kysely';
import type { Database } from '../schema.js';
import { BusyWaitingDriver } from './busy-waiting-driver.js';
import { waitOutBusy } from './errors.js';

/** The SQLite file, both as better-sqlite3 (for statements prepared once) and as Kysely, on one connection. */
export interface SqliteDatabase {
  readonly database: BetterSqlite3.Database;
  readonly db: Kysely<Database>;
}

/**
 * Opens the file in WAL mode with `synchronous=FULL`, so a commit is on disk before the transaction
 * resolves and so before any response that depends on it is sent.
 */
export async function openSqliteDatabase(filename: string, busyTimeoutMs: number): Promise<SqliteDatabase> {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const database = new BetterSqlite3(filename);
  // Lock waits happen in BusyWaitingDriver, asynchronously, never inside SQLite.
  database.pragma('busy_timeout = 0');
  try {
    // Switching a new file to WAL takes its lock: processes starting together on one file wait their turn.
    await waitOutBusy(() => database.pragma('journal_mode = WAL'), busyTimeoutMs);
  } catch (error) {
    database.close();
    throw error;
  }
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: busyWaitingDialect(database, busyTimeoutMs) });
  return { database, db };
}

function busyWaitingDialect(database: BetterSqlite3.Database, budgetMs: number): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new BusyWaitingDriver(new SqliteDriver({ database }), budgetMs),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
