import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { registerClient } from '../src/oauth/clients/clients.js';
import { issueGrant } from '../src/oauth/tokens/grant-issuance.js';
import { digestOf } from '../src/primitives/secrets.js';
import { holderAccessQuery } from '../src/store/postgres/holder-access.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { lockedReadCall } from '../src/store/postgres/token-path-functions.js';
import { queryTemplate } from '../src/store/query-template.js';
import type { Database } from '../src/store/schema.js';
import type { Store } from '../src/store/store.js';
import { createPostgresSchema, type PostgresSchema } from './_dialects.js';

const NOW = 1_800_000_000;

describe('migration 0039: the locked read through its function answers the row the statement answers (store/postgres/token-path-functions.ts)', () => {
  let schema: PostgresSchema;
  let store: Store;
  let raw: pg.Client;
  // The statement the function stands for, compiled as the store compiles the unlocked read.
  const statement = queryTemplate(
    new Kysely<Database>({ dialect: new PostgresDialect({ pool: {} as never }) }),
    (d, p: { id: string }) => holderAccessQuery(d, p, true),
  );

  before(async () => {
    schema = await createPostgresSchema();
    store = await openPostgresStore({ connectionString: schema.url, poolSize: 1 });
    raw = new pg.Client({ connectionString: schema.url });
    await raw.connect();
  });
  after(async () => {
    await raw?.end();
    await store?.close();
    await schema?.drop();
  });

  /** Both reads of `tokenId` in one transaction: column names, order and values. */
  async function bothReads(tokenId: string) {
    await raw.query('begin');
    try {
      const viaFunction = await raw.query(lockedReadCall.sql, lockedReadCall.parameters({ id: tokenId }));
      const viaStatement = await raw.query(statement.sql, statement.parameters({ id: tokenId }));
      return { viaFunction, viaStatement };
    } finally {
      await raw.query('rollback');
    }
  }

  it('a rotated grant with an organization membership: the same columns, in order, with the same values and types', async () => {
    const { client } = await registerClient(store, { id: 'app', name: 'App', scope: ['a'] }, NOW);
    await store.insertUser({
      username: 'u1',
      passwordHash: 'x',
      createdAt: NOW,
      updatedAt: NOW,
      subject: 'u1',
      claims: {},
    });
    await store.insertOrganization({
      id: 'org-acme',
      slug: 'acme',
      name: 'Acme',
      roles: ['member'],
      policy: '{}',
      createdAt: NOW,
      updatedAt: NOW,
    });
    await store.insertOrganizationMember({
      organizationId: 'org-acme',
      subject: 'u1',
      roles: ['member'],
      source: 'operator',
      joinedAt: NOW,
    });
    const issued = await store.transaction((tx) =>
      issueGrant(tx, client, 'u1', ['a'], NOW, undefined, undefined, 'org-acme'),
    );
    const { viaFunction, viaStatement } = await bothReads(digestOf(issued.refreshToken as string));
    assert.equal(viaStatement.rows.length, 1);
    assert.deepEqual(
      viaFunction.fields.map((f) => [f.name, f.dataTypeID]),
      viaStatement.fields.map((f) => [f.name, f.dataTypeID]),
    );
    assert.deepEqual(viaFunction.rows, viaStatement.rows);
    assert.deepEqual(viaFunction.rows[0].organization, { id: 'org-acme', name: 'Acme', roles: ['member'] });
  });

  it('an unknown token: no row from either', async () => {
    const { viaFunction, viaStatement } = await bothReads(digestOf('no such token'));
    assert.equal(viaFunction.rows.length, 0);
    assert.equal(viaStatement.rows.length, 0);
  });
});
