import BetterSqlite3 from 'better-sqlite3';
import { sqliteStore } from '../src/store/sqlite/index.js';
import { migrateSqlite } from '../src/store/sqlite/migrations.js';
import { openSqliteDatabase, type SqliteDatabase } from '../src/store/sqlite/open.js';
import type { Store } from '../src/store/store.js';
import { freshDatabase } from './_dialects.js';
import { appClient, appGrant } from './_records.js';

/** An SQLite store on a fresh migrated file, and what its tests look at beside it. */
export interface SqliteStoreFixture {
  /** The database file. */
  readonly filename: string;
  /** The store's connection (its `database` tells whether a transaction is open). */
  readonly opened: SqliteDatabase;
  readonly store: Store;
  /** A second connection on the same file, as another process would have. */
  readonly other: BetterSqlite3.Database;
  close(): Promise<void>;
}

/** The store with client `app` and its grant `g1` (test/_records.ts) stored. */
export async function sqliteStoreFixture(): Promise<SqliteStoreFixture> {
  const fresh = await freshDatabase('sqlite');
  const filename = fresh.url.slice('sqlite:'.length);
  const opened = await openSqliteDatabase(filename, 1000);
  const store = sqliteStore(opened, 1000, await migrateSqlite(opened, 'apply'));
  await store.insertClient(appClient());
  await store.insertGrant(appGrant('g1'));
  const other = new BetterSqlite3(filename);
  return {
    filename,
    opened,
    store,
    other,
    async close() {
      other.close();
      await store.close();
      await fresh.drop();
    },
  };
}
