/**
 * One refresh at a time across processes: TokenManagers sharing one FileTokenStore file, against a
 * real Gatehouse whose client has `rotation_limit` 1 and no replay window, so that any refresh
 * token presented twice revokes the family.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ReauthenticationRequired, TokenManager, type TokenStore } from '@gatehouse/client';
import { FileTokenStore } from '@gatehouse/client/node';
import { CALLBACK, startGatehouse, type Gatehouse } from './_gatehouse.js';
import { isRefresh } from './_proxy.js';
import { spawnGroup } from '../../server/test/_processes.js';
import type { WorkerReport } from './_refresh-worker.js';

const WORKER = fileURLToPath(new URL('./_refresh-worker.ts', import.meta.url));
const CLIENT_DIR = fileURLToPath(new URL('..', import.meta.url));
// Access tokens of 6 s, refreshed 4 s before they expire: an expiry every 2 to 3 s of calls, so
// several in the 10 s, and a margin of 3 to 4 s (the token's exp is in whole seconds) for a call in
// flight on a busy machine. With 4 s and 2 s, a margin of 1 to 2 s, a call under a load average
// of 12 to 15 from other work took longer and was answered 401 (2026-11-29).
const ACCESS_TTL = 6;
const SKEW = 4;

/** A worker in a new Node process (tsx, the client's source), set up and waiting for `start`. */
interface Worker {
  /** Lets it run until `deadline` (epoch ms); resolves with its report. */
  start(deadline: number): Promise<WorkerReport>;
}

async function spawnWorker(env: Record<string, string>): Promise<Worker> {
  const worker = spawnGroup(process.execPath, ['--conditions=@gatehouse/source', '--import', 'tsx', WORKER], {
    cwd: CLIENT_DIR,
    env: { ...process.env, ...env },
    stdin: true,
  });
  await worker.waitForOutput(/^ready\n/, 'the worker is set up', 60_000);
  return {
    async start(deadline) {
      worker.child.stdin?.end(String(deadline));
      const { code } = await worker.closed;
      const out = worker.stdout();
      if (code !== 0) throw new Error(`worker exited with ${code}: ${worker.output()}`);
      return JSON.parse(out.slice(out.indexOf('\n') + 1)) as WorkerReport;
    },
  };
}

describe('FileTokenStore shared by processes, against Gatehouse (rotation_limit 1, no replay window, real time)', () => {
  let gatehouse: Gatehouse;
  let dir: string;
  before(async () => {
    gatehouse = await startGatehouse();
    await gatehouse.addUser();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-shared-'));
  });
  after(async () => {
    await gatehouse.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('two processes making 50 concurrent calls each across several access-token expiries refresh once per expiry, and nobody is logged out', async (t) => {
    const client = await gatehouse.addClient({ id: 'two-processes', public: true, accessTokenTtl: ACCESS_TTL });
    const key = randomBytes(32);
    const path = join(dir, 'two-processes.enc');
    const issued = await gatehouse.issueGrant(client.id);
    const seed = new TokenManager({ issuer: gatehouse.issuer, clientId: client.id, redirectUri: CALLBACK });
    await (await FileTokenStore.open({ path, key })).write({ tokens: await seed.setTokens(issued) });
    const mark = gatehouse.proxy.exchanges.length;

    const env = {
      ISSUER: gatehouse.issuer,
      API_BASE: gatehouse.apiBase,
      CLIENT_ID: client.id,
      STORE_PATH: path,
      TOKEN_KEY: key.toString('base64'),
      CALLS: '50',
      SKEW_SECONDS: String(SKEW),
    };
    const workers = await Promise.all([spawnWorker(env), spawnWorker(env)]);
    const deadline = Date.now() + 10_000;
    const reports = await Promise.all(workers.map((worker) => worker.start(deadline)));

    const exchanges = gatehouse.proxy.exchanges.slice(mark);
    const refreshes = exchanges.filter(isRefresh);
    const apiCalls = exchanges.filter((e) => e.path.startsWith('/v2/contacts'));
    const window = (apiCalls.at(-1)?.at ?? 0) - (apiCalls[0]?.at ?? 0);
    t.diagnostic(
      `${apiCalls.length} API calls in ${window} ms, ${refreshes.length} refreshes (by process: ${reports.map((r) => r.refreshed).join(', ')})`,
    );
    for (const report of reports) {
      assert.deepEqual(report.failures, [], `process ${report.pid}: every call succeeded`);
      // Rounds of 50 at once, not a rate (as in tabs.browser.test.ts): each process kept calling
      // through several token periods; the window and the access tokens below say which.
      assert.ok(
        report.calls >= Number(env.CALLS) * 4,
        `process ${report.pid} made ${report.calls} calls, fewer than 4 rounds`,
      );
      assert.ok(report.accessTokens >= 3, `process ${report.pid} used ${report.accessTokens} access tokens`);
    }
    assert.ok(window >= 6000, `the calls spanned ${window} ms`);
    assert.ok(
      apiCalls.every((e) => e.status === 200),
      'no call was made with an expired access token (no 401)',
    );
    assert.ok(refreshes.length >= 3, `several expiries: ${refreshes.length} refreshes`);
    assert.deepEqual(
      refreshes.map((e) => e.status),
      refreshes.map(() => 200),
      'every refresh was answered 200: no invalid_grant',
    );
    const grant = await gatehouse.grant(issued.grant_id);
    assert.equal(grant.revokedAt, null, 'the family is alive');
    assert.equal(grant.rotationCount, refreshes.length, 'every refresh rotated the newest token');
    assert.equal(
      reports.reduce((sum, r) => sum + r.refreshed, 0),
      refreshes.length,
      'each refresh was made by one process',
    );
    // One refresh per expiry: the next refresh waits until the token the last one issued is within the skew of its expiry.
    for (let i = 1; i < refreshes.length; i++) {
      const gap = (refreshes[i]?.at ?? 0) - (refreshes[i - 1]?.at ?? 0);
      assert.ok(gap >= (ACCESS_TTL - SKEW) * 1000, `refresh ${i} came ${gap} ms after the previous one`);
    }
  });
});

describe('managers of one process on one FileTokenStore file, against Gatehouse (rotation_limit 1)', () => {
  let gatehouse: Gatehouse;
  let dir: string;
  before(async () => {
    gatehouse = await startGatehouse();
    await gatehouse.addUser();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-shared-'));
  });
  after(async () => {
    await gatehouse.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a manager whose copy is stale adopts the tokens another manager on the same file refreshed, and sends nothing', async () => {
    const client = await gatehouse.addClient({ id: 'stale-copy', public: true });
    const key = randomBytes(32);
    const path = join(dir, 'stale-copy.enc');
    const [a, b] = await Promise.all([managerOn(client.id, path, key), managerOn(client.id, path, key)]);
    const issued = await gatehouse.issueGrant(client.id);
    await a.setTokens(issued);
    assert.equal(await b.getAccessToken(), issued.access_token, 'b read the file');
    gatehouse.clock.advance(6 * 60);
    const mark = gatehouse.proxy.exchanges.length;

    const refreshedByA = await a.getAccessToken();
    const adoptedByB = await b.getAccessToken();

    assert.equal(gatehouse.proxy.exchanges.slice(mark).filter(isRefresh).length, 1, 'one refresh request');
    assert.notEqual(refreshedByA, issued.access_token);
    assert.equal(adoptedByB, refreshedByA, 'b uses the access token a obtained');
    assert.equal((await b.tokens())?.refreshToken, (await a.tokens())?.refreshToken);
    assert.equal((await gatehouse.grant(issued.grant_id)).revokedAt, null);
  });

  test('a change made by a manager with a stale copy keeps the tokens another manager rotated', async () => {
    const client = await gatehouse.addClient({ id: 'no-lost-update', public: true });
    const key = randomBytes(32);
    const path = join(dir, 'no-lost-update.enc');
    const [a, b] = await Promise.all([managerOn(client.id, path, key), managerOn(client.id, path, key)]);
    await a.setTokens(await gatehouse.issueGrant(client.id));
    await b.tokens(); // b reads the file now, and keeps that copy
    gatehouse.clock.advance(6 * 60);
    const rotated = await a.refresh();

    const { state } = await b.startAuthorization(); // writes a pending request

    const saved = await (await FileTokenStore.open({ path, key })).read();
    assert.equal(saved.tokens?.refreshToken, rotated.refreshToken, 'the rotated refresh token was not overwritten');
    assert.deepEqual(
      saved.pending?.map((p) => p.state),
      [state],
    );
  });

  test('without the lock, two managers on one file present one refresh token twice, and Gatehouse revokes the family', async () => {
    const client = await gatehouse.addClient({ id: 'no-lock', public: true });
    const key = randomBytes(32);
    const path = join(dir, 'no-lock.enc');
    const withoutLock = async (): Promise<TokenStore> => {
      const store = await FileTokenStore.open({ path, key });
      return { read: () => store.read(), write: (state) => store.write(state) };
    };
    const [a, b] = await Promise.all([
      managerOn(client.id, path, key, await withoutLock()),
      managerOn(client.id, path, key, await withoutLock()),
    ]);
    const issued = await gatehouse.issueGrant(client.id);
    await a.setTokens(issued);
    await b.getAccessToken();
    gatehouse.clock.advance(6 * 60);

    await a.getAccessToken();
    await assert.rejects(b.getAccessToken(), ReauthenticationRequired);
    assert.notEqual((await gatehouse.grant(issued.grant_id)).revokedAt, null, 'reuse detected: the family is revoked');
  });

  async function managerOn(clientId: string, path: string, key: Buffer, store?: TokenStore): Promise<TokenManager> {
    return new TokenManager({
      issuer: gatehouse.issuer,
      clientId,
      redirectUri: CALLBACK,
      store: store ?? (await FileTokenStore.open({ path, key })),
      now: gatehouse.clock.nowMs,
      retry: { baseDelayMs: 1, maxDelayMs: 50 },
    });
  }
});
