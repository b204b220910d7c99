import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { registerClient } from '../src/oauth/clients/clients.js';
import { issueGrant } from '../src/oauth/tokens/grant-issuance.js';
import { exchangeRefreshToken } from '../src/oauth/tokens/refresh-token-lifecycle.js';
import { RefreshSuccessors } from '../src/oauth/tokens/refresh-successors.js';
import { AuditTrail } from '../src/audit/audit.js';
import type { ClientRecord } from '../src/primitives/records.js';
import { openStore } from '../src/store/open.js';
import { ROW_EPOCH, ROW_EPOCH_TABLE, RowCache } from '../src/store/row-cache.js';
import { BatchedEpoch } from '../src/store/postgres/batched-epoch.js';
import { TurnEpoch } from '../src/store/sqlite/turn-epoch.js';
import type { Store } from '../src/store/store.js';
import { DIALECTS, executeStatements, freshDatabase } from './_dialects.js';

const NOW = 1_800_000_000;

/** A RowCache over a counted read, on TurnEpoch (SQLite's source) over an epoch the test moves. */
function counted(options: { maxRows?: number } = {}) {
  const state = {
    epoch: 0,
    writing: false,
    reads: 0,
    epochReads: 0,
    failEpoch: false,
    value: 'v0',
    readAtOnce: true,
  };
  const source = new TurnEpoch(
    () => {
      state.epochReads++;
      if (state.failEpoch) throw new Error('SQLITE_IOERR');
      return state.epoch;
    },
    () => state.writing,
  );
  const cache = new RowCache(source, options.maxRows);
  const row = (id: string) => {
    state.reads++;
    return id === 'absent' ? undefined : { id, value: state.value };
  };
  const read = cache.cached(
    async (id: string) => row(id),
    (id) => (state.readAtOnce ? row(id) : null),
  );
  const withoutAtOnce = cache.cached(async (id: string) => row(id));
  return { state, source, read, withoutAtOnce };
}

describe('RowCache on the turn epoch (SQLite)', () => {
  it('answers a row read again from memory, in the same turn and the next, while the epoch stands', async () => {
    const { state, read } = counted();
    assert.deepEqual(await read('a'), { id: 'a', value: 'v0' });
    await read('a');
    await nextTurn();
    await read('a');
    assert.equal(state.reads, 1);
    assert.equal(state.epochReads, 2, 'the epoch is read once per turn');
  });

  it('empties itself when the epoch it reads at the start of a turn has moved', async () => {
    const { state, read } = counted();
    await read('a');
    state.epoch = 1;
    state.value = 'v1';
    await read('a');
    assert.equal(state.reads, 1, 'within the turn the epoch is not read again');
    await nextTurn();
    assert.deepEqual(await read('a'), { id: 'a', value: 'v1' });
    assert.equal(state.reads, 2);
  });

  it('reads the epoch again at once after a write of this process', async () => {
    const { state, source, read } = counted();
    await read('a');
    state.epoch = 1;
    state.value = 'v1';
    source.wrote();
    assert.deepEqual(await read('a'), { id: 'a', value: 'v1' });
  });

  it('goes to the database and keeps nothing while a transaction of this process is open', async () => {
    const { state, read } = counted();
    state.writing = true;
    await read('a');
    await read('a');
    assert.equal(state.reads, 2);
    assert.equal(state.epochReads, 0);
    state.writing = false;
    await read('a');
    await read('a');
    assert.equal(state.reads, 3);
  });

  it('does not keep a row whose read began under an older epoch', async () => {
    const { state, source, read } = counted();
    const pending = read('a'); // read under epoch 0, settles after the lines below
    state.epoch = 1;
    state.value = 'v1';
    source.wrote();
    assert.deepEqual(await read('b'), { id: 'b', value: 'v1' }); // epoch 1 seen: everything older is dropped
    await pending;
    await read('a');
    assert.equal(state.reads, 3, "the row read under epoch 0 was not kept: 'a' was read again");
  });

  it('keeps no row that was not found, and reads through when the epoch cannot be read', async () => {
    const { state, read } = counted();
    assert.equal(await read('absent'), undefined);
    assert.equal(await read('absent'), undefined);
    assert.equal(state.reads, 2);
    await nextTurn();
    state.failEpoch = true;
    await read('a');
    await read('a');
    assert.equal(state.reads, 4, 'without an epoch, every read goes to the database');
  });

  it('under an epoch its caller read: the same rows, read by the caller’s own read on a miss and kept under that epoch', async () => {
    const { state, read } = counted();
    await read('a');
    const own = async (id: string) => ({ id, value: `own ${state.value}` });
    assert.deepEqual(await read.under('a', 0, own), { id: 'a', value: 'v0' }, 'the row the source’s epoch kept');
    assert.equal(state.reads, 1);
    // A change committed before the caller's statement: the epoch it read has moved.
    state.value = 'v1';
    assert.deepEqual(await read.under('a', 1, own), { id: 'a', value: 'own v1' });
    assert.deepEqual(await read.under('a', 1, own), { id: 'a', value: 'own v1' }, 'kept');
    assert.equal(state.reads, 1, 'the cache’s own read is not used');
    // The source's epoch, read at the next turn, is that one: the kept row serves it.
    state.epoch = 1;
    await nextTurn();
    assert.deepEqual(await read('a'), { id: 'a', value: 'own v1' });
    assert.equal(state.reads, 1);
  });

  it('under an epoch its caller read, does not keep a row whose read began before another epoch was seen', async () => {
    const { read } = counted();
    let release!: () => void;
    const slow = read.under('b', 3, async (id) => {
      await new Promise<void>((resolve) => (release = resolve));
      return { id, value: 'read under 3' };
    });
    await read.under('c', 4, async (id) => ({ id, value: 'read under 4' }));
    release();
    assert.deepEqual(await slow, { id: 'b', value: 'read under 3' });
    let reads = 0;
    const again = await read.under('b', 4, async (id) => (reads++, { id, value: 'read under 4' }));
    assert.deepEqual(again, { id: 'b', value: 'read under 4' });
    assert.equal(reads, 1, 'the row read under 3 was not kept');
  });

  it('forgets its oldest row past maxRows', async () => {
    const { state, read } = counted({ maxRows: 2 });
    await read('a');
    await read('b');
    await read('c');
    await read('b');
    await read('c');
    assert.equal(state.reads, 3);
    await read('a');
    assert.equal(state.reads, 4);
  });

  it('atOnce: the kept row, or the row read at once and kept; the awaited read shares it', async () => {
    const { state, read } = counted();
    await nextTurn();
    assert.deepEqual(read.atOnce('a'), { id: 'a', value: 'v0' });
    assert.deepEqual(read.atOnce('a'), { id: 'a', value: 'v0' });
    assert.deepEqual(await read('a'), { id: 'a', value: 'v0' });
    assert.equal(state.reads, 1);
    assert.equal(read.atOnce('absent'), undefined);
    assert.equal(read.atOnce('absent'), undefined);
    assert.equal(state.reads, 3, 'a row not found is not kept');
    state.epoch = 1;
    state.value = 'v1';
    await nextTurn();
    assert.deepEqual(read.atOnce('a'), { id: 'a', value: 'v1' }, 'the epoch moved: read again');
  });

  it('atOnce answers null where the awaited read must answer: a transaction open, the epoch unreadable, a read at once refused', async () => {
    const { state, read } = counted();
    await nextTurn();
    state.writing = true;
    assert.equal(read.atOnce('a'), null);
    state.writing = false;
    state.failEpoch = true;
    assert.equal(read.atOnce('a'), null);
    state.failEpoch = false;
    await nextTurn();
    state.readAtOnce = false;
    assert.equal(read.atOnce('a'), null);
    assert.equal(state.reads, 0);
    state.readAtOnce = true;
    assert.deepEqual(read.atOnce('a'), { id: 'a', value: 'v0' });
  });

  it('atOnce answers null while an awaited read of the same row is under way, and keeps nothing of its own meanwhile', async () => {
    const { state, read } = counted();
    await nextTurn();
    const pending = read('a');
    assert.equal(read.atOnce('a'), null);
    assert.deepEqual(await pending, { id: 'a', value: 'v0' });
    assert.deepEqual(read.atOnce('a'), { id: 'a', value: 'v0' });
    assert.equal(state.reads, 1);
  });

  it('atOnce of a read made without a reader at once answers null without reading the epoch', async () => {
    const { state, withoutAtOnce } = counted();
    await nextTurn();
    assert.equal(withoutAtOnce.atOnce('a'), null);
    assert.equal(state.epochReads, 0);
    assert.equal(state.reads, 0);
  });
});

describe('RowCache on the batched epoch (PostgreSQL)', () => {
  function batched() {
    const state = { epoch: 0, epochReads: 0, reads: 0, fail: false, value: 'v0' };
    const cache = new RowCache(
      new BatchedEpoch(async () => {
        state.epochReads++;
        const epoch = state.epoch; // as the database has it when the read reaches it
        await nextTurn(); // the way back
        if (state.fail) throw new Error('connection terminated');
        return epoch;
      }),
    );
    const read = cache.cached(async (id: string) => {
      state.reads++;
      return { id, value: state.value };
    });
    return { state, read };
  }

  it('reads the epoch once for the reads of one turn, and again for each later turn', async () => {
    const { state, read } = batched();
    await Promise.all([read('a'), read('a'), read('b')]);
    assert.equal(state.epochReads, 1);
    assert.equal(state.reads, 2, "the two reads of 'a' shared one");
    await read('a');
    assert.equal(state.epochReads, 2);
    assert.equal(state.reads, 2, 'the row stayed kept');
  });

  it('a read that starts while an epoch read is in flight waits for a newer one: a change committed before it started is seen', async () => {
    const { state, read } = batched();
    await read('a');
    const first = read('a'); // its epoch read is issued at the end of this turn
    await nextTurn(); // issued now, in flight
    state.epoch = 1; // another process revokes, committed before the next read starts
    state.value = 'v1';
    const second = read('a');
    assert.deepEqual(await first, { id: 'a', value: 'v0' });
    assert.deepEqual(await second, { id: 'a', value: 'v1' });
  });

  it('reads the rows themselves when the epoch cannot be read', async () => {
    const { state, read } = batched();
    await read('a');
    state.fail = true;
    await read('a');
    await read('a');
    assert.equal(state.reads, 3);
  });
});

for (const dialect of DIALECTS)
  describe(`the store keeps clients, grant liveness and what a user holds under the row epoch (migrations 0026, 0035) [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let server: Store;
    let command: Store;
    let client: ClientRecord;
    const execute = (statement: string) => executeStatements(dialect, database.url, [statement]);
    const epoch = async (): Promise<number> => {
      const query = `select epoch from ${ROW_EPOCH_TABLE} where name = '${ROW_EPOCH}'`;
      if (dialect === 'sqlite') {
        const file = new BetterSqlite3(database.url.slice('sqlite:'.length));
        try {
          return Number(file.prepare(query).pluck().get());
        } finally {
          file.close();
        }
      }
      const connection = new pg.Client({ connectionString: database.url });
      await connection.connect();
      try {
        return Number((await connection.query<{ epoch: string }>(query)).rows[0]?.epoch);
      } finally {
        await connection.end();
      }
    };

    before(async () => {
      database = await freshDatabase(dialect);
      server = await openStore(database.url);
      // Another connection on the same database stands for another process: a `gatehouse` command, a worker.
      command = await openStore(database.url);
      ({ client } = await registerClient(server, { id: 'app', name: 'App', scope: ['a'] }, NOW));
    });
    after(async () => {
      await server.close();
      await command.close();
      await database.drop();
    });

    it("another process's revocation is seen by the first request of the next turn", async () => {
      const { grant } = await server.transaction((tx) => issueGrant(tx, client, 'alice', ['a'], NOW));
      assert.equal((await server.findGrantLiveness(grant.id))?.revokedAt, null);
      await command.transaction((tx) => tx.revokeGrant(grant.id, 'revoked_by_admin', NOW + 1));
      await nextTurn();
      assert.equal((await server.findGrantLiveness(grant.id))?.revokedAt, NOW + 1);
    });

    it('its own revocation is seen by the very next read, without waiting for a turn', async () => {
      const { grant } = await server.transaction((tx) => issueGrant(tx, client, 'bob', ['a'], NOW));
      assert.equal((await server.findGrantLiveness(grant.id))?.revokedAt, null);
      await server.transaction((tx) => tx.revokeGrant(grant.id, 'revoked_by_admin', NOW + 2));
      assert.equal((await server.findGrantLiveness(grant.id))?.revokedAt, NOW + 2);
      // A write outside the group commit (Kysely, autocommit) too.
      const { grant: other } = await server.transaction((tx) => issueGrant(tx, client, 'bob', ['a'], NOW));
      assert.equal((await server.findGrantLiveness(other.id))?.revokedAt, null);
      assert.equal(await server.revokeGrantsOf('bob', 'revoked_by_admin', NOW + 3), 1);
      assert.equal((await server.findGrantLiveness(other.id))?.revokedAt, NOW + 3);
    });

    it("another process's change or removal of a client is seen in the next turn; the grants it takes are gone", async () => {
      const { client: other } = await registerClient(server, { id: 'other', name: 'Other', scope: ['a'] }, NOW);
      const { grant } = await server.transaction((tx) => issueGrant(tx, other, 'carol', ['a'], NOW));
      assert.equal((await server.findClient('other'))?.name, 'Other');
      assert.ok(await server.findGrantLiveness(grant.id));
      assert.equal(await command.replaceClient({ ...other, name: 'Renamed' }), true);
      await nextTurn();
      assert.equal((await server.findClient('other'))?.name, 'Renamed');
      assert.equal(await command.removeClient('other'), true);
      await nextTurn();
      assert.equal(await server.findClient('other'), undefined);
      assert.equal(await server.findGrantLiveness(grant.id), undefined);
    });

    it('a rotation does not move the epoch (the rows stay kept through refreshes); a revocation, a subject change and a deletion do', async () => {
      const { grant, refreshToken } = await server.transaction((tx) => issueGrant(tx, client, 'dave', ['a'], NOW));
      const before = await epoch();
      const outcome = await exchangeRefreshToken(new AuditTrail(server, () => {}), {
        presentedToken: refreshToken as string,
        client,
        scope: undefined,
        now: NOW + 1,
        successors: await RefreshSuccessors.load(server),
      });
      assert.equal(outcome.ok, true);
      assert.equal(await epoch(), before, 'a rotation writes the grant without moving the epoch');
      await execute(`update grants set subject = 'dave-2' where id = '${grant.id}'`);
      assert.equal(await epoch(), before + 1);
      await execute(`update grants set revoked_at = ${NOW + 2} where id = '${grant.id}'`);
      assert.equal(await epoch(), before + 2);
      await execute(`delete from grants where id = '${grant.id}'`);
      assert.equal(await epoch(), before + 3);
    });

    it("what a user holds (heldAccess) is kept under the epoch; another process's membership, assignment and removal (migration 0035) are seen in the next turn", async () => {
      await server.insertUser({
        username: 'erin',
        passwordHash: 'x',
        createdAt: NOW,
        updatedAt: NOW,
        subject: 'erin',
        claims: {},
      });
      await server.insertGroupIfAbsent({ id: 'g-staff', name: 'staff', parentId: null, createdAt: NOW });
      await server.insertRoleIfAbsent({
        id: 'r-reader',
        name: 'reader',
        scope: { kind: 'api', audience: '/v2' },
        description: null,
        builtIn: false,
        createdAt: NOW,
      });
      assert.deepEqual(await server.heldAccess('erin', '/v2'), { groups: [], roles: [] });
      const before = await epoch();
      // An insert moves the epoch too: a new membership changes an answer kept before it.
      await command.addGroupMember('g-staff', 'erin', NOW);
      assert.equal(await epoch(), before + 1);
      await nextTurn();
      assert.deepEqual(await server.heldAccess('erin', '/v2'), { groups: ['staff'], roles: [] });
      await command.assignRole('r-reader', { kind: 'group', id: 'g-staff' }, NOW);
      await nextTurn();
      assert.deepEqual(await server.heldAccess('erin', '/v2'), { groups: ['staff'], roles: ['reader'] });
      assert.deepEqual(await server.heldAccess('erin', null), { groups: ['staff'], roles: [] }, 'kept per API');
      await command.removeGroupMember('g-staff', 'erin');
      await nextTurn();
      assert.deepEqual(await server.heldAccess('erin', '/v2'), { groups: [], roles: [] });
      // Its own change is seen by the very next read.
      await server.addGroupMember('g-staff', 'erin', NOW);
      assert.deepEqual(await server.heldAccess('erin', '/v2'), { groups: ['staff'], roles: ['reader'] });
    });
  });
