import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ClientRecord, GrantRecord } from '../src/primitives/records.js';
import { createRepository, type Repository } from '../src/store/repository.js';
import { prepareHotQueries, type HotQueries } from '../src/store/sqlite/hot-queries.js';
import { migrateSqlite } from '../src/store/sqlite/migrations.js';
import { openSqliteDatabase, type SqliteDatabase } from '../src/store/sqlite/open.js';

const NOW = 1_800_000_000;

const client: ClientRecord = {
  id: 'app',
  name: 'App',
  secretDigest: null,
  redirectUris: ['https://app.example/cb'],
  grantTypes: ['refresh_token'],
  scope: ['a', 'b'],
  policy: {
    rotation: true,
    rotationLimit: 1,
    maxRotations: null,
    refreshTokenTtl: 3600,
    refreshTokenAbsoluteTtl: 86_400,
    replayWindow: 0,
  },
  accessTokenTtl: 300,
  resourceServer: false,
  createdAt: NOW,
  idTokenAlg: 'RS256',
  postLogoutRedirectUris: [],
  admin: false,
};

const grant = (id: string): GrantRecord => ({
  id,
  clientId: 'app',
  subject: 'alice',
  scope: ['a'],
  createdAt: NOW,
  expiresAt: NOW + 86_400,
  rotationCount: 0,
  headTokenId: null,
  previousTokenId: null,
  revokedAt: null,
  revokedReason: null,
  rotatedAt: null,
});

describe('the SQLite hot path (queries compiled once from the repository’s definitions)', () => {
  let dir: string;
  let opened: SqliteDatabase;
  let kysely: Repository;
  let hot: HotQueries;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-hot-'));
    opened = await openSqliteDatabase(join(dir, 'hot.db'), 1000);
    await migrateSqlite(opened, 'apply');
    kysely = createRepository(opened.db, { lockRows: false });
    hot = prepareHotQueries(opened.database, opened.db);
    await kysely.insertClient(client);
  });
  after(async () => {
    await opened.db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

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
