import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../src/cli/run.js';
import { freshDatabase, type Dialect } from './_dialects.js';
import { childEnv, GATEHOUSE_BIN, spawnGroup, type ProcessGroup } from './_processes.js';
import { basicAuthorization, SHIPPED_OPENAPI } from './_server.js';
import { until } from './_until.js';

/** The harness of clean-stop.test.ts: a database with refresh chains, servers in process groups, load. */

const ISSUER = 'http://gatehouse.test';

/** A fresh database with a client and `lanes` refresh-token chains, one per user. */
export interface Chains {
  readonly env: Record<string, string>;
  readonly authorization: string;
  /** Each chain's newest refresh token. */
  readonly heads: string[];
  /** The SQLite file, undefined on PostgreSQL. */
  readonly sqliteFile: string | undefined;
  drop(): Promise<void>;
}

async function cli(env: Record<string, string>, ...argv: string[]): Promise<Record<string, string>> {
  let out = '';
  let err = '';
  const code = await runCli(argv, env, { out: (t) => (out += t), err: (t) => (err += t) });
  assert.equal(code, 0, `gatehouse ${argv.join(' ')}: ${err}`);
  return JSON.parse(out) as Record<string, string>;
}

export async function prepareChains(dialect: Dialect, lanes: number): Promise<Chains> {
  const database = await freshDatabase(dialect);
  const env = { DATABASE_URL: database.url, ISSUER, OPENAPI_PATH: SHIPPED_OPENAPI };
  await cli(env, 'migrate');
  const added = await cli(env, 'clients', 'add', '--id', 'load', '--name', 'Load', '--scope', 'contacts:read');
  const heads: string[] = [];
  for (let i = 0; i < lanes; i++) {
    // A grant is always a user's (one subject per user).
    await cli(env, 'users', 'add', '--username', `user-${i}`);
    const issued = await cli(
      env,
      'grants',
      'issue',
      '--client',
      'load',
      '--user',
      `user-${i}`,
      '--scope',
      'contacts:read',
    );
    heads.push(issued.refresh_token as string);
  }
  return {
    env,
    authorization: basicAuthorization('load', added.client_secret as string),
    heads,
    sqliteFile: database.url.startsWith('sqlite:') ? database.url.slice('sqlite:'.length) : undefined,
    drop: () => database.drop(),
  };
}

/** SQLite's -wal and -shm files beside the database: a clean close checkpoints and removes them. */
export function sqliteLeftovers(file: string | undefined): string[] {
  if (file === undefined) return [];
  return [`${file}-wal`, `${file}-shm`].filter((f) => existsSync(f));
}

/** `gatehouse serve` (or npm running it) leading a process group, as a terminal's foreground job. */
export interface Group extends ProcessGroup {
  readonly url: string;
}

/**
 * Starts `command` leading a process group of its own and resolves once `listeners` servers logged
 * that they listen (LOG_LEVEL=info: Fastify's "Server listening at" line, one per worker).
 */
export async function startGroup(
  command: string,
  args: string[],
  env: Record<string, string>,
  { cwd, listeners = 1 }: { cwd?: string; listeners?: number } = {},
): Promise<Group> {
  const group = spawnGroup(command, args, {
    cwd,
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMITS: 'off', ...env }),
  });
  const listening = new RegExp(`(?:Server listening at (http://127\\.0\\.0\\.1:\\d+)[^]*){${listeners}}`);
  try {
    const [, url] = await group.waitForOutput(listening, `${command} ${args.join(' ')} listens`);
    return { ...group, url: url as string };
  } catch (error) {
    group.kill();
    throw error;
  }
}

/**
 * `npm run serve` in a folder whose package.json runs the built server as the repository's `npm
 * start` does (`exec node …/main.js serve`): npm → sh → exec node, npm leading the group.
 */
export function startUnderNpm(env: Record<string, string>, args: string[] = []): Promise<Group> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-npm-'));
  const script = ['exec', JSON.stringify(process.execPath), JSON.stringify(GATEHOUSE_BIN), 'serve', ...args].join(' ');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, scripts: { serve: script } }));
  const started = startGroup('npm', ['run', 'serve'], env, { cwd: dir });
  void started.then(
    (group) => group.exited.then(() => rmSync(dir, { recursive: true, force: true })),
    () => rmSync(dir, { recursive: true, force: true }),
  );
  return started;
}

/** What a load saw of the requests it had sent before the signal: every one should be answered 200. */
export interface LoadOutcome {
  /** Refreshes answered 200 before the signal. */
  readonly before: number;
  /** The refreshes in flight at the signal: sent before it, answered (or not) after it. */
  readonly inFlight: readonly string[];
}

/**
 * Refreshes every chain over and over (one lane per chain, one request at a time each); `signal`
 * waits until some refreshes were answered and some are in flight, sends the signal, and lets the
 * lanes finish the requests they had sent; each chain's head follows the answers.
 */
export async function signalUnderLoad(group: Group, chains: Chains, signal: () => void): Promise<LoadOutcome> {
  let signalled = false;
  let answered = 0;
  let pending = 0;
  const inFlight: string[] = [];
  const lane = async (lane: number): Promise<void> => {
    while (!signalled) {
      pending += 1;
      const outcome = await refreshOnce(group.url, chains, lane);
      pending -= 1;
      if (signalled) inFlight.push(outcome);
      else if (outcome === '200') answered += 1;
      else assert.fail(`before the signal, a refresh was answered ${outcome}`);
    }
  };
  const lanes = Promise.all(chains.heads.map((_, i) => lane(i)));
  for (const deadline = Date.now() + 10_000; answered < chains.heads.length * 2 || pending === 0; await sleep(5))
    assert.ok(Date.now() < deadline, `the load ran: ${answered} refreshes answered`);
  signalled = true;
  signal();
  await lanes;
  return { before: answered, inFlight };
}

/** One refresh of the chain's head: '200' (the head moves on), another status, or the transport error. */
async function refreshOnce(url: string, chains: Chains, lane: number): Promise<string> {
  try {
    const response = await fetch(`${url}/token`, {
      method: 'POST',
      headers: { authorization: chains.authorization, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: chains.heads[lane] as string }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json()) as { refresh_token?: string };
    if (response.status !== 200) return `${response.status} ${JSON.stringify(body)}`;
    chains.heads[lane] = body.refresh_token as string;
    return '200';
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return `no answer: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
  }
}

/** The interim answer a server sends to `Expect: 100-continue` once it holds the request (RFC 9110 §10.1.1). */
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

/**
 * A refresh sent up to half its body over a socket of its own: in flight until `finish`. Resolves
 * once the server holds it: Node's server answers `Expect: 100-continue` as it hands the request
 * to the app, which counts it in flight then.
 */
export async function refreshHeldInFlight(
  url: string,
  chains: Chains,
  lane: number,
): Promise<{ finish(): Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', (error: NodeJS.ErrnoException) => (answer += `[${error.code ?? error.message}]`));
  // Not events.once: it rejects on 'error', and a server that cut the connection off answers the
  // rest of the body with EPIPE, which this helper reports in the answer instead.
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: chains.heads[lane] as string });
  const text = body.toString();
  socket.write(
    [
      'POST /token HTTP/1.1',
      `Host: ${hostname}`,
      `Authorization: ${chains.authorization}`,
      'Content-Type: application/x-www-form-urlencoded',
      `Content-Length: ${text.length}`,
      'Expect: 100-continue',
      '',
      '',
    ].join('\r\n'),
  );
  await until(
    () => answer.startsWith(CONTINUE),
    () => `100 Continue: ${answer}`,
    10_000,
  );
  socket.write(text.slice(0, 10));
  return {
    /** Sends the rest; resolves to all the server wrote back after its 100 Continue, once it closed the connection. */
    async finish() {
      if (socket.writable) socket.write(text.slice(10));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
      clearTimeout(timer);
      socket.destroy();
      return answer.slice(CONTINUE.length);
    },
  };
}
