import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { generateSigningKey } from '../src/oauth/keys/keys.js';
import { startServer, type RunningServer } from '../src/server.js';
import { clusterUnavailable, initCluster, type Cluster } from './_pg-cluster.js';
import { startTestServer, type TestServer } from './_server.js';

interface Probe {
  readonly status: number;
  readonly type: string;
  readonly retryAfter: string | null;
  readonly body: Record<string, unknown>;
  /** How long the answer took, ms. */
  readonly ms: number;
}

async function probe(url: string, path: '/health/live' | '/health/ready'): Promise<Probe> {
  const started = performance.now();
  const response = await fetch(`${url}${path}`);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
    ms: performance.now() - started,
  };
}

/** Probes /health/ready until it answers `status` (an answer is reused for a second), or fails after 5 s. */
async function readyTurns(url: string, status: number): Promise<Probe> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const answer = await probe(url, '/health/ready');
    if (answer.status === status || Date.now() > deadline) {
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      return answer;
    }
    await sleep(100);
  }
}

/** A 503 `not_ready` problem whose detail matches `reason`. */
function assertNotReady(answer: Probe, reason: RegExp): void {
  assert.match(answer.type, /^application\/problem\+json/);
  assert.equal(answer.body.type, '/problems/not-ready');
  assert.equal(answer.body.status, 503);
  assert.match(String(answer.body.detail), reason);
  assert.equal(answer.retryAfter, '1');
}

describe('health probes', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('/health/live and /health/ready answer 200, are never rate limited, and stay out of the request metrics', async () => {
    assert.deepEqual((await probe(server.url, '/health/live')).body, { status: 'live' });
    assert.deepEqual((await probe(server.url, '/health/ready')).body, { status: 'ready' });
    // A probe a second from several balancers: 50 at once are all answered, by one store read.
    const answers = await Promise.all(Array.from({ length: 50 }, () => probe(server.url, '/health/ready')));
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
    assert.equal((await fetch(`${server.url}/jwks`)).status, 200);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.doesNotMatch(metrics, /route="\/health/);
    assert.match(metrics, /route="\/jwks"/, 'other routes are in the request metrics');
  });

  it('ready turns 503 when the database lacks a migration, and back to 200 when it has it again', async () => {
    const database = new BetterSqlite3(server.databaseUrl.slice('sqlite:'.length));
    try {
      const { name } = database.prepare('select max(name) as name from kysely_migration').get() as { name: string };
      const row = database.prepare('select * from kysely_migration where name = ?').get(name) as object;
      database.prepare('delete from kysely_migration where name = ?').run(name);
      assertNotReady(await readyTurns(server.url, 503), new RegExp(`lacks migrations ${name}: run gatehouse migrate`));
      assert.equal((await probe(server.url, '/health/live')).status, 200, 'the process is still alive');
      database.prepare('insert into kysely_migration (name, timestamp) values (@name, @timestamp)').run(row);
      await readyTurns(server.url, 200);
    } finally {
      database.close();
    }
  });

  it('ready turns 503 when the signing keys cannot be loaded, and back to 200 once a key signs again', async () => {
    const { store, keys } = server.context;
    const now = server.clock.now();
    for (const key of await store.listSigningKeys())
      if (key.alg === 'ES256' && key.retiredAt === null) await store.retireSigningKey(key.kid, now);
    await assert.rejects(keys.reload(), /no ES256 signing key/);
    assertNotReady(await readyTurns(server.url, 503), /no signing key could be loaded \(no ES256 signing key/);
    await store.insertSigningKey(await generateSigningKey(now, now));
    // The probe reloads the keys itself after a failed reload.
    await readyTurns(server.url, 200);
    assert.equal(keys.loadError, undefined);
  });
});

describe('health probes in the request log', () => {
  it('are not logged at info, where every other request is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-health-'));
    const lines: string[] = [];
    const server = await startServer({
      databaseUrl: `sqlite:${join(dir, 'gatehouse.db')}`,
      issuer: 'http://gatehouse.test',
      port: 0,
      host: '127.0.0.1',
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      await probe(server.url, '/health/live');
      await probe(server.url, '/health/ready');
      assert.equal((await fetch(`${server.url}/jwks`)).status, 200);
      const urls = lines.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url).filter(Boolean);
      assert.ok(urls.includes('/jwks'), `requests are logged at info: ${urls.join(' ')}`);
      assert.ok(!urls.some((url) => url?.startsWith('/health')), `the probes are not: ${urls.join(' ')}`);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const unavailable = clusterUnavailable();

describe(
  'health probes on PostgreSQL: a cluster of the test’s own stopped and started',
  { skip: unavailable !== undefined && process.env.CI !== 'true' ? unavailable : false },
  () => {
    let cluster: Cluster;
    let server: RunningServer;

    before(async () => {
      if (unavailable) throw new Error(unavailable);
      cluster = await initCluster();
      server = await startServer({
        databaseUrl: cluster.url,
        issuer: 'http://gatehouse.test',
        port: 0,
        host: '127.0.0.1',
      });
    });
    after(async () => {
      await server?.close();
      await cluster?.destroy();
    });

    it('ready turns 503 promptly while the store is gone, live stays 200, and ready is 200 again once it is back', async () => {
      await readyTurns(server.url, 200);
      await cluster.stop('fast');
      const down = await readyTurns(server.url, 503);
      assertNotReady(down, /the store (could not be reached|did not answer within 500 ms)/);
      assert.doesNotMatch(
        String(down.body.detail),
        /127\.0\.0\.1|ECONNREFUSED/,
        'no host or driver error to the caller',
      );
      assert.ok(down.ms < 2000, `answered in ${Math.round(down.ms)} ms`);
      assert.equal((await probe(server.url, '/health/live')).status, 200);
      await cluster.start();
      await readyTurns(server.url, 200);
    });
  },
);
