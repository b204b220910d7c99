import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { AuditTrail } from '../src/audit/audit.js';
import { registerClient } from '../src/oauth/clients/clients.js';
import { issueGrant } from '../src/oauth/tokens/grant-issuance.js';
import { RefreshSuccessors } from '../src/oauth/tokens/refresh-successors.js';
import { exchangeRefreshToken } from '../src/oauth/tokens/refresh-token-lifecycle.js';
import type { ClientRecord } from '../src/primitives/records.js';
import { openStore } from '../src/store/open.js';
import { runTransaction } from '../src/store/postgres/errors.js';
import { commitOutcome } from '../src/store/postgres/in-doubt.js';
import { createPool, DEFAULT_POOL_SETTINGS, SERVER_LIFE } from '../src/store/postgres/pool.js';
import { StoreBusyError, type Store } from '../src/store/store.js';
import { createPostgresSchema, type PostgresSchema } from './_dialects.js';

const NOW = 1_800_000_000;

/**
 * A COMMIT whose answer is lost (docs/deployment.md, "Database outages and failover"). The store
 * reaches PostgreSQL through a proxy that, once armed, cuts the connection at the next COMMIT:
 * `after` passes the COMMIT on and cuts as the database answers (it was applied, the store never
 * hears so), `before` cuts instead of passing it on (it never arrives, the database rolls back).
 */
class CommitCutter {
  readonly #server = net.createServer((client) => this.#relay(client));
  #armed: 'after' | 'before' | undefined;
  cuts = 0;

  async listen(target: URL): Promise<URL> {
    this.#target = { host: target.hostname, port: Number(target.port || 5432) };
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    const url = new URL(target);
    url.host = `127.0.0.1:${(this.#server.address() as net.AddressInfo).port}`;
    return url;
  }

  #target = { host: '127.0.0.1', port: 5432 };

  arm(mode: 'after' | 'before'): void {
    this.#armed = mode;
  }

  async close(): Promise<void> {
    this.#server.close();
    await once(this.#server, 'close').catch(() => {});
  }

  /** Relays one connection message by message (PostgreSQL protocol 3: the startup message, then type byte + length). */
  #relay(client: net.Socket): void {
    const upstream = net.connect(this.#target);
    let pending = Buffer.alloc(0);
    let started = false;
    let cutOnAnswer = false;
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut);
    upstream.on('error', cut);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.on('data', (chunk: Buffer) => (cutOnAnswer ? cut() : client.write(chunk)));
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const header = started ? 1 : 0;
        if (pending.length < header + 4) return;
        const end = header + pending.readInt32BE(header);
        if (pending.length < end) return;
        const message = pending.subarray(0, end);
        pending = pending.subarray(end);
        started = true;
        const query = header === 1 ? statementOf(message) : '';
        if (query === 'commit' && this.#armed !== undefined) {
          const mode = this.#armed;
          this.#armed = undefined;
          this.cuts++;
          if (mode === 'before') return cut();
          cutOnAnswer = true;
        }
        upstream.write(message);
      }
    });
  }
}

/** The SQL of a Query message (simple protocol) or of a Parse message (extended: a name, then the SQL). */
function statementOf(message: Buffer): string {
  if (message[0] === 0x51) return message.subarray(5, -1).toString().trim().toLowerCase();
  if (message[0] !== 0x50) return '';
  const sqlStart = message.indexOf(0, 5) + 1;
  return message.subarray(sqlStart, message.indexOf(0, sqlStart)).toString().trim().toLowerCase();
}

describe('a COMMIT whose answer is lost, on PostgreSQL (store/postgres/in-doubt.ts)', () => {
  let schema: PostgresSchema;
  const cutter = new CommitCutter();
  let store: Store;
  let direct: Store;
  let client: ClientRecord;

  before(async () => {
    schema = await createPostgresSchema();
    direct = await openStore(schema.url);
    store = await openStore((await cutter.listen(new URL(schema.url))).toString());
    ({ client } = await registerClient(direct, { id: 'app', name: 'App', scope: ['a'] }, NOW));
  });
  after(async () => {
    await store?.close();
    await direct?.close();
    await cutter.close();
    await schema?.drop();
  });

  it('applied, its answer cut: the database is asked (pg_xact_status), and the work’s result is the answer; the work ran once', async () => {
    let runs = 0;
    cutter.arm('after');
    const cuts = cutter.cuts;
    const grantId = await store.transaction(async (tx) => {
      runs++;
      return (await issueGrant(tx, client, 'applied', ['a'], NOW)).grant.id;
    });
    assert.equal(cutter.cuts, cuts + 1, 'the COMMIT was cut');
    assert.equal(runs, 1);
    assert.equal((await direct.findGrant(grantId))?.subject, 'applied');
  });

  it('never arrived: the database rolled it back, and the work runs again on a new connection, its writes stored once', async () => {
    const ids: string[] = [];
    cutter.arm('before');
    const cuts = cutter.cuts;
    const grantId = await store.transaction(async (tx) => {
      const { grant } = await issueGrant(tx, client, 'resent', ['a'], NOW);
      ids.push(grant.id);
      return grant.id;
    });
    assert.equal(cutter.cuts, cuts + 1, 'the COMMIT was cut');
    assert.equal(ids.length, 2, 'run again');
    assert.equal(grantId, ids[1]);
    assert.equal(await direct.findGrant(ids[0] as string), undefined, 'the first run left nothing');
    assert.equal((await direct.findGrant(grantId))?.subject, 'resent');
  });

  it('a refresh (RFC 6749 §6) whose rotation was applied but whose answer was cut answers 200 with the new token, which works; the presented one is used up', async () => {
    const { refreshToken } = await direct.transaction((tx) => issueGrant(tx, client, 'rotating', ['a'], NOW));
    const successors = await RefreshSuccessors.load(direct);
    const trail = (s: Store) => new AuditTrail(s, () => {});
    const request = { presentedToken: refreshToken as string, client, scope: undefined, now: NOW + 1, successors };
    cutter.arm('after');
    const outcome = await exchangeRefreshToken(trail(store), request);
    assert.ok(outcome.ok && outcome.refreshToken, 'answered as rotated');
    const next = await exchangeRefreshToken(trail(direct), {
      ...request,
      presentedToken: outcome.refreshToken,
      now: NOW + 2,
    });
    assert.equal(next.ok, true, 'the token answered works');
    const again = await exchangeRefreshToken(trail(direct), { ...request, now: NOW + 3 });
    assert.deepEqual(again, { ok: false, reason: 'refresh_token_past_rotation_limit' });
  });

  it('each COMMIT in doubt is counted by its outcome, for the metrics (gatehouse_store_commits_in_doubt_total)', () => {
    // The three cuts above: two applied (a transaction, a refresh), one that never arrived.
    assert.deepEqual(Object.fromEntries(store.commitsInDoubt?.() ?? []), { committed: 2, aborted: 1, unknown: 0 });
    assert.deepEqual(Object.fromEntries(direct.commitsInDoubt?.() ?? []), { committed: 0, aborted: 0, unknown: 0 });
  });

  it('the answer is trusted only from the server life the transaction ran in: another life (a crash, a restart, a failover) is unknown, a 503', async () => {
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: createPool(schema.url, { ...DEFAULT_POOL_SETTINGS, max: 1 }) }),
    });
    try {
      const { rows } = await sql<{
        xid: string;
        life: string;
      }>`select pg_current_xact_id()::text as xid, ${sql.raw(SERVER_LIFE)} as life`.execute(db);
      const begun = rows[0] as { xid: string; life: string };
      assert.equal(await commitOutcome(db, begun), 'committed');
      assert.equal(await commitOutcome(db, { ...begun, life: `${begun.life} (before a crash)` }), 'unknown');
      assert.equal(await commitOutcome(db, { ...begun, xid: '' }), 'unknown', 'no id: nothing to ask');
    } finally {
      await db.destroy();
    }
  });

  it('unknown is a StoreBusyError (503 with Retry-After), aborted runs the work again, and a cancelled wait for a synchronous standby is not asked about', async () => {
    const lost = () => new Error('Connection terminated unexpectedly');
    const cancelled = () => Object.assign(new Error('canceling wait for synchronous replication'), { code: '57014' });
    const inCommit = (outcome: 'committed' | 'aborted' | 'unknown', error = lost) => {
      const asked: string[] = [];
      let runs = 0;
      const settled = runTransaction<string, number>(
        async (committing) => {
          runs++;
          committing({ begun: `xid-${runs}`, result: runs });
          if (runs === 1) throw error();
          return runs;
        },
        async (begun) => {
          asked.push(begun);
          return outcome;
        },
      );
      return { settled, asked: () => asked, runs: () => runs };
    };
    const committed = inCommit('committed');
    assert.equal(await committed.settled, 1);
    assert.deepEqual(committed.asked(), ['xid-1']);
    const aborted = inCommit('aborted');
    assert.equal(await aborted.settled, 2, 'run again');
    const unknown = inCommit('unknown');
    await assert.rejects(unknown.settled, StoreBusyError);
    assert.equal(unknown.runs(), 1, 'not run again: it may have been applied');
    const standby = inCommit('committed', cancelled);
    await assert.rejects(standby.settled, StoreBusyError);
    assert.deepEqual(standby.asked(), [], 'applied on the primary alone is not answered as committed');
  });
});
