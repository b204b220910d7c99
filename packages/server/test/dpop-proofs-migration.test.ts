import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { DIALECTS, executeStatements, freshDatabase, type Dialect } from './_dialects.js';

const NOW = 1_800_000_000;

/** The replay table's shape: SQLite's table definition and every index of the table, by name and definition. */
async function shape(dialect: Dialect, url: string): Promise<{ table: string; indexes: string[] }> {
  if (dialect === 'sqlite') {
    const database = new BetterSqlite3(url.slice('sqlite:'.length), { readonly: true });
    try {
      const rows = database
        .prepare<[], { type: string; name: string; sql: string | null }>(
          "select type, name, sql from sqlite_master where tbl_name = 'dpop_proofs' order by name",
        )
        .all();
      return {
        table: rows.find((row) => row.type === 'table')?.sql ?? '',
        indexes: rows.filter((row) => row.type === 'index').map((row) => row.name),
      };
    } finally {
      database.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ indexname: string }>(
      "select indexname from pg_indexes where tablename = 'dpop_proofs' and schemaname = current_schema() order by 1",
    );
    return { table: 'dpop_proofs', indexes: rows.map((row) => row.indexname) };
  } finally {
    await client.end();
  }
}

/** An id as `DpopProofs` makes them: the base64url SHA-256 of key and `jti`. */
const replayId = (n: number) => createHash('sha256').update(`jkt.${n}`).digest('base64url');

for (const dialect of DIALECTS)
  describe(`migration 0040: the DPoP replay table's shape [${dialect}]`, () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    let store: Store | undefined;

    before(async () => {
      database = await freshDatabase(dialect);
    });
    after(async () => {
      await store?.close();
      await database?.drop();
    });

    it('an upgrade from 0039 keeps the proofs noted before it: each is still refused as a replay', async () => {
      const first = await openStore(database.url);
      await first.close();
      // The table as 0021 made it, with a proof noted by the version before 0040.
      await executeStatements(dialect, database.url, [
        'drop table dpop_proofs',
        'create table dpop_proofs (id text primary key, expires_at bigint not null)',
        'create index dpop_proofs_expires_at on dpop_proofs (expires_at)',
        `insert into dpop_proofs (id, expires_at) values ('${replayId(0)}', ${NOW + 60}), ('expired', ${NOW - 60})`,
        "delete from kysely_migration where name = '0040_dpop_proofs_shape'",
      ]);
      store = await openStore(database.url);
      assert.deepEqual(store.appliedMigrations, ['0040_dpop_proofs_shape']);
      assert.equal(await store.noteDpopProof(replayId(0), NOW + 60), false, 'noted before the upgrade: a replay');
      assert.equal(await store.noteDpopProof(replayId(1), NOW + 60), true);
      assert.equal(await store.noteDpopProof(replayId(1), NOW + 60), false);
      assert.equal(await store.deleteExpiredDpopProofs(NOW), 1, 'the expired one, kept by the upgrade, swept');
    });

    it(
      dialect === 'sqlite'
        ? 'SQLite: one B-tree keyed by the id (WITHOUT ROWID), no index on expires_at'
        : 'PostgreSQL: the heap, its primary key and the index on expires_at, as 0021 made them',
      async () => {
        const { table, indexes } = await shape(dialect, database.url);
        if (dialect === 'sqlite') {
          assert.match(table.toLowerCase(), /^create table "?dpop_proofs"? \(.*\) without rowid$/);
          assert.deepEqual(indexes, []);
        } else assert.deepEqual(indexes, ['dpop_proofs_expires_at', 'dpop_proofs_pkey']);
      },
    );

    it('the sweep deletes every expired proof and only those, whatever the first character of its id', async () => {
      assert.ok(store);
      await store.deleteExpiredDpopProofs(NOW + 1_000);
      // Ids over the whole base64url alphabet, and ids outside it below and above it.
      const ids = [...Array.from({ length: 640 }, (_, n) => replayId(n + 10)), '', '!', '-', '_', 'zzz', '~~', 'é'];
      const expired = new Set(ids.filter((_, n) => n % 3 === 0));
      for (const id of ids) assert.equal(await store.noteDpopProof(id, expired.has(id) ? NOW - 1 : NOW + 60), true);
      assert.equal(await store.deleteExpiredDpopProofs(NOW), expired.size);
      for (const id of ids)
        assert.equal(await store.noteDpopProof(id, NOW + 60), expired.has(id), expired.has(id) ? 'swept' : 'kept');
      assert.equal(await store.deleteExpiredDpopProofs(NOW), 0);
    });
  });
