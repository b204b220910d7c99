import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteDriver, SqliteIntrospector, SqliteQueryCompiler, type Dialect } from 'kysely';
import type { Database } from '../schema.js';
import { BusyWaitingDriver, type WriteNotices } from './busy-waiting-driver.js';
import { waitOutBusy } from './errors.js';
import { TurnReadTransaction } from './turn-read-transaction.js';

/** The SQLite file, both as better-sqlite3 (for statements prepared once) and as Kysely, on one connection. */
export interface SqliteDatabase {
  readonly database: BetterSqlite3.Database;
  readonly db: Kysely<Database>;
  /** Told after each Kysely statement that may have written; set `wrote` to listen. */
  readonly writes: WriteNotices;
  /** The turn's read transaction on the connection, which the Kysely driver ends before any write. */
  readonly reads: TurnReadTransaction;
}

/**
 * Pages the write-ahead log grows to before the commit that passes it copies them back into the
 * database file and fsyncs it (a checkpoint, on the event loop like every statement). SQLite's
 * default is 1,000 (4 MiB). A page written again before the next checkpoint is copied once, so a
 * longer interval copies fewer pages per commit: the token path rewrites the same index and grant
 * pages. Each checkpoint then stalls the loop longer, and the tail latency grows with the interval:
 * at 2,000 (8 MiB of log) the bench's refresh answered about 10% more requests a second for a p99
 * some 5% higher (30% at a million stored tokens); 3,000 added 2-5% more requests for a p99 16% and
 * 53% higher (the scan is in docs/performance.md). A crash loses nothing either way (each commit's
 * log is fsynced); the next open replays the log.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 2000;

/**
 * Opens the file in WAL mode with `synchronous=FULL`, so a commit is on disk before the transaction
 * resolves and so before any response that depends on it is sent. With `create`, a missing file is
 * made first, readable by its owner only (0600, in folders made 0700): it holds the signing keys and
 * SQLite gives its -wal and -shm files the database file's permissions. Without, a missing file is
 * an error.
 */
export async function openSqliteDatabase(
  filename: string,
  busyTimeoutMs: number,
  create = true,
): Promise<SqliteDatabase> {
  if (filename !== ':memory:' && create) {
    mkdirSync(dirname(filename), { recursive: true, mode: 0o700 });
    closeSync(openSync(filename, 'a', 0o600));
  }
  const database = new BetterSqlite3(filename, { fileMustExist: filename !== ':memory:' });
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
  database.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  const writes: WriteNotices = { wrote: () => {} };
  const reads = new TurnReadTransaction(database);
  const db = new Kysely<Database>({ dialect: busyWaitingDialect(database, busyTimeoutMs, writes, reads) });
  return { database, db, writes, reads };
}

function busyWaitingDialect(
  database: BetterSqlite3.Database,
  budgetMs: number,
  writes: WriteNotices,
  reads: TurnReadTransaction,
): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new BusyWaitingDriver(new SqliteDriver({ database }), budgetMs, writes, reads),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
