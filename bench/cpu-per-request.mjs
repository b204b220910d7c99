#!/usr/bin/env node
// CPU time per request of one or more builds, alternated: `node bench/cpu-per-request.mjs --kind
// refresh|introspect|refresh-dpop|rest-201|rest-400 [--postgres] [--rounds 3] [--requests 2000] [--warmup 1000]
// <checkout> [<checkout> …]`. Each checkout is a built Gatehouse (its packages/server/dist) with its
// own bench/setup/gatehouse.mjs, so each build's database is made by its own code. Per round, every
// build in turn (the order reversed every other round: A B, B A, …) prepares a fresh store, starts
// `gatehouse serve` natively, answers W warm-up requests, then N measured ones, sent one at a time
// on one connection as bench/instructions.mjs sends them; the server's CPU time (user + system,
// /proc/<pid>/stat) over the N is its CPU per request. Much quicker than instructions under
// callgrind (a start of the server under callgrind took minutes of CPU before it listened on a
// machine with 8 others' runnable processes per core), and CPU time, unlike requests a second, does
// not count the time the process waited for a core; it still moves with cache and frequency
// contention, so read builds against each other within a round, and over several rounds.
// With --postgres, the CPU time of the server's PostgreSQL backends over the same requests too.
// `--profile <dir>` starts each server with --cpu-prof and leaves its .cpuprofile in <dir>, named by
// kind, round and build (read with bench/lib/profile-summary.mjs; the warm-up is in it too).
import { spawn } from 'node:child_process';
import { createPrivateKey, sign } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { countingProxy } from './lib/pg-count-proxy.mjs';

const { values: options, positionals: checkouts } = parseArgs({
  allowPositionals: true,
  options: {
    kind: { type: 'string', default: 'refresh' },
    rounds: { type: 'string', default: '3' },
    requests: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '1000' },
    postgres: { type: 'boolean', default: false },
    profile: { type: 'string' },
    'round-trips': { type: 'boolean', default: false },
  },
});
if (checkouts.length === 0) throw new Error('name at least one checkout (the root of a built Gatehouse)');
const N = Number(options.requests);
const W = Number(options.warmup);
const KIND = options.kind;
const DPOP = KIND === 'refresh-dpop';
// rest-201 / rest-400: `POST /v2/contacts` with the setup's bearer access token (contacts:write), a
// valid body (201, a new email each) or one without `email` (400), as bench/instructions.mjs sends them.
const REST = KIND === 'rest-201' || KIND === 'rest-400';
if (!['refresh', 'introspect', 'refresh-dpop', 'rest-201', 'rest-400'].includes(KIND))
  throw new Error(`--kind ${KIND}: refresh, introspect, refresh-dpop, rest-201 or rest-400`);
const POSTGRES = options.postgres
  ? new URL(process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
  : undefined;
const TICK_US = 1e6 / 100; // USER_HZ: /proc times are in 1/100 s on Linux
const work = mkdtempSync(join(tmpdir(), 'gatehouse-cpu-'));
let made = 0;

function run(cwd, command, args) {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', (code) =>
      code === 0 ? done(out) : fail(new Error(`${command} ${args.join(' ')} exited ${code}`)),
    );
  });
}

async function postgresAdmin(root, statement, values = []) {
  const { default: pg } = await import(join(root, 'node_modules/pg/lib/index.js'));
  const client = new pg.Client({ connectionString: POSTGRES.toString() });
  await client.connect();
  try {
    return (await client.query(statement, values)).rows;
  } finally {
    await client.end();
  }
}

/** CPU ticks of each PostgreSQL backend connected to `database` (this machine's server), by pid. */
async function backendTicks(root, database) {
  const rows = await postgresAdmin(root, 'select pid from pg_stat_activity where datname = $1', [
    database.split('/').pop(),
  ]);
  const ticks = new Map();
  for (const { pid } of rows)
    try {
      ticks.set(pid, cpuTicks(pid));
    } catch {
      // Ended meanwhile, or not on this machine.
    }
  return ticks;
}

/** A fresh store made by the checkout's own setup: the bench client and 64 chains. */
async function prepare(root) {
  const setup = join(root, 'bench/setup/gatehouse.mjs');
  let database;
  if (POSTGRES) {
    const name = `gatehouse_cpu_${process.pid}_${++made}`;
    await postgresAdmin(root, `CREATE DATABASE ${name}`);
    database = Object.assign(new URL(POSTGRES), { pathname: `/${name}` }).toString();
  } else database = join(work, `${++made}.db`);
  const client = JSON.parse(await run(root, process.execPath, [setup, 'client', database, '0', '0']));
  const chains = JSON.parse(
    await run(root, process.execPath, [setup, DPOP ? 'dpop-chains' : 'chains', database, '64']),
  );
  return {
    database,
    client,
    chains,
    cleanup: () => (POSTGRES ? postgresAdmin(root, `DROP DATABASE IF EXISTS ${database.split('/').pop()}`) : undefined),
  };
}

function cpuTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
}

async function measure(root, label) {
  const { database, client, chains, cleanup } = await prepare(root);
  const { DEFAULT_RATE_LIMITS } = await import(join(root, 'packages/server/dist/index.js'));
  const raised = Object.fromEntries(
    Object.keys(DEFAULT_RATE_LIMITS).map((name) => [`RATE_LIMIT_${name.toUpperCase()}`, '1000000/s']),
  );
  const profile =
    options.profile === undefined
      ? []
      : ['--cpu-prof', `--cpu-prof-dir=${resolve(options.profile)}`, `--cpu-prof-name=${label}.cpuprofile`];
  // The server reaches PostgreSQL through the counting proxy (lib/pg-count-proxy.mjs).
  const proxy =
    POSTGRES && options['round-trips']
      ? await countingProxy(POSTGRES.hostname, Number(POSTGRES.port || 5432))
      : undefined;
  const serverDatabase = proxy
    ? Object.assign(new URL(database), { host: `127.0.0.1:${proxy.port}` }).toString()
    : database;
  const server = spawn(process.execPath, [...profile, join(root, 'packages/server/dist/cli/main.js'), 'serve'], {
    // From its checkout, so that it finds the checkout's openapi.yaml (config.ts) as `serve` there would.
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...raised,
      DATABASE_URL: POSTGRES ? serverDatabase : `sqlite://${database}`,
      PORT: '0',
      HOST: '127.0.0.1',
      ISSUER: 'http://localhost',
      LOG_LEVEL: 'warn',
    },
  });
  let log = '';
  server.stderr.on('data', (chunk) => (log += chunk));
  const closed = new Promise((done) => server.on('close', done));
  try {
    const port = await new Promise((done, fail) => {
      server.stdout.on('data', (chunk) => {
        log += chunk;
        const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
        if (listening) done(Number(listening[1]));
      });
      server.on('close', () => fail(new Error(`the server stopped before listening: ${log}`)));
    });
    const authorization = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
    const key = DPOP ? createPrivateKey({ key: chains.dpopJwk, format: 'jwk' }) : undefined;
    const header = DPOP
      ? Buffer.from(
          JSON.stringify({
            alg: 'ES256',
            typ: 'dpop+jwt',
            jwk: { kty: 'EC', crv: 'P-256', x: chains.dpopJwk.x, y: chains.dpopJwk.y },
          }),
        ).toString('base64url')
      : '';
    let jti = 0;
    const proof = () => {
      const claims = {
        htm: 'POST',
        htu: 'http://localhost/token',
        iat: Math.floor(Date.now() / 1000),
        jti: `${process.pid}.${++jti}`,
      };
      const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    };
    const heads = [...chains.tokens];
    const form = { authorization, 'content-type': 'application/x-www-form-urlencoded' };
    const json = { authorization: `Bearer ${chains.accessToken}`, 'content-type': 'application/json' };
    const send = async (i) => {
      const k = i % heads.length;
      const request = REST
        ? {
            path: '/v2/contacts',
            headers: json,
            body:
              KIND === 'rest-201'
                ? JSON.stringify({ email: `ada.${i}@example.com`, name: 'Ada Lovelace' })
                : '{"name":"Ada Lovelace"}',
          }
        : KIND === 'refresh'
          ? { path: '/token', headers: form, body: `grant_type=refresh_token&refresh_token=${heads[k]}` }
          : KIND === 'introspect'
            ? { path: '/introspect', headers: form, body: `token=${heads[k]}` }
            : {
                path: '/token',
                headers: { dpop: proof(), 'content-type': 'application/x-www-form-urlencoded' },
                body: `grant_type=refresh_token&client_id=${chains.clientId}&refresh_token=${heads[k]}`,
              };
      const response = await fetch(`http://127.0.0.1:${port}${request.path}`, { method: 'POST', ...request });
      const text = await response.text();
      const expected = KIND === 'rest-201' ? 201 : KIND === 'rest-400' ? 400 : 200;
      if (response.status !== expected) throw new Error(`${response.status} ${text}`);
      if (KIND.startsWith('refresh')) heads[k] = JSON.parse(text).refresh_token;
    };
    for (let i = 0; i < W; i++) await send(i);
    // Sampled through the window too: a pooled connection the server closes meanwhile (idle) keeps the
    // CPU it was last seen with, and one it opens counts from its start.
    const backendsBefore = POSTGRES ? await backendTicks(root, database) : undefined;
    const backendsSeen = new Map(backendsBefore);
    let sampling = Promise.resolve();
    const sampler =
      backendsBefore &&
      setInterval(() => {
        sampling = sampling
          .then(() => backendTicks(root, database))
          .then((ticks) => ticks.forEach((t, pid) => backendsSeen.set(pid, t)));
      }, 200);
    const before = cpuTicks(server.pid);
    const tripsBefore = proxy?.roundTrips();
    for (let i = W; i < W + N; i++) await send(i);
    const us = ((cpuTicks(server.pid) - before) * TICK_US) / N;
    if (proxy) console.log(`  ${root}: ${((proxy.roundTrips() - tripsBefore) / N).toFixed(2)} round trips per ${KIND}`);
    if (backendsBefore === undefined) return { us };
    clearInterval(sampler);
    await sampling;
    for (const [pid, t] of await backendTicks(root, database)) backendsSeen.set(pid, t);
    let backend = 0;
    for (const [pid, ticks] of backendsSeen) backend += ticks - (backendsBefore.get(pid) ?? 0);
    return { us, backendUs: (backend * TICK_US) / N };
  } finally {
    server.kill('SIGINT');
    await closed;
    await proxy?.close();
    await cleanup();
  }
}

const results = new Map(checkouts.map((c) => [c, []]));
const backendResults = new Map(checkouts.map((c) => [c, []]));
try {
  for (let round = 0; round < Number(options.rounds); round++) {
    const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
    for (const [i, checkout] of order.entries()) {
      const build = round % 2 === 0 ? i : order.length - 1 - i;
      const { us, backendUs } = await measure(
        resolve(checkout),
        `${KIND}${POSTGRES ? '-pg' : ''}-${round + 1}-build${build + 1}`,
      );
      results.get(checkout).push(us);
      if (backendUs !== undefined) backendResults.get(checkout).push(backendUs);
      console.log(
        `round ${round + 1} ${checkout}: ${us.toFixed(0)} µs CPU per ${KIND}` +
          (POSTGRES ? ` (PostgreSQL), its backends ${backendUs.toFixed(0)} µs` : ''),
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [first] = checkouts;
const report = (label, figures) => {
  for (const [checkout, xs] of figures)
    console.log(
      `${label} ${checkout}: ${xs.map((x) => x.toFixed(0)).join(', ')} µs; median ${median(xs).toFixed(0)}` +
        (checkout === first
          ? ''
          : `; × ${first}: ${xs.map((x, i) => (x / figures.get(first)[i]).toFixed(3)).join(', ')}`),
    );
};
report(`${KIND}${POSTGRES ? ' postgres' : ''}`, results);
if (POSTGRES) report(`${KIND} postgres, its backends`, backendResults);
