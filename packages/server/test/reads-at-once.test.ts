import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from '../src/store/sqlite/open.js';
import type { ReadsAtOnce, Store } from '../src/store/store.js';
import { NOW } from './_records.js';
import { sqliteStoreFixture, type SqliteStoreFixture } from './_sqlite-store.js';

/**
 * Store.readsAtOnce on SQLite: the reads an endpoint can have answered in the request's own turn
 * (introspection), each the same answer as its awaited namesake, or null where that one would wait.
 */
describe('SQLite: reads answered in the caller’s turn (Store.readsAtOnce)', () => {
  let fixture: SqliteStoreFixture;
  let opened: SqliteDatabase;
  let store: Store;
  let reads: ReadsAtOnce;
  /** A second connection on the same file, as another process would have. */
  let other: BetterSqlite3.Database;

  before(async () => {
    fixture = await sqliteStoreFixture();
    ({ opened, store, other } = fixture);
    assert.ok(store.readsAtOnce);
    reads = store.readsAtOnce;
    await store.insertRefreshToken({ id: 't1', grantId: 'g1', useCount: 0, issuedAt: NOW, expiresAt: NOW + 60 });
  });
  after(() => fixture.close());

  it('answers what the awaited reads answer: the client, the token’s brief, and nothing for an unknown id', async () => {
    await nextTurn();
    assert.deepEqual(reads.findClient('app'), await store.findClient('app'));
    assert.deepEqual(reads.findRefreshTokenBrief('t1'), await store.findRefreshTokenBrief('t1'));
    assert.deepEqual(reads.findGrantLiveness('g1'), await store.findGrantLiveness('g1'));
    assert.equal(reads.findGrantLiveness('g1')?.subject, 'alice');
    assert.equal(reads.findGrantLiveness('none'), undefined);
    assert.equal(reads.findRefreshTokenBrief('t1')?.grant.clientId, 'app');
    assert.equal(reads.findClient('nobody'), undefined);
    assert.equal(reads.findRefreshTokenBrief('nothing'), undefined);
  });

  it('runs in the turn’s read transaction, which ends with the turn', async () => {
    await nextTurn();
    assert.equal(opened.database.inTransaction, false);
    assert.equal(reads.findRefreshTokenBrief('t1')?.token.useCount, 0);
    assert.equal(opened.database.inTransaction, true);
    await nextTurn();
    assert.equal(opened.database.inTransaction, false);
  });

  it('answers null while a group commit’s batch is open (its writes are not committed yet), and again after it', async () => {
    await nextTurn();
    const seen: unknown[] = [];
    await store.transaction(async (tx) => {
      await tx.updateRefreshToken('t1', { useCount: 1, expiresAt: NOW + 60 });
      seen.push(reads.findRefreshTokenBrief('t1'), reads.findClient('app'), reads.findGrantLiveness('g1'));
    });
    assert.deepEqual(seen, [null, null, null]);
    assert.equal(reads.findRefreshTokenBrief('t1')?.token.useCount, 1, 'the committed write, once the batch is closed');
  });

  it('keeps a grant’s liveness under the row epoch: another connection’s revocation is read from the next turn on', async () => {
    await nextTurn();
    assert.equal(reads.findGrantLiveness('g1')?.revokedAt, null);
    other.prepare("update grants set revoked_at = ?, revoked_reason = 'test' where id = 'g1'").run(NOW);
    await nextTurn();
    assert.equal(reads.findGrantLiveness('g1')?.revokedAt, NOW);
    other.prepare("update grants set revoked_at = null, revoked_reason = null where id = 'g1'").run();
    await nextTurn();
    assert.equal(reads.findGrantLiveness('g1')?.revokedAt, null);
  });

  it('keeps the client under the row epoch: another connection’s change is read from the next turn on', async () => {
    await nextTurn();
    assert.equal(reads.findClient('app')?.name, 'App');
    other.prepare("update clients set name = 'Renamed' where id = 'app'").run();
    assert.equal(reads.findClient('app')?.name, 'App', 'the turn reads the file as at its first read');
    await nextTurn();
    assert.equal(reads.findClient('app')?.name, 'Renamed');
    assert.equal((await store.findClient('app'))?.name, 'Renamed', 'the awaited read shares the kept row');
  });

  it('a read that fails answers null, leaving the error to the awaited read, and ends the read transaction', async () => {
    await nextTurn();
    other.exec('drop table refresh_tokens');
    assert.equal(reads.findRefreshTokenBrief('t1'), null);
    assert.equal(opened.database.inTransaction, false);
    await assert.rejects(store.findRefreshTokenBrief('t1'), /no such table/);
  });
});
