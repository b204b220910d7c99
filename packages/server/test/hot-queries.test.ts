import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { GrantRecord } from '../src/primitives/records.js';
import { sql, type Kysely } from 'kysely';
import { createRepository, type Repository } from '../src/store/repository.js';
import { postgresHotQueries } from '../src/store/postgres/hot-queries.js';
import { cachedHeldAccess } from '../src/store/access-resolution.js';
import { RowCache } from '../src/store/row-cache.js';
import { migratePostgres } from '../src/store/postgres/migrations.js';
import { openPostgresDatabase } from '../src/store/postgres/open.js';
import { withUnboundedStatements } from '../src/store/postgres/pool.js';
import { queryTemplate } from '../src/store/query-template.js';
import type { Database } from '../src/store/schema.js';
import { prepareHotQueries, type HotQueries } from '../src/store/sqlite/hot-queries.js';
import { migrateSqlite } from '../src/store/sqlite/migrations.js';
import { openSqliteDatabase } from '../src/store/sqlite/open.js';
import { DIALECTS, freshDatabase, type Dialect } from './_dialects.js';
import { appClient, appGrant, NOW } from './_records.js';
import { until } from './_until.js';

const client = appClient(['a', 'b']);
const grant = appGrant;

interface Opened {
  readonly db: Kysely<Database>;
  /** The repository through Kysely, as every other query runs. */
  readonly kysely: Repository;
  /** The same methods on the queries compiled once (revokeGrant, heldAccess: the repository's, on PostgreSQL). */
  readonly hot: HotQueries;
  close(): Promise<void>;
}

/** A migrated database of the dialect, with its repository and its hot queries side by side. */
async function openBoth(dialect: Dialect): Promise<Opened> {
  const fresh = await freshDatabase(dialect);
  if (dialect === 'sqlite') {
    const opened = await openSqliteDatabase(fresh.url.slice('sqlite:'.length), 1000);
    await migrateSqlite(opened, 'apply');
    const kysely = createRepository(opened.db, { lockRows: false });
    return {
      db: opened.db,
      kysely,
      hot: prepareHotQueries(opened.database, opened.db),
      async close() {
        await opened.db.destroy();
        await fresh.drop();
      },
    };
  }
  await withUnboundedStatements(fresh.url, (migrationDb) => migratePostgres(migrationDb, 'apply'));
  const db = openPostgresDatabase(fresh.url, 4);
  const kysely = createRepository(db, { lockRows: false });
  return {
    db,
    kysely,
    hot: {
      ...postgresHotQueries(db, uncachedHeldAccess(kysely))(db, false),
      revokeGrant: (...args) => kysely.revokeGrant(...args),
      heldAccess: (...args) => kysely.heldAccess(...args),
    },
    async close() {
      await db.destroy();
      await fresh.drop();
    },
  };
}

/** The repository's `heldAccess` with no memory (an epoch source that never answers). */
const uncachedHeldAccess = (kysely: Repository) =>
  cachedHeldAccess(new RowCache({ current: () => undefined }), (...args) => kysely.heldAccess(...args));

for (const dialect of DIALECTS)
  describe(`the hot path: queries compiled once from the repository’s definitions [${dialect}]`, () => {
    let opened: Opened;
    let kysely: Repository;
    let hot: HotQueries;

    before(async () => {
      opened = await openBoth(dialect);
      ({ kysely, hot } = opened);
      await kysely.insertClient(client);
    });
    after(() => opened.close());

    it('reads the same records as the repository through Kysely, and nothing for an unknown id', async () => {
      await kysely.insertGrant(grant('g1'));
      await kysely.insertRefreshToken({ id: 't1', grantId: 'g1', useCount: 0, issuedAt: NOW, expiresAt: NOW + 60 });
      for (const read of ['findClient', 'findGrant', 'findGrantLiveness', 'findRefreshToken'] as const) {
        for (const id of ['app', 'g1', 't1', 'missing']) {
          assert.deepEqual(await hot[read](id), await kysely[read](id), `${read}(${id})`);
        }
      }
      assert.deepEqual(await hot.findClient('app'), client);
      assert.deepEqual((await hot.findRefreshToken('t1'))?.grant, grant('g1'));
      assert.deepEqual(await hot.findGrantLiveness('g1'), { revokedAt: null, subject: 'alice' });
      assert.equal(await hot.findGrantLiveness('missing'), undefined);
    });

    it("reads a token's brief as the full read has it: the state columns, the scope as stored, the exchange's act", async () => {
      const exchanged: GrantRecord = {
        ...grant('g-brief'),
        scope: ['a', 'b'],
        rotationCount: 3,
        headTokenId: 't-brief-head',
        previousTokenId: 't-brief',
        rotatedAt: NOW + 7,
        revokedAt: NOW + 8,
        revokedReason: 'revoked_by_admin',
        exchange: { act: { sub: 'service-a' }, audience: 'https://api.example' },
      };
      await kysely.insertGrant(exchanged);
      await kysely.insertRefreshToken({
        id: 't-brief',
        grantId: 'g-brief',
        useCount: 1,
        issuedAt: NOW + 2,
        expiresAt: NOW + 90,
      });
      const full = await kysely.findRefreshToken('t-brief');
      assert.ok(full);
      const expected = {
        token: { id: 't-brief', useCount: 1, issuedAt: NOW + 2, expiresAt: NOW + 90 },
        grant: {
          clientId: 'app',
          subject: 'alice',
          expiresAt: full.grant.expiresAt,
          rotationCount: 3,
          headTokenId: 't-brief-head',
          previousTokenId: 't-brief',
          revokedAt: NOW + 8,
          rotatedAt: NOW + 7,
          exchange: { act: { sub: 'service-a' }, audience: 'https://api.example' },
        },
        scope: full.grant.scope.join(' '),
      };
      assert.equal(expected.scope, 'a b');
      assert.deepEqual(await hot.findRefreshTokenBrief('t-brief'), expected);
      assert.deepEqual(await kysely.findRefreshTokenBrief('t-brief'), expected);
      // A grant without an exchange has no `exchange` member, as the full read's record has none.
      await kysely.insertRefreshToken({
        id: 't-plain',
        grantId: 'g1',
        useCount: 0,
        issuedAt: NOW,
        expiresAt: NOW + 60,
      });
      const plain = await hot.findRefreshTokenBrief('t-plain');
      assert.deepEqual(plain, await kysely.findRefreshTokenBrief('t-plain'));
      assert.equal(plain && 'exchange' in plain.grant, false);
      assert.equal(plain?.scope, 'a');
      assert.equal(await hot.findRefreshTokenBrief('missing'), undefined);
      assert.equal(await kysely.findRefreshTokenBrief('missing'), undefined);
    });

    it("reads an OpenID grant's user by subject as the repository does (its claims parsed, its flags as booleans)", async () => {
      const user = {
        username: 'alice',
        passwordHash: 'scrypt$not-a-real-hash',
        createdAt: NOW,
        updatedAt: NOW + 1,
        subject: 'alice-subject',
        claims: { email: 'alice@example.com', email_verified: true, name: 'Alice' },
        disabledAt: null,
        secondFactorRequired: true,
      };
      await kysely.insertUser(user);
      assert.deepEqual(await hot.findUserBySubject('alice-subject'), user);
      assert.deepEqual(await hot.findUserBySubject('alice-subject'), await kysely.findUserBySubject('alice-subject'));
      assert.equal(await hot.findUserBySubject('alice'), undefined, 'a username is not a subject');
    });

    it('writes rows that the repository reads back as written', async () => {
      await hot.insertRefreshToken({ id: 't2', grantId: 'g1', useCount: 0, issuedAt: NOW, expiresAt: NOW + 60 });
      await hot.updateRefreshToken('t2', { useCount: 1, expiresAt: NOW + 5 });
      assert.deepEqual((await kysely.findRefreshToken('t2'))?.token, {
        id: 't2',
        grantId: 'g1',
        useCount: 1,
        issuedAt: NOW,
        expiresAt: NOW + 5,
      });
      // A rotation's three writes: t2 used, t3 its successor, the family's head moved to t3.
      await hot.rotateFamily({
        token: { id: 't2', useCount: 2, expiresAt: NOW + 5 },
        successor: { id: 't3', grantId: 'g1', useCount: 0, issuedAt: NOW + 6, expiresAt: NOW + 66 },
        grant: { id: 'g1', rotationCount: 2, headTokenId: 't3', previousTokenId: 't2', rotatedAt: NOW + 6 },
      });
      assert.equal((await kysely.findRefreshToken('t2'))?.token.useCount, 2);
      assert.deepEqual((await kysely.findRefreshToken('t3'))?.token, {
        id: 't3',
        grantId: 'g1',
        useCount: 0,
        issuedAt: NOW + 6,
        expiresAt: NOW + 66,
      });
      const family = await kysely.findGrant('g1');
      assert.deepEqual(
        [family?.rotationCount, family?.headTokenId, family?.previousTokenId, family?.rotatedAt],
        [2, 't3', 't2', NOW + 6],
      );

      assert.deepEqual(await hot.revokeGrant('g1', 'revoked_by_admin', NOW + 9), [
        { id: 'g1', clientId: 'app', subject: 'alice' },
      ]);
      assert.deepEqual(await hot.revokeGrant('g1', 'revoked_by_admin', NOW + 10), [], 'already revoked');
      assert.equal((await kysely.findGrantLiveness('g1'))?.revokedAt, NOW + 9);
      assert.equal((await kysely.findGrant('g1'))?.revokedReason, 'revoked_by_admin');

      const record = {
        collection: 'contacts',
        id: 'c1',
        owner: 'alice-subject',
        body: { email: 'a@b.example' },
        version: 1,
        createdAt: NOW,
        updatedAt: NOW,
      };
      await hot.insertRecord(record);
      assert.deepEqual(await kysely.findRecord('contacts', 'c1'), record);
    });
  });

if (DIALECTS.includes('postgres'))
  describe('the hot path in a PostgreSQL transaction', () => {
    let opened: Opened;
    before(async () => {
      opened = await openBoth('postgres');
      await opened.kysely.insertClient(client);
      await opened.kysely.insertGrant(grant('g1'));
      await opened.kysely.insertRefreshToken({
        id: 't1',
        grantId: 'g1',
        useCount: 0,
        issuedAt: NOW,
        expiresAt: NOW + 60,
      });
    });
    after(() => opened.close());

    it('locks the token’s rows FOR UPDATE, as the repository’s read in a transaction does: a second reader waits for the commit', async () => {
      const inTransaction = postgresHotQueries(opened.db, uncachedHeldAccess(opened.kysely));
      const order: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const first = opened.db.transaction().execute(async (trx) => {
        await inTransaction(trx, true).findRefreshToken('t1');
        locked();
        await held;
        await inTransaction(trx, true).updateRefreshToken('t1', { useCount: 1, expiresAt: NOW + 60 });
        order.push('first committed');
      });
      await lockTaken;
      let secondPid: number | undefined;
      const second = opened.db.transaction().execute(async (trx) => {
        secondPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]?.pid;
        const found = await inTransaction(trx, true).findRefreshToken('t1');
        order.push(`second read use_count ${found?.token.useCount}`);
      });
      try {
        // Its backend waits for a lock, as PostgreSQL itself reports it.
        const waiting = async (): Promise<boolean> =>
          secondPid !== undefined &&
          (
            await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
              where pid = ${secondPid} and wait_event_type = 'Lock'`.execute(opened.db)
          ).rows[0]?.n === 1;
        await until(waiting, 'the second transaction waits for a lock');
        assert.deepEqual(order, [], 'the second read waits on the first transaction’s lock');
      } finally {
        release();
        await Promise.all([first, second]);
      }
      assert.deepEqual(order, ['first committed', 'second read use_count 1']);
    });
  });

describe('a query template (store/query-template.ts)', () => {
  it('refuses a definition in which a parameter shapes the SQL instead of reaching it as a parameter', async () => {
    const fresh = await freshDatabase('sqlite');
    const opened = await openSqliteDatabase(fresh.url.slice('sqlite:'.length), 1000);
    try {
      assert.throws(
        () =>
          queryTemplate(opened.db, (db, p: { id: string; lock: boolean }) =>
            db
              .selectFrom('grants')
              .selectAll()
              .where('id', '=', p.id)
              .$if(p.lock, (q) => q.forUpdate()),
          ),
        /parameter 'lock' does not reach the SQL as a parameter/,
      );
      const template = queryTemplate(opened.db, (db, p: { id: string }) =>
        db.selectFrom('grants').select('id').where('id', '=', p.id).where('revoked_at', 'is', null),
      );
      assert.deepEqual(template.parameters({ id: 'g9' }), ['g9']);
    } finally {
      await opened.db.destroy();
      await fresh.drop();
    }
  });
});
