import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DIALECTS } from './_dialects.js';
import { startServer } from '../src/server.js';
import { SAME_STOP_MS } from '../src/cli/stop-signals.js';
import { GATEHOUSE_BIN, isRunning } from './_processes.js';
import {
  prepareChains,
  refreshHeldInFlight,
  signalUnderLoad,
  sqliteLeftovers,
  startGroup,
  startUnderNpm,
  type Chains,
  type Group,
} from './_stopping.js';

/**
 * Ctrl-C stops the server cleanly (docs/operating.md, "Operating it"). At Ctrl-C the terminal signals its whole
 * foreground process group, and `npm start` (npm → sh → exec node, one group) passes its own SIGINT
 * on too, so the server gets two at once. Each case starts the server in a process group of its
 * own, loads it with refreshes (8 lanes, keep-alive connections) and signals the group: every
 * refresh sent before the signal is answered 200 — none reset, none refused with 503 — and committed
 * (its new token works on a server started afterwards), the process exits 0 having logged "stopped
 * after draining", and SQLite's -wal and -shm are gone (the store closed, the WAL checkpointed); on
 * PostgreSQL a pool left open would keep the process from exiting on its own.
 */

const LANES = 8;
const DRAINED = /"msg":"stopped after draining \d+ request\(s\)"/;
const ALREADY_STOPPING = /SIGINT: already stopping, finishing the requests in flight; send it again to stop at once/;

/** A server on the same database (in this process): every chain's newest token is refreshed with 200. */
async function assertHeadsCommitted(chains: Chains): Promise<void> {
  const server = await startServer({
    databaseUrl: chains.env.DATABASE_URL as string,
    issuer: chains.env.ISSUER as string,
    port: 0,
    host: '127.0.0.1',
    migrations: 'check',
  });
  try {
    for (const head of chains.heads) {
      const response = await fetch(`${server.url}/token`, {
        method: 'POST',
        headers: { authorization: chains.authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: head }),
      });
      assert.equal(response.status, 200, `the token of an answered rotation works: ${await response.text()}`);
    }
  } finally {
    await server.close();
  }
}

/** The clean stop of a group signalled under load, and that the rotations it answered were committed. */
async function assertCleanStopUnderLoad(group: Group, chains: Chains, drainedLines: number): Promise<void> {
  const load = await signalUnderLoad(group, chains, () => group.signalGroup('SIGINT'));
  const exit = await group.exited;
  const output = group.output();
  assert.ok(load.inFlight.length > 0, 'refreshes were in flight at the signal');
  assert.deepEqual(
    load.inFlight.filter((outcome) => outcome !== '200'),
    [],
    `every refresh in flight is answered 200 (${load.inFlight.length} in flight): ${output}`,
  );
  assert.deepEqual(exit, { code: 0, signal: null }, output);
  assert.equal(linesMatching(output, DRAINED), drainedLines, output);
  assert.deepEqual(sqliteLeftovers(chains.sqliteFile), [], 'the store closed: WAL checkpointed, no -wal or -shm');
  await assertHeadsCommitted(chains);
}

for (const dialect of DIALECTS)
  describe(`Ctrl-C under refresh load stops cleanly [${dialect}]`, () => {
    it('`npm start`: SIGINT to the whole group (npm passes a second one on) drains every refresh in flight, exits 0', async () => {
      const chains = await prepareChains(dialect, LANES);
      const group = await startUnderNpm(chains.env);
      try {
        await assertCleanStopUnderLoad(group, chains, 1);
      } finally {
        group.kill();
        await chains.drop();
      }
    });
  });

// The workers share one SQLite file: the last to close its store checkpoints the WAL and removes it;
// workers closing at the same moment may both leave it, so the primary, alone after them, closes it.
describe('`serve --workers 2` stops cleanly [sqlite]', () => {
  it('`serve --workers 2`: SIGINT to the group (primary and workers) drains every worker; the primary exits 0 after them', async () => {
    const chains = await prepareChains('sqlite', LANES);
    const group = await startGroup(process.execPath, [GATEHOUSE_BIN, 'serve', '--workers', '2'], chains.env, {
      listeners: 2,
    });
    try {
      await assertCleanStopUnderLoad(group, chains, 2);
      assert.match(group.output(), /"msg":"stopped: every worker drained"/);
    } finally {
      group.kill();
      await chains.drop();
    }
  });

  it('workers that left the WAL behind (killed with -9): the primary, stopped after them, closes the file and removes it', async () => {
    const chains = await prepareChains('sqlite', 1);
    const group = await startGroup(process.execPath, [GATEHOUSE_BIN, 'serve', '--workers', '2'], chains.env, {
      listeners: 2,
    });
    try {
      const workers = [...group.output().matchAll(/"pid":(\d+)[^\n]*"msg":"Server listening at /g)].map((m) =>
        Number(m[1]),
      );
      assert.equal(workers.length, 2, group.output());
      for (const pid of workers) process.kill(pid, 'SIGKILL');
      for (const deadline = Date.now() + 10_000; workers.some(isRunning); await sleep(20))
        assert.ok(Date.now() < deadline, 'the killed workers are gone within 10 s');
      assert.notDeepEqual(sqliteLeftovers(chains.sqliteFile), [], 'killed workers leave -wal and -shm');
      // Within the second before the primary would start workers in their place.
      process.kill(group.child.pid as number, 'SIGINT');
      assert.deepEqual(await group.exited, { code: 0, signal: null }, group.output());
      assert.deepEqual(sqliteLeftovers(chains.sqliteFile), [], 'the primary checkpointed the WAL and removed it');
      await assertHeadsCommitted(chains);
    } finally {
      group.kill();
      await chains.drop();
    }
  });
});

// The signals are counted the same way whatever the store: SQLite only.
describe('signals during the drain', () => {
  /** A server with one refresh held in flight, signalled once: draining until the refresh is finished. */
  async function draining(): Promise<{ group: Group; chains: Chains; held: { finish(): Promise<string> } }> {
    const chains = await prepareChains('sqlite', 1);
    const group = await startGroup(process.execPath, [GATEHOUSE_BIN, 'serve'], chains.env);
    const held = await refreshHeldInFlight(group.url, chains, 0);
    // Two at once, as Ctrl-C under `npm start` delivers them: one stop.
    group.signalGroup('SIGINT');
    group.signalGroup('SIGINT');
    await until(() => group.output().includes('finishing 1 request(s) in flight'), group);
    return { group, chains, held };
  }

  it('a second SIGINT is logged and changes nothing: the refresh in flight is answered 200, exit 0, no -wal or -shm', async () => {
    const { group, chains, held } = await draining();
    try {
      await pastSameStop();
      assert.doesNotMatch(group.output(), ALREADY_STOPPING, 'two signals at once are one stop');
      group.signalGroup('SIGINT');
      await until(() => ALREADY_STOPPING.test(group.output()), group);
      assert.equal(group.child.exitCode, null, 'still draining');
      const answer = await held.finish();
      assert.match(answer, /^HTTP\/1\.1 200 /);
      assert.match(answer, /\r\nconnection: close\r\n/i, 'a draining server closes the connection after the answer');
      const exit = await group.exited;
      assert.deepEqual(exit, { code: 0, signal: null }, group.output());
      assert.equal(linesMatching(group.output(), DRAINED), 1);
      assert.deepEqual(sqliteLeftovers(chains.sqliteFile), []);
    } finally {
      group.kill();
      await chains.drop();
    }
  });

  it('a third SIGINT stops at once after saying so, cutting the refresh in flight off: exit 130', async () => {
    const { group, chains, held } = await draining();
    try {
      await pastSameStop();
      group.signalGroup('SIGINT');
      await until(() => ALREADY_STOPPING.test(group.output()), group);
      await pastSameStop();
      group.signalGroup('SIGINT');
      const exit = await group.exited;
      assert.deepEqual(exit, { code: 130, signal: null }, group.output());
      assert.match(group.output(), /SIGINT a third time: stopping at once, cutting off 1 request\(s\) in flight/);
      assert.doesNotMatch(group.output(), DRAINED);
      assert.doesNotMatch(await held.finish(), /^HTTP/, 'no answer');
    } finally {
      group.kill();
      await chains.drop();
    }
  });
});

/**
 * Signals closer together than SAME_STOP_MS are one stop (cli/stop-signals.ts): the next one counts
 * only once that window has passed, a time the product defines, waited for with a margin.
 */
const pastSameStop = (): Promise<void> => sleep(SAME_STOP_MS + 200);

function linesMatching(output: string, pattern: RegExp): number {
  return output.split('\n').filter((line) => pattern.test(line)).length;
}

async function until(done: () => boolean, group: Group): Promise<void> {
  for (const deadline = Date.now() + 10_000; !done(); await sleep(20))
    assert.ok(Date.now() < deadline, `timed out: ${group.output()}`);
}
