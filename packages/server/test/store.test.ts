import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { registerClient } from '../src/oauth/clients/clients.js';
import { issueGrant } from '../src/oauth/tokens/grant-issuance.js';
import { exchangeRefreshToken } from '../src/oauth/tokens/refresh-token-lifecycle.js';
import { AuditTrail } from '../src/audit/audit.js';
import type { ClientRecord } from '../src/primitives/records.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { DIALECTS, executeStatements, freshDatabase } from './_dialects.js';
import { RefreshSuccessors } from '../src/oauth/tokens/refresh-successors.js';

const NOW = 1_800_000_000;

/** The audit trail of a store, its events logged nowhere (these tests read the store). */
const trailOf = (store: Store): AuditTrail => new AuditTrail(store, () => {});

for (const dialect of DIALECTS)
  describe(`the store [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let first: Store;
    let second: Store;
    let client: ClientRecord;

    before(async () => {
      database = await freshDatabase(dialect);
      first = await openStore(database.url);
      // A second connection (pool) on the same database stands for a second process.
      second = await openStore(database.url);
      ({ client } = await registerClient(first, { id: 'app', name: 'App', scope: ['a'] }, NOW));
    });
    after(async () => {
      await first.close();
      await second.close();
      await database.drop();
    });

    it('REST writes sent in one turn: a refused one (a duplicate id) fails alone; the writes before and after it, and a transaction between them, are stored', async () => {
      const record = (id: string) => ({
        collection: 'contacts',
        id,
        owner: 'alice',
        body: { email: `${id}@example.com` },
        version: 1,
        createdAt: NOW,
        updatedAt: NOW,
      });
      await first.insertRecord(record('w0'));
      // Not awaited one by one: on SQLite they share one group commit, each write without a savepoint.
      const outcomes = await Promise.allSettled([
        first.insertRecord(record('w1')),
        first.insertRecord(record('w0')),
        first.transaction(async (tx) => {
          await tx.insertRecord(record('w2'));
          await tx.insertRecord(record('w3'));
        }),
        first.insertRecord(record('w4')),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
      );
      for (const id of ['w0', 'w1', 'w2', 'w3', 'w4'])
        assert.deepEqual(await second.findRecord('contacts', id), record(id), `${id} is stored`);
      const changed = await Promise.all([
        first.updateRecord('contacts', 'w1', { email: 'w1@example.org' }, 1, NOW + 1),
        first.updateRecord('contacts', 'w1', { email: 'w1@example.net' }, 1, NOW + 1),
        first.deleteRecord('contacts', 'w4', 1),
      ]);
      // Exactly one update of version 1 wins. SQLite runs them in the order sent, in one group commit;
      // PostgreSQL sends them over two pooled connections, so either may come first.
      assert.equal(changed[2], true, 'the delete of version 1 finds it');
      assert.deepEqual(
        [changed[0], changed[1]].sort(),
        [false, true],
        'the second update of version 1 finds version 2',
      );
      if (dialect === 'sqlite') assert.deepEqual(changed, [true, false, true], 'in the order sent');
      const won = changed[0] === true ? 'w1@example.org' : 'w1@example.net';
      assert.deepEqual((await second.findRecord('contacts', 'w1'))?.body, { email: won });
      assert.equal(await second.findRecord('contacts', 'w4'), undefined);
    });

    it('rotation is one atomic step: of 20 concurrent exchanges over two connections exactly one succeeds', async () => {
      const { refreshToken } = await first.transaction((tx) => issueGrant(tx, client, 'alice', ['a'], NOW));
      const exchange = async (store: Store) =>
        exchangeRefreshToken(trailOf(store), {
          presentedToken: refreshToken as string,
          client,
          scope: undefined,
          now: NOW + 1,
          successors: await RefreshSuccessors.load(store),
        });
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => exchange(i % 2 === 0 ? first : second)));
      assert.equal(outcomes.filter((o) => o.ok).length, 1);
      for (const o of outcomes) if (!o.ok) assert.equal(o.reason, 'refresh_token_past_rotation_limit');
    });

    it('rotateFamily writes the used token, its successor and the family head together, and without a successor at the last rotation', async () => {
      const { grant, refreshToken } = await first.transaction((tx) => issueGrant(tx, client, 'rotating', ['a'], NOW));
      const head = (await first.findGrant(grant.id))?.headTokenId as string;
      assert.ok(refreshToken && head);
      await first.transaction((tx) =>
        tx.rotateFamily({
          token: { id: head, useCount: 1, expiresAt: NOW + 50 },
          successor: { id: 'successor-1', grantId: grant.id, useCount: 0, issuedAt: NOW + 1, expiresAt: NOW + 60 },
          grant: {
            id: grant.id,
            rotationCount: 1,
            headTokenId: 'successor-1',
            previousTokenId: head,
            rotatedAt: NOW + 1,
          },
        }),
      );
      const used = await second.findRefreshToken(head);
      assert.deepEqual([used?.token.useCount, used?.token.expiresAt], [1, NOW + 50]);
      assert.deepEqual((await second.findRefreshToken('successor-1'))?.token, {
        id: 'successor-1',
        grantId: grant.id,
        useCount: 0,
        issuedAt: NOW + 1,
        expiresAt: NOW + 60,
      });
      await first.transaction((tx) =>
        tx.rotateFamily({
          token: { id: 'successor-1', useCount: 1, expiresAt: NOW + 60 },
          successor: null,
          grant: {
            id: grant.id,
            rotationCount: 2,
            headTokenId: null,
            previousTokenId: 'successor-1',
            rotatedAt: NOW + 2,
          },
        }),
      );
      const family = await second.findGrant(grant.id);
      assert.deepEqual(
        [family?.rotationCount, family?.headTokenId, family?.previousTokenId, family?.rotatedAt],
        [2, null, 'successor-1', NOW + 2],
      );
      assert.equal((await second.findRefreshToken('successor-1'))?.token.useCount, 1);
    });

    it('a transaction whose work throws writes nothing', async () => {
      let grantId = '';
      await assert.rejects(
        first.transaction(async (tx) => {
          grantId = (await issueGrant(tx, client, 'rolled-back', ['a'], NOW)).grant.id;
          assert.ok(await tx.findGrant(grantId), 'visible inside the transaction');
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await first.findGrant(grantId), undefined);
      assert.equal(await second.findGrant(grantId), undefined);
    });

    it('a rotation whose transaction fails after its writes consumes nothing: the retry with the same token succeeds', async () => {
      const { refreshToken } = await first.transaction((tx) => issueGrant(tx, client, 'failover', ['a'], NOW));
      const successors = await RefreshSuccessors.load(first);
      const request = { presentedToken: refreshToken as string, client, scope: undefined, now: NOW + 1, successors };
      // The rotation's writes are done, then the transaction fails as a lost COMMIT would: all rolled back.
      const failing: Store = {
        ...first,
        transaction: (work) =>
          first.transaction(async (tx) => {
            await work(tx);
            throw new Error('the commit failed');
          }),
      };
      await assert.rejects(exchangeRefreshToken(trailOf(failing), request), /the commit failed/);
      const retried = await exchangeRefreshToken(trailOf(second), request);
      assert.equal(retried.ok, true, 'the token was not used up by the failed rotation');
    });

    it('an OpenID refresh notes the grant use in its rotation: a rotation whose transaction fails records no use', async () => {
      const { refreshToken, grant } = await first.transaction(async (tx) => {
        const issued = await issueGrant(tx, client, 'carol', ['openid'], NOW);
        await tx.insertGrantAuthentication(issued.grant.id, NOW - 5);
        return issued;
      });
      const successors = await RefreshSuccessors.load(first);
      const request = { presentedToken: refreshToken as string, client, scope: undefined, now: NOW + 1, successors };
      const failing: Store = {
        ...first,
        transaction: (work) =>
          first.transaction(async (tx) => {
            await work(tx);
            throw new Error('the commit failed');
          }),
      };
      const lastUsed = async () =>
        (await second.listAccountGrants('carol', NOW + 2)).find((g) => g.grant.id === grant.id)?.lastUsedAt;
      await assert.rejects(exchangeRefreshToken(trailOf(failing), request), /the commit failed/);
      assert.equal(await lastUsed(), null, 'no use recorded for the failed rotation');
      const retried = await exchangeRefreshToken(trailOf(second), request);
      assert.equal(retried.ok && retried.signIn?.authTime, NOW - 5, 'the sign-in time read in the same statement');
      assert.equal(await lastUsed(), NOW + 1);
    });

    it('what one connection commits, the other reads at once', async () => {
      const { grant } = await first.transaction((tx) => issueGrant(tx, client, 'bob', ['a'], NOW));
      assert.equal((await second.findGrant(grant.id))?.subject, 'bob');
      assert.deepEqual(
        (await second.revokeGrant(grant.id, 'revoked_by_admin', NOW)).map((g) => g.id),
        [grant.id],
      );
      assert.equal((await first.findGrant(grant.id))?.revokedReason, 'revoked_by_admin');
      assert.deepEqual(
        await first.revokeGrant(grant.id, 'revoked_by_admin', NOW),
        [],
        'revoking twice reports it was already revoked',
      );
    });

    it('users are found by e-mail address compared lowercased, through inserts and claim changes; 0025 fills the index for users made before it', async () => {
      const user = (username: string, email: string) => ({
        username,
        passwordHash: 'x',
        createdAt: NOW,
        updatedAt: NOW,
        subject: `sub-${username}`,
        claims: { email },
      });
      await first.insertUser(user('erin', 'Erin@Example.COM'));
      assert.deepEqual(
        (await first.listUsersWithEmail('erin@example.com')).map((u) => u.username),
        ['erin'],
      );
      assert.deepEqual(await first.listUsersWithEmail('erin@example.org'), []);
      await first.updateUserClaims('erin', { email: 'erin@example.org' }, NOW);
      assert.deepEqual(await first.listUsersWithEmail('ERIN@example.com'), []);
      assert.deepEqual(
        (await first.listUsersWithEmail('Erin@Example.org')).map((u) => u.username),
        ['erin'],
      );
      // A database as a version before 0025 left it, with a user: the migration fills the column.
      const earlier = await freshDatabase(dialect);
      try {
        const store = await openStore(earlier.url);
        await store.insertUser(user('fred', 'FRED@example.com'));
        await store.insertUser(user('gina', 'gina@example.com'));
        await store.close();
        await executeStatements(dialect, earlier.url, [
          'drop index users_email_normalized',
          'alter table users drop column email_normalized',
          "delete from kysely_migration where name = '0025_user_emails'",
        ]);
        const migrated = await openStore(earlier.url);
        try {
          assert.deepEqual(migrated.appliedMigrations, ['0025_user_emails']);
          assert.deepEqual(
            (await migrated.listUsersWithEmail('fred@EXAMPLE.com')).map((u) => u.username),
            ['fred'],
          );
        } finally {
          await migrated.close();
        }
      } finally {
        await earlier.drop();
      }
    });

    it('opening a migrated database applies nothing, and checking it passes', async () => {
      const again = await openStore(database.url);
      assert.deepEqual(again.appliedMigrations, []);
      await again.close();
      const checked = await openStore(database.url, { migrations: 'check' });
      await checked.close();
    });

    it('a database with pending migrations is refused when migrations are only checked, naming the command that fixes it', async () => {
      const empty = await freshDatabase(dialect);
      try {
        await assert.rejects(
          openStore(empty.url, { migrations: 'check' }),
          /lacks migrations 0001_initial.*run gatehouse migrate/,
        );
      } finally {
        await empty.drop();
      }
    });
  });
