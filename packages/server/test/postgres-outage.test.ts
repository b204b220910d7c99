import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { clusterUnavailable, initCluster, type Cluster } from './_pg-cluster.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { childEnv, GATEHOUSE_BIN, spawnServer, type ServerProcess } from './_processes.js';
import { freePort } from './_pg-cluster.js';
import { SHIPPED_OPENAPI } from './_server.js';
import { issueGrants, StoreLoad } from './_store-load.js';

/**
 * "A store outage is a 503, never a crash" (issue 13). The built server (one process, and one with
 * `--workers 2`) runs on a PostgreSQL cluster of the test's own; under refresh and REST load the test terminates every backend of the server
 * again and again, then stops the cluster (fast, then as a crash) and starts it again. The process
 * must not exit, every answer must be a 2xx, a 4xx or a 503 with Retry-After, no request may hang,
 * the service must come back by itself within seconds, and a refresh token answered 503 must still work
 * (with rotation_limit 2, for a COMMIT the crash cut: see below).
 */
const unavailable = clusterUnavailable();
const TERMINATIONS = 6;

describe(
  'PostgreSQL outages under load: terminated backends, a stopped and a crashed cluster',
  {
    skip: unavailable !== undefined && process.env.CI !== 'true' ? unavailable : false,
  },
  () => {
    let cluster: Cluster;
    let server: ServerProcess;
    /** `serve --workers 2`: its workers died too (issue 13), the primary replacing them. */
    let workers: ServerProcess;
    let load: StoreLoad;

    before(async () => {
      if (unavailable) throw new Error(unavailable);
      cluster = await initCluster();
      const env = {
        DATABASE_URL: cluster.url,
        ISSUER: 'http://gatehouse.test',
        OPENAPI_PATH: SHIPPED_OPENAPI,
        // On, far above the load, so that every /token request also charges the shared buckets in PostgreSQL.
        RATE_LIMIT_TOKEN_CLIENT: '100000/s',
        RATE_LIMIT_TOKEN_ADDRESS: '100000/s',
      };
      assert.equal(await runCli(['migrate'], env, { out: () => {}, err: () => {} }), 0);
      // A COMMIT cut by a terminated backend is settled by asking the database (store/postgres/in-doubt.ts,
      // postgres-commit-in-doubt.test.ts); one cut by the crash (`stop -m immediate`) is not, since its
      // transaction id may be given out again after the restart, and is answered 503 although the token
      // may have rotated (docs/deployment.md): rotation_limit 2 is what a client needs to retry it.
      const { authorization, grants } = await issueGrants(env, 12, ['--rotation-limit', '2']);
      server = await spawnServer(env);
      workers = await spawnWorkers(env, 2);
      const urls = [server.url, workers.url];
      load = new StoreLoad({ urls, env, chains: 8, writers: 4 }, authorization, grants);
    });
    after(async () => {
      await load?.stop();
      await Promise.all([server?.stop(), workers?.stop()]);
      await cluster?.destroy();
    });

    it('answers only 2xx, 4xx or 503 with Retry-After, never exits, and comes back by itself each time', async (t) => {
      load.start();
      await sleep(1000);
      const figures: Record<string, number | string> = {};

      let terminated = 0;
      const terminationsFrom = Date.now();
      for (let i = 0; i < TERMINATIONS; i++) {
        terminated += await cluster.terminateBackends();
        await sleep(400);
      }
      figures.backendsTerminated = terminated;
      figures.answersDuringTerminations = load.answers.filter((a) => a.at >= terminationsFrom).length;
      figures.unavailableDuringTerminations = load.count(503, terminationsFrom);

      for (const mode of ['fast', 'immediate'] as const) {
        const down = Date.now();
        await cluster.stop(mode);
        await sleep(1500);
        await cluster.start();
        const up = Date.now();
        figures[`${mode}StopOutageMs`] = up - down;
        figures[`${mode}StopBackAfterStartMs`] = await load.waitForService(up, 10_000);
        figures[`${mode}Stop503s`] = load.count(503, down);
        await sleep(1000);
      }
      await load.stop();

      figures.answers = load.answers.length;
      figures.answered503 = load.count(503);
      figures.refreshTokensRetriedAfter503AndWorked = load.retriedAfter503;
      figures.recordsCreated = load.records.length;
      // How many COMMITs lost their answer and what asking the database found (the single node's;
      // reported, not asserted: it depends on where the terminations fall).
      figures.commitsInDoubt = await commitsInDoubt(server.url);
      t.diagnostic(JSON.stringify(figures));

      assert.equal(server.child.exitCode, null, `the server exited: ${server.output()}`);
      assert.equal(workers.child.exitCode, null, `the workers' primary exited: ${workers.output()}`);
      assert.doesNotMatch(workers.output(), /worker exited/);
      assert.deepEqual(load.faults, []);
      assert.ok(terminated > 0, 'backends were terminated');
      assert.ok(load.count(503) > 0, 'the outages were seen as 503');
      assert.ok(load.retriedAfter503 > 0, 'a refresh token answered 503 was presented again and worked');
      for (const mode of ['fast', 'immediate'])
        assert.ok((figures[`${mode}StopBackAfterStartMs`] as number) < 5000, `${mode}: back within 5 s`);
      for (const node of [server, workers])
        assert.doesNotMatch(node.output(), /Unhandled 'error' event|Connection terminated unexpectedly/);
    });

    it('afterwards, nothing answered is lost: every chain’s newest refresh token works, every record created reads back', async () => {
      await load.assertNothingLost();
    });
  },
);

/**
 * `gatehouse serve --workers N` on a free port, once it answers. Its workers log nothing at start,
 * so readiness is an answer of the metadata endpoint.
 */
async function spawnWorkers(env: Record<string, string>, count: number): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [GATEHOUSE_BIN, 'serve', '--workers', String(count)], {
    env: childEnv({ HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMITS: 'off', ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  for (const deadline = Date.now() + 20_000; ; await sleep(100)) {
    if (child.exitCode !== null) throw new Error(`gatehouse serve --workers exited: ${output}`);
    const ready = await fetch(`${url}/.well-known/oauth-authorization-server`).catch(() => undefined);
    if (ready?.status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`gatehouse serve --workers did not answer within 20 s: ${output}`);
    }
  }
  return { url, child, output: () => output, stop };
}

/** A node's `gatehouse_store_commits_in_doubt_total` series, read off its /metrics (loopback may scrape). */
async function commitsInDoubt(url: string): Promise<string> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return [...text.matchAll(/^gatehouse_store_commits_in_doubt_total\{outcome="(\w+)"\} (\d+)$/gm)]
    .map(([, outcome, count]) => `${outcome} ${count}`)
    .join(', ');
}
