/**
 * One process of the shared-file test (shared-store.test.ts): rounds of concurrent API calls through
 * a TokenManager on a FileTokenStore that another process uses too, until the deadline. Prints what
 * it saw as one JSON line. Once set up it prints `ready` and waits for the deadline (epoch ms) on
 * stdin, so that processes slow to start still run side by side.
 *
 * Environment: ISSUER, API_BASE, CLIENT_ID, STORE_PATH, TOKEN_KEY (base64), CALLS (per round),
 * SKEW_SECONDS.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient, TokenManager } from '@gatehouse/client';
import { FileTokenStore } from '@gatehouse/client/node';
import { CALLBACK } from './_gatehouse.js';

export interface WorkerReport {
  readonly pid: number;
  readonly calls: number;
  readonly failures: readonly string[];
  /** Refreshes this process made (its `refreshed` events). */
  readonly refreshed: number;
  /** Distinct access tokens its calls were made with. */
  readonly accessTokens: number;
}

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};

const store = await FileTokenStore.open({ path: env('STORE_PATH'), key: Buffer.from(env('TOKEN_KEY'), 'base64') });
const manager = new TokenManager({
  issuer: env('ISSUER'),
  clientId: env('CLIENT_ID'),
  redirectUri: CALLBACK,
  store,
  refreshSkewSeconds: Number(env('SKEW_SECONDS')),
  retry: { baseDelayMs: 1, maxDelayMs: 50 },
});
let refreshed = 0;
manager.on('refreshed', () => refreshed++);
const accessTokens = new Set<string>();
const tokens = {
  getAccessToken: async () => {
    const token = await manager.getAccessToken();
    accessTokens.add(token);
    return token;
  },
  accessTokenRejected: (rejected: string) => manager.accessTokenRejected(rejected),
};
const api = new ApiClient({
  baseUrl: env('API_BASE'),
  document: await (await fetch(`${env('API_BASE')}/openapi.json`)).json(),
  tokens,
  retry: { baseDelayMs: 1, maxDelayMs: 50 },
});

process.stdout.write('ready\n');
const [line] = (await once(process.stdin.setEncoding('utf8'), 'data')) as [string];
const deadline = Number(line);
const failures: string[] = [];
let calls = 0;
while (Date.now() < deadline) {
  const round = await Promise.allSettled(
    Array.from({ length: Number(env('CALLS')) }, () => api.collection('contacts').list()),
  );
  calls += round.length;
  for (const result of round)
    if (result.status === 'rejected') {
      const error = result.reason as Error & { code?: string };
      failures.push(`${error.code ?? error.name}: ${error.message}`);
    }
  await sleep(100);
}
const report: WorkerReport = { pid: process.pid, calls, failures, refreshed, accessTokens: accessTokens.size };
process.stdout.write(`${JSON.stringify(report)}\n`);
