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

describe('round trips to PostgreSQL: a refresh in two (store/postgres/pool.ts, pipelined-batch.ts), a turn’s rate-limit charges in one', () => {
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

  const refresh = (presentedToken: string, now: number) =>
    exchangeRefreshToken(new AuditTrail(store, () => {}), {
      presentedToken,
      client,
      scope: undefined,
      now,
      successors,
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
      ['begin', 'select', 'select', 'with', 'commit'],
    );
    const next = await refresh(outcome.refreshToken, NOW + 2);
    assert.equal(next.ok, true, 'the successor rotates in turn');
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
