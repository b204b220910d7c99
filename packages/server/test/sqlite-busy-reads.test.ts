import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { StoreBusyError } from '../src/store/store.js';
import { GroupCommit } from '../src/store/sqlite/transactions.js';
import { TurnReadTransaction } from '../src/store/sqlite/turn-read-transaction.js';

/**
 * The token path's reads (findClient, findGrantLiveness, findRefreshToken) run at once when no
 * batch is open; another connection's lock (SQLITE_BUSY) is still waited out within the budget,
 * past it answered as StoreBusyError (a 503), and any other error passed on as it is.
 */
describe('SQLite: the token path reads outside transactions', () => {
  const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  let database: BetterSqlite3.Database;
  function gate(busyBudgetMs: number, read: () => Promise<string>) {
    database = new BetterSqlite3(':memory:');
    const reads = new TurnReadTransaction(database);
    const commits = new GroupCommit({ database, busyBudgetMs, exclusive: (batch) => batch({} as never), reads });
    return commits.outsideTransactions({ read });
  }

  it('a read refused with SQLITE_BUSY is tried again until it is answered', async () => {
    let calls = 0;
    const gated = gate(1000, async () => {
      calls++;
      if (calls < 3) throw busy();
      return 'row';
    });
    assert.equal(await gated.read(), 'row');
    assert.equal(calls, 3);
  });

  it('past the busy budget the read is refused with StoreBusyError', async () => {
    const gated = gate(20, async () => {
      throw busy();
    });
    await assert.rejects(gated.read(), StoreBusyError);
    assert.equal(database.inTransaction, false, 'no read transaction left open');
  });

  it('any other error of a read is passed on as it is, without a second try', async () => {
    let calls = 0;
    const broken = new Error('no such table: clients');
    const gated = gate(1000, async () => {
      calls++;
      throw broken;
    });
    await assert.rejects(gated.read(), (error) => error === broken);
    assert.equal(calls, 1);
    assert.equal(database.inTransaction, false, 'no read transaction left open');
  });
});
