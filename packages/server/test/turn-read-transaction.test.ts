import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { openSqliteDatabase, type SqliteDatabase } from '../src/store/sqlite/open.js';
import { TurnReadTransaction } from '../src/store/sqlite/turn-read-transaction.js';
import type { Store } from '../src/store/store.js';
import { appGrant, NOW } from './_records.js';
import { sqliteStoreFixture, type SqliteStoreFixture } from './_sqlite-store.js';

const grant = appGrant;

/**
 * The reads of one event-loop turn made outside transactions share one read transaction on the
 * store's connection; every other use of the connection ends it first (turn-read-transaction.ts).
 * Each test awaits only settled promises between the reads it says are of one turn.
 */
describe('SQLite: the reads of one turn in one read transaction', () => {
  let fixture: SqliteStoreFixture;
  let opened: SqliteDatabase;
  let store: Store;
  /** A second connection on the same file, as another process would have. */
  let other: BetterSqlite3.Database;

  before(async () => {
    fixture = await sqliteStoreFixture();
    ({ opened, store, other } = fixture);
  });
  after(() => fixture.close());

  it('opens at the turn’s first read and ends with the turn; another connection’s commit is seen in the next', async () => {
    await nextTurn();
    assert.equal(opened.database.inTransaction, false);
    assert.equal((await store.findGrant('g1'))?.revokedAt, null);
    assert.equal(opened.database.inTransaction, true, 'the read left its transaction open for the turn');
    other.prepare("update grants set revoked_at = ?, revoked_reason = 'test' where id = 'g1'").run(NOW);
    assert.equal((await store.findGrant('g1'))?.revokedAt, null, 'the turn reads the file as at its first read');
    await nextTurn();
    assert.equal(opened.database.inTransaction, false, 'ended at the end of the turn');
    assert.equal((await store.findGrant('g1'))?.revokedAt, NOW);
    other.prepare("update grants set revoked_at = null, revoked_reason = null where id = 'g1'").run();
  });

  it('a group commit flushed while the read transaction is open commits, and a read after it sees its write', async () => {
    await nextTurn();
    // Queued first, so its flush runs before the read transaction's end of turn.
    const written = store.transaction((tx) => tx.insertGrant(grant('g2')));
    assert.equal((await store.findGrant('g2'))?.id, undefined);
    assert.equal(opened.database.inTransaction, true);
    await written;
    assert.equal((await store.findGrant('g2'))?.id, 'g2');
    assert.equal(other.prepare("select count(*) from grants where id = 'g2'").pluck().get(), 1);
  });

  it('a Kysely write in the turn ends the read transaction and is committed before it resolves', async () => {
    await nextTurn();
    assert.equal((await store.findGrant('g3'))?.id, undefined);
    assert.equal(opened.database.inTransaction, true);
    await store.insertGrant(grant('g3'));
    assert.equal(opened.database.inTransaction, false, 'the write ran outside the read transaction');
    assert.equal(other.prepare("select count(*) from grants where id = 'g3'").pluck().get(), 1);
    assert.equal((await store.findGrant('g3'))?.id, 'g3', 'the turn’s next read sees it');
  });

  it('a Kysely SELECT joins the turn’s read transaction', async () => {
    await nextTurn();
    assert.equal((await store.findClient('app'))?.id, 'app');
    assert.equal(opened.database.inTransaction, true);
    other.prepare("update grants set subject = 'bob' where id = 'g1'").run();
    assert.equal(
      (await opened.db.selectFrom('grants').select('subject').where('id', '=', 'g1').execute())[0]?.subject,
      'alice',
    );
    await nextTurn();
    assert.equal(
      (await opened.db.selectFrom('grants').select('subject').where('id', '=', 'g1').execute())[0]?.subject,
      'bob',
    );
    other.prepare("update grants set subject = 'alice' where id = 'g1'").run();
  });

  it('a read that fails ends the read transaction at once, and the next group commit begins', async () => {
    other.exec('alter table grants rename to grants_away');
    try {
      await nextTurn();
      // The client's row epoch opens the turn's read transaction; the grant's read then fails in it.
      assert.equal((await store.findClient('app'))?.id, 'app');
      assert.equal(opened.database.inTransaction, true);
      await assert.rejects(store.findGrant('g1'), /no such table: grants/);
      assert.equal(opened.database.inTransaction, false, 'no transaction left open');
      assert.equal(await store.transaction(async () => 'committed'), 'committed');
    } finally {
      other.exec('alter table grants_away rename to grants');
    }
  });

  it('closing ends it', async () => {
    const second = await openSqliteDatabase(fixture.filename, 1000);
    const reads = second.reads;
    await second.db.selectFrom('clients').select('id').execute();
    assert.equal(reads.open, true);
    await second.db.destroy();
    assert.equal(reads.open, false);
  });
});

describe('TurnReadTransaction', () => {
  it('a read that throws ends it, and one inside another transaction runs there', async () => {
    const database = new BetterSqlite3(':memory:');
    const reads = new TurnReadTransaction(database);
    assert.equal(
      reads.read(() => database.prepare('select 1').pluck().get()),
      1,
    );
    assert.equal(database.inTransaction, true);
    // Fails as it runs, inside the transaction: abs() of the smallest integer overflows.
    const overflow = database.prepare('select abs(-9223372036854775807 - 1)');
    assert.throws(() => reads.read(() => overflow.get()), /integer overflow/);
    assert.equal(database.inTransaction, false);
    assert.equal(reads.open, false);
    database.exec('begin immediate');
    reads.read(() => database.prepare('select 1').get());
    assert.equal(reads.open, false, 'not its own transaction');
    reads.end();
    assert.equal(database.inTransaction, true, 'another transaction is left to its owner');
    database.exec('commit');
    await nextTurn();
    database.close();
  });
});
