import type { Kysely } from 'kysely';
import { createRepository, lazyRepositories } from '../repository.js';
import type { MigrationMode } from '../migrations.js';
import type { Store } from '../store.js';
import type { Database } from '../schema.js';
import { prepareHotQueries } from './hot-queries.js';
import { migrateSqlite, pendingSqliteMigrations } from './migrations.js';
import { openSqliteDatabase, type SqliteDatabase } from './open.js';
import { MemoryRateLimitStore } from './rate-limit-store.js';
import { ROW_EPOCH, ROW_EPOCH_TABLE, RowCache } from '../row-cache.js';
import { cachedHeldAccess } from '../access-resolution.js';
import { TurnEpoch } from './turn-epoch.js';
import { deleteExpiredDpopProofsInSlices } from './dpop-sweep.js';
import { GroupCommit } from './transactions.js';

export interface SqliteStoreOptions {
  /** A file path, or `:memory:`. */
  readonly filename: string;
  /** How long a writer waits for another process's lock before giving up with a 503, ms. */
  readonly busyTimeoutMs?: number;
  readonly migrations?: MigrationMode;
  /** Make the file when it is missing (default); otherwise a missing file is an error. */
  readonly create?: boolean;
}

/**
 * The embedded store: one SQLite file in WAL mode with `synchronous=FULL`, so a commit is on disk
 * before the transaction resolves and so before any response that depends on it is sent.
 */
export async function openSqliteStore({
  filename,
  busyTimeoutMs = 5000,
  migrations = 'apply',
  create = true,
}: SqliteStoreOptions): Promise<Store> {
  const opened = await openSqliteDatabase(filename, busyTimeoutMs, create);
  const { db } = opened;
  let appliedMigrations: string[];
  try {
    appliedMigrations = await migrateSqlite(opened, migrations);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return sqliteStore(opened, busyTimeoutMs, appliedMigrations);
}

/** The store on a database opened and migrated (openSqliteStore; tests see its connection). */
export function sqliteStore(opened: SqliteDatabase, busyTimeoutMs: number, appliedMigrations: string[]): Store {
  const { database, db, reads } = opened;
  // The token hot path runs on statements prepared once; everything else on Kysely. Transactions
  // are group-committed: one fsync for all the transactions of an event-loop turn.
  const hot = prepareHotQueries(database, db);
  const repository = createRepository(db, { lockRows: false });
  // A batch's repository: the hot queries, the rest built on its connection only if a work reads it.
  const onConnection = lazyRepositories(
    (conn: Kysely<Database>) => createRepository(conn, { lockRows: false }),
    Object.keys(repository),
    [],
    hot,
  );
  const commits = new GroupCommit({
    database,
    busyBudgetMs: busyTimeoutMs,
    exclusive: (batch) => db.connection().execute((conn) => batch(onConnection(conn))),
    wrote: () => epoch.wrote(),
    reads,
  });
  // Clients and grant liveness, read on every token and API request, kept while the file's row
  // epoch stands (../row-cache.ts); every write of this process has the epoch read again. The
  // epoch is the turn's first read: it opens the turn's read transaction (turn-read-transaction.ts).
  const readEpoch = database.prepare(`select epoch from ${ROW_EPOCH_TABLE} where name = ?`).pluck();
  const epoch = new TurnEpoch(
    () => reads.read(() => readEpoch.get(ROW_EPOCH) as number),
    () => commits.writing,
  );
  opened.writes.wrote = epoch.wrote;
  const rows = new RowCache(epoch);
  const outside = commits.outsideTransactions({
    findClient: hot.findClient,
    findGrant: hot.findGrant,
    findGrantLiveness: hot.findGrantLiveness,
    findRefreshToken: hot.findRefreshToken,
    findRefreshTokenBrief: hot.findRefreshTokenBrief,
    findUserBySubject: hot.findUserBySubject,
    heldAccess: hot.heldAccess,
  });

  // The same reads in the caller's own turn, for an endpoint that answers without an await.
  const atOnce = commits.outsideTransactionsAtOnce(hot.atOnce);
  const findClient = rows.cached(outside.findClient, atOnce.findClient);
  const findGrantLiveness = rows.cached(outside.findGrantLiveness, atOnce.findGrantLiveness);

  return {
    dialect: 'sqlite',
    appliedMigrations,
    pendingMigrations: () => pendingSqliteMigrations(db as Kysely<unknown>),
    // One process per SQLite file serves requests in the common case; with `serve --workers` each
    // worker keeps its own buckets (docs/deployment.md).
    rateLimits: new MemoryRateLimitStore(),
    ...repository,
    ...outside,
    findClient,
    findGrantLiveness,
    readsAtOnce: {
      findClient: findClient.atOnce,
      findGrantLiveness: findGrantLiveness.atOnce,
      findRefreshTokenBrief: atOnce.findRefreshTokenBrief,
    },
    heldAccess: cachedHeldAccess(rows, outside.heldAccess),
    // The REST API's writes are one statement each: as transactions of their own they share the
    // group commit's fsync instead of paying one each, and need no savepoint (runStatement).
    insertRecord: (record) => commits.runStatement((tx) => tx.insertRecord(record)),
    updateRecord: (...args) => commits.runStatement((tx) => tx.updateRecord(...args)),
    deleteRecord: (...args) => commits.runStatement((tx) => tx.deleteRecord(...args)),
    // A proof noted on its own (a grant without a transaction, a resource request) shares it too.
    noteDpopProof: (id, expiresAt) => commits.runStatement((tx) => tx.noteDpopProof(id, expiresAt)),
    // Migration 0040 left the table without an index on expires_at: swept by ranges of the id.
    deleteExpiredDpopProofs: (now) => deleteExpiredDpopProofsInSlices(db, now),
    // BEGIN IMMEDIATE takes the write lock before the first read, so two transactions (in this
    // process or another one on the same file) never both read a token as unused.
    transaction: (work) => commits.run(work),
    async close() {
      await db.destroy();
    },
  };
}
