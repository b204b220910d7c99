import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runCli } from '../src/cli/run.js';
import { patroniUnavailable, startPatroniPair, type PatroniPair } from './_patroni.js';
import { spawnServer, type ServerProcess } from './_processes.js';
import { SHIPPED_OPENAPI } from './_server.js';
import { issueGrants, StoreLoad } from './_store-load.js';

/**
 * A real switchover of a Patroni-managed pair (docs/deployment.md "Switchover"): etcd and
 * two Patroni nodes of the test's own (synchronous_mode), two `gatehouse serve` processes on the
 * host list with `target_session_attrs=read-write`, under refresh and REST load. `patronictl
 * switchover` demotes the leader (checkpoint, fast stop), promotes the synchronous standby and
 * starts the former leader again as a standby of the new one, at the first host of the list.
 *
 * Patroni stops the leader with `pg_ctl stop -m fast`: a COMMIT in flight then may have been applied
 * although its connection was cut before the answer (a 503). The load's client has a replay window
 * (docs/refresh-tokens.md) for that case: presenting the same token again gets the same successor.
 */
const unavailable = patroniUnavailable();

async function query<R extends pg.QueryResultRow>(host: string, text: string): Promise<R[]> {
  const client = new pg.Client({
    connectionString: `postgres://postgres@${host}/postgres`,
    connectionTimeoutMillis: 5000,
  });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

describe(
  'PostgreSQL switchover by Patroni under load on two processes',
  { skip: unavailable !== undefined && process.env.CI !== 'true' ? unavailable : false },
  () => {
    let pair: PatroniPair;
    const servers: ServerProcess[] = [];
    let load: StoreLoad;
    let authorization: string;
    let leader: string;
    let switchStarted = 0;
    let switched = 0;

    before(async () => {
      if (unavailable) throw new Error(unavailable);
      pair = await startPatroniPair();
      leader = await pair.waitUntilHealthy();
      assert.equal(leader, 'node1', 'node1 bootstrapped the cluster');
      const env = {
        DATABASE_URL: `postgres://postgres@${pair.hosts[0]},${pair.hosts[1]}/postgres?target_session_attrs=read-write`,
        ISSUER: 'http://gatehouse.test',
        OPENAPI_PATH: SHIPPED_OPENAPI,
        RATE_LIMIT_TOKEN_CLIENT: '100000/s',
        RATE_LIMIT_TOKEN_ADDRESS: '100000/s',
      };
      assert.equal(await runCli(['migrate'], env, { out: () => {}, err: () => {} }), 0);
      const issued = await issueGrants(env, 12, ['--replay-window', '30s']);
      authorization = issued.authorization;
      for (let i = 0; i < 2; i++) servers.push(await spawnServer(env));
      load = new StoreLoad(
        { urls: servers.map((s) => s.url), env, chains: 8, writers: 4 },
        authorization,
        issued.grants,
      );
    });
    after(async () => {
      await load?.stop();
      await Promise.all(servers.map((s) => s.stop()));
      await pair?.destroy();
    });

    it('patronictl switchover: 503 with Retry-After during it, no other 5xx, both processes back on the new leader without a restart', async (t) => {
      const started = Date.now();
      load.start();
      await load.untilServed(started);
      const answeredBefore = load.answers.length;
      switchStarted = Date.now();
      await pair.switchover('node1', 'node2');
      switched = Date.now();
      const back = await load.waitForService(switched, 15_000);
      const newLeader = await pair.waitUntilHealthy(60_000);
      const healthy = Date.now();
      await load.untilServed(healthy);
      await load.stop();

      const figures = {
        answeredBeforeSwitch: answeredBefore,
        switchoverMs: switched - switchStarted,
        backAfterSwitchoverMs: back,
        formerLeaderStandbyAfterMs: healthy - switchStarted,
        answered503: load.count(503),
        answered503DuringSwitch: load.count(503, switchStarted, switched + back),
        answeredAfterHealthy: load.answers.filter((a) => a.at >= healthy).length,
        refreshTokensRetriedAfter503AndWorked: load.retriedAfter503,
        recordsCreated: load.records.length,
      };
      t.diagnostic(JSON.stringify(figures));

      assert.equal(newLeader, 'node2');
      for (const server of servers) assert.equal(server.child.exitCode, null, `a server exited: ${server.output()}`);
      assert.deepEqual(load.faults, []);
      assert.ok(figures.answered503DuringSwitch > 0, 'the switchover was seen as 503');
      assert.ok(figures.answeredAfterHealthy > 0, 'answers after the former leader rejoined');
      const [{ in_recovery }] = (await query<{ in_recovery: boolean }>(
        pair.hosts[0],
        'select pg_is_in_recovery() as in_recovery',
      )) as [{ in_recovery: boolean }];
      assert.equal(in_recovery, true, 'the former leader, first in the host list, is a read-only standby now');
      // Patroni's own connection (application_name Patroni…) aside.
      const left = await query<{ application_name: string }>(
        pair.hosts[0],
        `select application_name from pg_stat_activity
          where backend_type = 'client backend' and pid <> pg_backend_pid() and application_name not ilike 'patroni%'`,
      );
      assert.deepEqual(left, [], 'no connection of the processes on the read-only former leader');
    });

    it('no token answered 200 is lost and every record created reads back, on both processes', async () => {
      await load.assertNothingLost();
      const [{ n }] = (await query<{ n: string }>(pair.hosts[1], 'select count(*) as n from records')) as [
        { n: string },
      ];
      assert.ok(Number(n) >= load.records.length);
    });

    it('no token rotated away comes back (RFC 9700 §4.14.2): each chain’s tokens rotated around the switchover are refused', async () => {
      await load.assertRotatedAwayRefused(switchStarted, switched);
    });
  },
);
