import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openSqliteDatabase, WAL_AUTOCHECKPOINT_PAGES } from '../src/store/sqlite/open.js';
import { freshDatabase } from './_dialects.js';

/**
 * What a SQLite store promises rests on how its connection is opened: a commit is on disk before the
 * transaction resolves (WAL, synchronous=FULL), lock waits happen in the driver, asynchronously
 * (busy_timeout=0), and the log is checkpointed at WAL_AUTOCHECKPOINT_PAGES, not SQLite's 1,000.
 */
describe('SQLite: the connection a store opens', () => {
  const dropped: (() => Promise<void>)[] = [];
  after(() => Promise.all(dropped.map((drop) => drop())));

  it('runs in WAL mode with synchronous=FULL, foreign keys on, busy_timeout=0, checkpointing every 2,000 pages', async () => {
    const fresh = await freshDatabase('sqlite');
    dropped.push(() => fresh.drop());
    const { database, db } = await openSqliteDatabase(fresh.url.slice('sqlite:'.length), 1000);
    try {
      const setting = (name: string): unknown => database.pragma(name, { simple: true });
      assert.equal(setting('journal_mode'), 'wal');
      assert.equal(setting('synchronous'), 2, 'FULL');
      assert.equal(setting('foreign_keys'), 1);
      assert.equal(setting('busy_timeout'), 0);
      assert.equal(WAL_AUTOCHECKPOINT_PAGES, 2000);
      assert.equal(setting('wal_autocheckpoint'), WAL_AUTOCHECKPOINT_PAGES);
    } finally {
      await db.destroy();
    }
  });
});
