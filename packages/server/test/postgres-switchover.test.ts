import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { clusterUnavailable, initCluster, initStandby, rebuildAsStandby, type Cluster } from './_pg-cluster.js';
import { spawnServer, type ServerProcess } from './_processes.js';
import { SHIPPED_OPENAPI } from './_server.js';
import { issueGrants, StoreLoad } from './_store-load.js';

/**
 * A controlled switchover (docs/deployment.md "Switchover") of a primary and a synchronous
 * standby of the test's own, under refresh and REST load on two `gatehouse serve` processes with a
 * multi-host DATABASE_URL and `target_session_attrs=read-write`. The steps are the ones a failover
 * manager (Patroni's `switchover`, pg_auto_failover's `perform switchover`) takes, done here with
 * pg_ctl: the primary is fenced (`default_transaction_read_only` on, reloaded: every write on the
 * connections the processes already hold answers SQLSTATE 25006), the standby promoted while the
 * fenced primary still answers, read-only, at the first host of the list; then the former primary
 * is stopped cleanly and started again as a standby of the new one, at the same address.
 *
 * What broke Keycloak (#49515, #46815) is a pool that keeps connections answering read-only and
 * fails until restarted; here the processes must throw such a connection away, never take the
 * read-only host again, and serve from the new primary without a restart.
 */
const unavailable = clusterUnavailable();
const STANDBY = 'gatehouse_standby';
const FORMER = 'gatehouse_former_primary';

describe(
  'PostgreSQL switchover under load: fence, stop cleanly, promote the standby, the former primary rejoins read-only',
  { skip: unavailable !== undefined && process.env.CI !== 'true' ? unavailable : false },
  () => {
    let primary: Cluster;
    let standby: Cluster;
    const servers: ServerProcess[] = [];
    let load: StoreLoad;
    let env: Record<string, string>;
    let authorization: string;
    let switchStarted = 0;
    let promoted = 0;

    before(async () => {
      if (unavailable) throw new Error(unavailable);
      primary = await initCluster(['-c', `synchronous_standby_names=${STANDBY}`]);
      standby = await initStandby(primary, STANDBY);
      for (let i = 0; ; i++) {
        const rows = await primary.query<{ sync_state: string }>('select sync_state from pg_stat_replication');
        if (rows[0]?.sync_state === 'sync') break;
        if (i > 100) throw new Error(`the standby is not synchronous: ${JSON.stringify(rows)}`);
        await sleep(100);
      }
      env = {
        DATABASE_URL: `postgres://postgres@${primary.host},${standby.host}/postgres?target_session_attrs=read-write`,
        ISSUER: 'http://gatehouse.test',
        OPENAPI_PATH: SHIPPED_OPENAPI,
        RATE_LIMIT_TOKEN_CLIENT: '100000/s',
        RATE_LIMIT_TOKEN_ADDRESS: '100000/s',
      };
      assert.equal(await runCli(['migrate'], env, { out: () => {}, err: () => {} }), 0);
      // Single-use refresh tokens (rotation_limit 1): a switchover has no lost COMMIT answer (the
      // fence lets no write commit before the stop), so a token rotated away must stay refused.
      const issued = await issueGrants(env, 12);
      authorization = issued.authorization;
      for (let i = 0; i < 2; i++) servers.push(await spawnServer(env));
      load = new StoreLoad(
        { urls: servers.map((s) => s.url), env, chains: 8, writers: 4 },
        authorization,
        issued.grants,
      );
    });
    /** Ms from `since` to the first refresh answered 200 after it. */
    async function firstRotationAfter(since: number, timeoutMs: number): Promise<number> {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(20)) {
        const first = Math.min(...load.superseded.flat().map((s) => (s.at >= since ? s.at : Infinity)));
        if (first !== Infinity) return first - since;
      }
      throw new Error(`no refresh answered 200 within ${timeoutMs} ms; faults: ${load.faults.slice(0, 5).join('; ')}`);
    }

    after(async () => {
      await load?.stop();
      await Promise.all(servers.map((s) => s.stop()));
      await Promise.all([primary?.destroy(), standby?.destroy()]);
    });

    it('both processes carry on against the new primary while the fenced one is still up at the first host: 503 with Retry-After during the switch, no other 5xx, no restart', async (t) => {
      const started = Date.now();
      load.start();
      await load.untilServed(started);
      const answeredBefore = load.answers.length;

      switchStarted = Date.now();
      await primary.query('alter system set default_transaction_read_only = on');
      await primary.query('select pg_reload_conf()');
      // Fenced: its writes are refused (SQLSTATE 25006), which clients see as 503s.
      await load.untilUnavailable(switchStarted);
      // Synchronous replication: the standby has every commit the fenced primary acknowledged.
      await standby.promote();
      promoted = Date.now();
      // Service is back while the read-only former primary still answers at the first host of the
      // list: the pools dropped its connections instead of failing on them until a restart. (Back:
      // a refresh rotated, a write; a read the fenced primary may still have answered.)
      const backAfterPromotion = await firstRotationAfter(promoted, 10_000);
      await load.untilServed(promoted + backAfterPromotion);
      const answeredWhileFormerUp = load.answers.filter((a) => a.at >= promoted + backAfterPromotion);
      // Not even an idle one: a connection that served reads before the switch would serve stale ones.
      const [{ n: formerConnections }] = (await primary.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`,
      )) as [{ n: string }];

      const stopping = Date.now();
      await primary.stop('fast');
      const stopped = Date.now();
      await rebuildAsStandby(primary, standby, FORMER);
      const rejoined = Date.now();
      await load.untilServed(rejoined);
      await load.stop();

      const figures = {
        answeredBeforeSwitch: answeredBefore,
        fenceToPromotionMs: promoted - switchStarted,
        backAfterPromotionMs: backAfterPromotion,
        answeredWhileFormerUp: answeredWhileFormerUp.length,
        stopMs: stopped - stopping,
        rebuildMs: rejoined - stopped,
        answered503: load.count(503),
        answered503DuringSwitch: load.count(503, switchStarted, promoted + backAfterPromotion),
        answered503AfterBack: load.count(503, promoted + backAfterPromotion),
        answeredAfterRejoin: load.answers.filter((a) => a.at >= rejoined).length,
        recordsCreated: load.records.length,
      };
      t.diagnostic(JSON.stringify(figures));

      for (const server of servers) assert.equal(server.child.exitCode, null, `a server exited: ${server.output()}`);
      assert.deepEqual(load.faults, []);
      assert.ok(figures.answered503DuringSwitch > 0, 'the switch was seen as 503');
      assert.ok(backAfterPromotion < 5000, `back ${backAfterPromotion} ms after the promotion`);
      assert.ok(
        answeredWhileFormerUp.filter((a) => a.status < 300).length > 10,
        'served from the new primary while the fenced one was up',
      );
      assert.equal(
        Number(formerConnections),
        0,
        'the processes hold no connection to the fenced primary after the switch',
      );
      assert.ok(figures.answeredAfterRejoin > 0, 'answers after the former primary rejoined');
      // The processes met the fenced primary's read-only answers (SQLSTATE 25006).
      const formerLog = readFileSync(join(primary.dir, 'log'), 'utf8');
      assert.match(formerLog, /read-only transaction/, 'writes on the fenced primary were refused as read-only');
    });

    it('the pools recycled the connections that answered read-only: none is left on the former primary, now a standby at the first host', async () => {
      const [{ in_recovery }] = (await primary.query<{ in_recovery: boolean }>(
        'select pg_is_in_recovery() as in_recovery',
      )) as [{ in_recovery: boolean }];
      assert.equal(in_recovery, true, 'the former primary is a standby now');
      const [{ n }] = (await primary.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`,
      )) as [{ n: string }];
      assert.equal(Number(n), 0, 'no connection of the processes on the read-only host');
      for (const server of servers)
        assert.equal((await fetch(`${server.url}/.well-known/oauth-authorization-server`)).status, 200);
    });

    it('no token answered 200 is lost and every record created reads back, on both processes', async () => {
      await load.assertNothingLost();
      const [{ n }] = (await standby.query<{ n: string }>('select count(*) as n from records')) as [{ n: string }];
      assert.ok(Number(n) >= load.records.length);
    });

    it('no token rotated away comes back (RFC 9700 §4.14.2): each chain’s tokens rotated around the switch are refused', async () => {
      await load.assertRotatedAwayRefused(switchStarted, promoted);
    });
  },
);
