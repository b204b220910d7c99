#!/usr/bin/env node
// Instructions per request, counted by valgrind's callgrind: `node bench/instructions.mjs [--gatehouse
// <dist/cli/main.js>] [--kind introspect|refresh|refresh-dpop|rest-400|rest-201] [--requests N]`.
// refresh-dpop: a public client's refresh tokens bound to a DPoP key (RFC 9449 §5), a proof signed
// here (not counted) per request. rest-400 is `POST /v2/contacts` without `email` (400), rest-201 the
// same with it (201), both with the bench's bearer access token (contacts:write), as `npm run bench`
// sends them.
//
// Requests per second on a shared 2-core virtual machine move by ±30% from one run to the next (the
// same build measured 5,389 and 9,098 introspections/s ten minutes apart, other processes idle), so a
// before/after of a few percent cannot be read from them. Callgrind counts the instructions the
// server process executes in user space, whatever else the machine does, but not the same count on
// every run: when V8 optimizes each function moves even the count past its optimizing compiler (one
// build gave 427,732 and 417,628 for the 400, 2.4% apart), so a change of a few percent needs
// several runs of each build. The server is started under callgrind twice on a fresh copy of the same
// database, answers W warm-up requests (and then N more in the second start) sent one at a time on
// one connection, and stops; the difference of the two totals over N is the instructions of one
// request at steady state (start-up, migrations and JIT warm-up cancel out). Kernel time (the socket
// write, SQLite's fsync and locks) is not counted: for those, see the syscalls per request
// (`strace -c`), which did not change. Needs valgrind (Debian's package); about 3 minutes.
// `--keep <dir>` keeps the two callgrind files there, for callgrind_annotate (instructions by function).
// `--postgres` runs the server on PostgreSQL (TEST_POSTGRES_URL, default the machine's `test` cluster):
// each start on a fresh copy (CREATE DATABASE … TEMPLATE) of one prepared database.
import { execFileSync, spawn } from 'node:child_process';
import { createPrivateKey, sign } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const BENCH = dirname(fileURLToPath(import.meta.url));
const { values: options } = parseArgs({
  options: {
    gatehouse: { type: 'string', default: join(BENCH, '../packages/server/dist/cli/main.js') },
    kind: { type: 'string', default: 'introspect' },
    requests: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '1000' },
    keep: { type: 'string' },
    postgres: { type: 'boolean', default: false },
  },
});
const POSTGRES = options.postgres ? new URL(process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test') : undefined;
const databaseName = (suffix) => `gatehouse_instructions_${process.pid}_${suffix}`;
const databaseUrl = (name) => Object.assign(new URL(POSTGRES), { pathname: `/${name}` }).toString();
async function postgresAdmin(...statements) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: POSTGRES.toString() });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
const { DEFAULT_RATE_LIMITS } = await import(join(BENCH, '../packages/server/dist/index.js'));
/** Rate limits on, raised past this load, as `npm run bench` runs them. */
const RAISED_RATE_LIMITS = Object.fromEntries(
  Object.keys(DEFAULT_RATE_LIMITS).map((name) => [`RATE_LIMIT_${name.toUpperCase()}`, '1000000/s']),
);
const N = Number(options.requests);
const W = Number(options.warmup);
const work = mkdtempSync(join(tmpdir(), 'gatehouse-instructions-'));

function run(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}`))));
  });
}

/** The bench's own setup: a client, 64 refresh-token chains. */
if (POSTGRES) await postgresAdmin(`CREATE DATABASE ${databaseName('template')}`);
const template = POSTGRES ? databaseUrl(databaseName('template')) : join(work, 'template.db');
const made = JSON.parse(
  await run(process.execPath, [join(BENCH, 'setup/gatehouse.mjs'), 'client', template, '0', '0']),
);
const DPOP = options.kind === 'refresh-dpop';
const { tokens, accessToken, dpopJwk, clientId } = JSON.parse(
  await run(process.execPath, [join(BENCH, 'setup/gatehouse.mjs'), DPOP ? 'dpop-chains' : 'chains', template, '64']),
);
const authorization = `Basic ${Buffer.from(`${made.clientId}:${made.clientSecret}`).toString('base64')}`;
const dpopKey = DPOP ? createPrivateKey({ key: dpopJwk, format: 'jwk' }) : undefined;
const dpopHeader = DPOP
  ? Buffer.from(
      JSON.stringify({ alg: 'ES256', typ: 'dpop+jwt', jwk: { kty: 'EC', crv: 'P-256', x: dpopJwk.x, y: dpopJwk.y } }),
    ).toString('base64url')
  : '';
let jti = 0;

/** A fresh proof for one refresh (RFC 9449 §4.2), as bench/lib/loadgen.mjs makes them. */
function dpopProof() {
  const claims = {
    htm: 'POST',
    htu: 'http://localhost/token',
    iat: Math.floor(Date.now() / 1000),
    jti: `${process.pid}.${++jti}`,
  };
  const input = `${dpopHeader}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const signature = sign('sha256', Buffer.from(input), { key: dpopKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** The request of `--kind`, for the head of one refresh-token chain (the i-th request). */
function request(head, i) {
  const form = { authorization, 'content-type': 'application/x-www-form-urlencoded' };
  const json = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  switch (options.kind) {
    case 'refresh':
      return { path: '/token', headers: form, body: `grant_type=refresh_token&refresh_token=${head}`, expect: 200 };
    case 'refresh-dpop':
      return {
        path: '/token',
        headers: { dpop: dpopProof(), 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=refresh_token&client_id=${clientId}&refresh_token=${head}`,
        expect: 200,
      };
    case 'introspect':
      return { path: '/introspect', headers: form, body: `token=${head}`, expect: 200 };
    case 'rest-400':
      return { path: '/v2/contacts', headers: json, body: '{"name":"Ada Lovelace"}', expect: 400 };
    case 'rest-201':
      return {
        path: '/v2/contacts',
        headers: json,
        body: JSON.stringify({ email: `ada.${i}@example.com`, name: 'Ada Lovelace' }),
        expect: 201,
      };
    default:
      throw new Error(`--kind ${options.kind}: introspect, refresh, refresh-dpop, rest-400 or rest-201`);
  }
}

/** Total instructions of one server start that answers `count` requests, then stops. */
async function instructions(count) {
  const database = POSTGRES ? databaseUrl(databaseName(count)) : join(work, `${count}.db`);
  if (!POSTGRES) copyFileSync(template, database);
  const out = join(work, `${count}.callgrind`);
  const server = spawn(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, options.gatehouse, 'serve'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: POSTGRES ? database : `sqlite://${database}`,
        PORT: '0',
        HOST: '127.0.0.1',
        ISSUER: 'http://localhost',
        LOG_LEVEL: 'warn',
        ...RAISED_RATE_LIMITS,
      },
    },
  );
  let log = '';
  server.stderr.on('data', (chunk) => (log += chunk));
  const port = await new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk) => {
      log += chunk;
      const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
      if (listening) resolve(Number(listening[1]));
    });
    server.on('close', () => reject(new Error(`the server stopped before listening: ${log}`)));
  });
  const heads = [...tokens];
  for (let i = 0; i < count; i++) {
    const k = i % heads.length;
    const { path, headers, body, expect } = request(heads[k], i);
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers, body });
    const text = await response.text();
    if (response.status !== expect) throw new Error(`${response.status} ${text}`);
    if (options.kind.startsWith('refresh')) heads[k] = JSON.parse(text).refresh_token;
    if (DPOP && JSON.parse(text).token_type !== 'DPoP') throw new Error(`token_type is not DPoP: ${text}`);
  }
  const closed = new Promise((resolve) => server.on('close', resolve));
  server.kill('SIGINT');
  await closed;
  const summary = /^summary: (\d+)/m.exec(readFileSync(out, 'utf8'));
  if (!summary) throw new Error(`no summary in ${out}`);
  if (options.keep !== undefined) {
    mkdirSync(options.keep, { recursive: true });
    copyFileSync(out, join(options.keep, `${options.kind}-${count}.callgrind`));
  }
  return { total: Number(summary[1]), compiler: compilerInstructions(out) };
}

/**
 * The instructions of V8's optimizing compiler (TurboFan, `v8::internal::compiler::`) in a run.
 * It compiles the functions of the request path as they become hot, for the first ~5,000 requests
 * of a start (--trace-opt: 256 functions optimized after 500 introspections, 316 after 1,000, 500
 * after 2,500, 548 after 5,000), so a window of a few thousand requests still holds much of it:
 * reported apart, so that a change is read on the work of the requests themselves.
 */
function compilerInstructions(file) {
  const text = execFileSync('callgrind_annotate', ['--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^\s*([\d,]+) \([^)]*\)\s+(.*)$/.exec(line);
    if (match && match[2].includes('v8::internal::compiler::')) sum += Number(match[1].replaceAll(',', ''));
  }
  return sum;
}

try {
  // One copy at a time: a template database may not be copied while another copy is made of it.
  for (const count of POSTGRES ? [W, W + N] : [])
    await postgresAdmin(`CREATE DATABASE ${databaseName(count)} TEMPLATE ${databaseName('template')}`);
  const [base, more] = await Promise.all([instructions(W), instructions(W + N)]);
  const perRequest = (more.total - base.total) / N;
  const compiling = (more.compiler - base.compiler) / N;
  const count = (n) => Math.round(n).toLocaleString('en');
  console.log(
    `${options.kind}: ${count(perRequest)} instructions per request, ${count(perRequest - compiling)} without ` +
      `V8's optimizing compiler (${count(compiling)}) ` +
      `(${options.gatehouse}; ${W} warm-up, ${N} measured, one connection, sequential)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
  if (POSTGRES)
    await postgresAdmin(...[W, W + N, 'template'].map((suffix) => `DROP DATABASE IF EXISTS ${databaseName(suffix)}`));
}
