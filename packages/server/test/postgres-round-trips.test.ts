import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AuditTrail } from '../src/audit/audit.js';
import { registerClient } from '../src/oauth/clients/clients.js';
import { issueGrant } from '../src/oauth/tokens/grant-issuance.js';
import { RefreshSuccessors } from '../src/oauth/tokens/refresh-successors.js';
import { exchangeRefreshToken } from '../src/oauth/tokens/refresh-token-lifecycle.js';
import type { ClientRecord } from '../src/primitives/records.js';
import { digestOf } from '../src/primitives/secrets.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import type { Store } from '../src/store/store.js';
import type { HolderAccessRead } from '../src/store/access-resolution.js';
import type { RoleScope } from '../src/store/role-repository.js';
import { createPostgresSchema, type PostgresSchema } from './_dialects.js';

const NOW = 1_800_000_000;

/**
 * Counts the client's round trips to PostgreSQL: the messages after which it waits for the server's
 * ReadyForQuery, Sync (extended protocol) and Query (simple protocol) — PostgreSQL protocol, "Message
 * Flow" — as bench/lib/pg-count-proxy.mjs counts them for `refresh-pg`; also the SQL it sends.
 */
class RoundTripCounter {
  readonly #server = net.createServer((client) => this.#relay(client));
  roundTrips = 0;
  statements: string[] = [];

  async listen(target: URL): Promise<string> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.#target = { host: target.hostname, port: Number(target.port || 5432) };
    const url = new URL(target);
    url.host = `127.0.0.1:${(this.#server.address() as net.AddressInfo).port}`;
    return url.toString();
  }

  #target = { host: '127.0.0.1', port: 5432 };

  async close(): Promise<void> {
    this.#server.close();
    await once(this.#server, 'close').catch(() => {});
  }

  #relay(client: net.Socket): void {
    const upstream = net.connect(this.#target);
    let pending = Buffer.alloc(0);
    let started = false;
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut).on('close', cut);
    upstream.on('error', cut).on('close', cut);
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const header = started ? 1 : 0;
        if (pending.length < header + 4) break;
        const end = header + pending.readInt32BE(header);
        if (pending.length < end) break;
        const message = pending.subarray(0, end);
        pending = pending.subarray(end);
        // SSLRequest / GSSENCRequest come before the startup message, also without a type byte.
        if (!started) {
          const code = message.readInt32BE(4);
          started = code !== 80877103 && code !== 80877104;
          continue;
        }
        const type = String.fromCharCode(message[0] as number);
        if (type === 'S' || type === 'Q') this.roundTrips += 1;
        if (type === 'Q') this.statements.push(message.subarray(5, -1).toString());
        if (type === 'P') {
          const start = message.indexOf(0, 5) + 1;
          this.statements.push(message.subarray(start, message.indexOf(0, start)).toString());
        }
      }
      upstream.write(chunk);
    });
  }
}

describe('round trips to PostgreSQL: a refresh in two (store/postgres/pool.ts, pipelined-batch.ts), with what its user holds (store/postgres/holder-access.ts); a turn’s rate-limit charges in one', () => {
  let schema: PostgresSchema;
  const counter = new RoundTripCounter();
  let store: Store;
  let client: ClientRecord;
  let successors: RefreshSuccessors;

  before(async () => {
    schema = await createPostgresSchema();
    // One connection: every transaction below also finds the connection the one before left.
    store = await openPostgresStore({ connectionString: await counter.listen(new URL(schema.url)), poolSize: 1 });
    ({ client } = await registerClient(store, { id: 'app', name: 'App', scope: ['a'] }, NOW));
    successors = await RefreshSuccessors.load(store);
  });
  after(async () => {
    await store?.close();
    await counter.close();
    await schema?.drop();
  });

  const refresh = (presentedToken: string, now: number, holderAccess?: HolderAccessRead) =>
    exchangeRefreshToken(new AuditTrail(store, () => {}), {
      presentedToken,
      client,
      scope: undefined,
      now,
      successors,
      holderAccess,
    });

  it('RFC 6749 §6 rotation: BEGIN goes with the locked read, the rotation’s writes with the COMMIT; the successor works', async () => {
    const { refreshToken } = await store.transaction((tx) => issueGrant(tx, client, 'u1', ['a'], NOW));
    const before = counter.roundTrips;
    counter.statements = [];
    const outcome = await refresh(refreshToken as string, NOW + 1);
    assert.ok(outcome.ok && outcome.refreshToken);
    assert.equal(counter.roundTrips - before, 2, counter.statements.join('\n'));
    assert.deepEqual(
      counter.statements.map((s) => s.trim().split(/\s+/)[0]?.toLowerCase()),
      ['begin', 'select', 'select', 'select', 'commit'],
    );
    // The rotation is a call of migration 0039's function, whose plans PostgreSQL keeps.
    assert.match(counter.statements[3] ?? '', /^select refresh_token_rotate\(/);
    const next = await refresh(outcome.refreshToken, NOW + 2);
    assert.equal(next.ok, true, 'the successor rotates in turn');
  });

  it('a user with groups, roles and an organization (RFC 9068 §2.2.3.1): exactly 2 round trips once its groups and roles are kept under the row epoch the locked read reads, 3 the first time', async () => {
    // Groups with a parent; roles direct, through a group, through the parent, server-wide and of another API.
    for (const subject of ['u4', 'u5'])
      await store.insertUser({
        username: subject,
        passwordHash: 'x',
        createdAt: NOW,
        updatedAt: NOW,
        subject,
        claims: {},
      });
    const company = { id: 'grp-company', name: 'company', parentId: null, createdAt: NOW };
    await store.insertGroupIfAbsent(company);
    for (let i = 0; i < 50; i++) {
      const id = `grp-${i}`;
      await store.insertGroupIfAbsent({
        id,
        name: `team-${String(i).padStart(2, '0')}`,
        parentId: company.id,
        createdAt: NOW,
      });
      await store.addGroupMember(id, 'u4', NOW);
    }
    const role = async (id: string, scope: RoleScope, to: { kind: 'user' | 'group'; id: string }) => {
      await store.insertRoleIfAbsent({ id, name: id, scope, description: null, builtIn: false, createdAt: NOW });
      await store.assignRole(id, to, NOW);
    };
    for (let i = 0; i < 17; i++)
      await role(`reader-${i}`, { kind: 'api', audience: '/v2' }, { kind: 'user', id: 'u4' });
    await role('writer', { kind: 'api', audience: '/v2' }, { kind: 'group', id: 'grp-7' });
    await role('staff', { kind: 'server' }, { kind: 'group', id: company.id });
    await role('invoices', { kind: 'api', audience: 'billing' }, { kind: 'user', id: 'u4' });
    // Assigned twice (to the user and through a group): named once.
    await store.assignRole('writer', { kind: 'user', id: 'u4' }, NOW);
    await store.insertOrganization({
      id: 'org-acme',
      slug: 'acme',
      name: 'Acme',
      roles: ['member', 'billing-admin'],
      policy: '{}',
      createdAt: NOW,
      updatedAt: NOW,
    });
    await store.insertOrganizationMember({
      organizationId: 'org-acme',
      subject: 'u4',
      roles: ['member'],
      source: 'operator',
      joinedAt: NOW,
    });
    const issued = await store.transaction((tx) =>
      issueGrant(tx, client, 'u4', ['a'], NOW, undefined, undefined, 'org-acme'),
    );
    const measured = async (presented: string, now: number, holderAccess: HolderAccessRead) => {
      const before = counter.roundTrips;
      counter.statements = [];
      const outcome = await refresh(presented, now, holderAccess);
      assert.ok(outcome.ok);
      return {
        outcome,
        roundTrips: counter.roundTrips - before,
        statements: counter.statements.map((s) => s.trim().split(/\s+/)[0]?.toLowerCase()),
      };
    };
    // Not yet in memory: its groups and roles read in the transaction, after the locked read.
    const first = await measured(issued.refreshToken as string, NOW + 1, { api: '/v2' });
    assert.equal(first.roundTrips, 3, counter.statements.join('\n'));
    assert.deepEqual(first.statements, ['begin', 'select', 'select', 'with', 'select', 'commit']);
    // The same rule as the read of its own (store/access-resolution.ts), and the membership.
    const held = await store.heldAccess('u4', '/v2');
    assert.equal(held.groups.length, 51);
    assert.equal(held.roles.length, 19);
    assert.deepEqual(first.outcome.holder?.held, held);
    assert.deepEqual(first.outcome.holder?.organization, { id: 'org-acme', name: 'Acme', roles: ['member'] });
    // Kept under the epoch its locked read read: the transaction's two round trips.
    const kept = await measured(first.outcome.refreshToken as string, NOW + 2, { api: '/v2' });
    assert.equal(kept.roundTrips, 2, counter.statements.join('\n'));
    assert.deepEqual(kept.statements, ['begin', 'select', 'select', 'select', 'commit']);
    // A refresh's locked read with what its user holds, and its rotation: calls of migration 0039's functions.
    assert.match(counter.statements[2] ?? '', /^select \* from refresh_token_locked_read\(\$1\)$/);
    assert.match(counter.statements[3] ?? '', /^select refresh_token_rotate\(/);
    assert.deepEqual(kept.outcome.holder, first.outcome.holder);
    // A role taken away before the refresh began advanced the epoch (migration 0035): read anew.
    assert.equal(await store.unassignRole('writer', { kind: 'user', id: 'u4' }), true);
    assert.equal(await store.unassignRole('writer', { kind: 'group', id: 'grp-7' }), true);
    const changed = await measured(kept.outcome.refreshToken as string, NOW + 3, { api: '/v2' });
    assert.equal(changed.roundTrips, 3, counter.statements.join('\n'));
    assert.deepEqual(
      changed.outcome.holder?.held.roles,
      held.roles.filter((name) => name !== 'writer'),
    );
    // A membership left is seen at once: it is read in the locked read itself.
    assert.equal(await store.removeOrganizationMember('org-acme', 'u4'), true);
    const left = await measured(changed.outcome.refreshToken as string, NOW + 4, { api: '/v2' });
    assert.equal(left.roundTrips, 2, counter.statements.join('\n'));
    assert.equal(left.outcome.holder?.organization, null);
    const outcome = left.outcome;
    // A user with none: empty lists, no organization.
    const plain = await store.transaction((tx) => issueGrant(tx, client, 'u5', ['a'], NOW));
    const none = await refresh(plain.refreshToken as string, NOW + 1, { api: null });
    assert.ok(none.ok);
    assert.deepEqual(none.holder, { held: { groups: [], roles: [] }, organization: null });
    // A null API: the server-wide roles only.
    const noApi = await refresh(outcome.refreshToken as string, NOW + 5, { api: null });
    assert.ok(noApi.ok);
    assert.deepEqual(noApi.holder?.held.roles, ['staff']);
  });

  it('a held-back write that fails fails the COMMIT: nothing of the transaction is stored, and the connection serves the next one', async () => {
    const { refreshToken, grant } = await store.transaction((tx) => issueGrant(tx, client, 'u3', ['a'], NOW));
    const presented = digestOf(refreshToken as string);
    await assert.rejects(
      store.transaction(async (tx) => {
        const found = await tx.findRefreshToken(presented);
        assert.ok(found);
        // The successor's id is the presented token's own: the insert breaks the primary key, at the COMMIT.
        await tx.rotateFamily({
          token: { id: presented, useCount: 1, expiresAt: found.token.expiresAt },
          successor: { ...found.token, id: presented },
          grant: { id: grant.id, rotationCount: 1, headTokenId: presented, previousTokenId: null, rotatedAt: NOW + 1 },
        });
      }),
      (error: { code?: string }) => error.code === '23505',
    );
    const unchanged = await store.findRefreshToken(presented);
    assert.equal(unchanged?.token.useCount, 0, 'the token’s update was rolled back with the insert');
    assert.equal(unchanged?.grant.rotationCount, 0);
    const outcome = await refresh(refreshToken as string, NOW + 1);
    assert.equal(outcome.ok, true, 'the same connection, clean, rotates the token');
  });

  it('the rate-limit charges of one event-loop turn are one round trip; the GCRA answers each request in the order it asked', async () => {
    const policy = { limit: 3, periodMs: 60_000 };
    const before = counter.roundTrips;
    const nowMs = NOW * 1000;
    const waits = await Promise.all(
      [1, 2, 3, 4, 5].map(() =>
        store.rateLimits.consume(
          [
            { bucket: 'token:client:turn', policy },
            { bucket: 'token:address:192.0.2.7', policy: { limit: 100, periodMs: 60_000 } },
          ],
          nowMs,
        ),
      ),
    );
    assert.equal(counter.roundTrips - before, 1);
    assert.deepEqual(
      waits.map(([client]) => client === 0),
      [true, true, true, false, false],
    );
    // The fourth would be allowed once one emission interval (20 s) has passed since the bucket was full.
    assert.deepEqual(
      waits.slice(3).map(([client]) => client),
      [20_000, 20_000],
    );
    assert.ok(waits.every(([, address]) => address === 0));
    // A later turn sees the bucket as the first one left it.
    assert.ok((await store.rateLimits.consume([{ bucket: 'token:client:turn', policy }], nowMs))[0]! > 0);
    assert.deepEqual(await store.rateLimits.consume([{ bucket: 'token:client:turn', policy }], nowMs + 20_000), [0]);
  });

  it('a transaction that sends no statement sends nothing at all, not even BEGIN', async () => {
    const before = counter.roundTrips;
    assert.equal(await store.transaction(() => Promise.resolve(7)), 7);
    await assert.rejects(
      store.transaction(() => Promise.reject(new Error('refused before any read'))),
      /refused before any read/,
    );
    assert.equal(counter.roundTrips, before);
  });
});
