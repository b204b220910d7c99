// `npm run bench [-- --quick] [-- --profile] [-- --only refresh,introspect] [-- --runs N]`
//
// Runs every scenario against Gatehouse and its peers, each server in its own process, the load
// generator (lib/loadgen.mjs) in another; prints one table of medians and writes it, with the
// machine and the date, to bench/RESULTS.md (bench/RESULTS-quick.md for --quick, a smoke run).
// --profile starts Gatehouse and the peers written here (bench/servers) with --cpu-prof and leaves
// one .cpuprofile per measurement in
// bench/profiles/; `node bench/lib/profile-summary.mjs <file>` says where its time went.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(BENCH);


const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    only: { type: 'string' },
    runs: { type: 'string' },
    // Another build of Gatehouse (its dist/cli/main.js), e.g. to measure a change before and after;
    // such a run writes no results file.
    gatehouse: { type: 'string' },
    peers: { type: 'string' },
    // Measures at once instead of waiting (up to two minutes) for a quiet machine: for a before/after
    // on a machine that is never quiet, whose figures are then only comparable within the run.
    loaded: { type: 'boolean', default: false },
    // Re-renders the table and results file from the log (stderr) of an earlier run.
    'from-log': { type: 'string' },
  },
});
const QUICK = options.quick;
const RUNS = Number(options.runs ?? (QUICK ? 1 : 3));
const WARMUP_MS = QUICK ? 500 : 2000;
const DURATION_MS = QUICK ? 1500 : 10_000;
const CHAINS = 64;
const GATEHOUSE_MAIN = options.gatehouse ?? join(ROOT, 'packages/server/dist/cli/main.js');
const RSS_TARGET_MB = 200;

/**
 * The scenarios. Every one runs its peers in the same run, one after the other, so that the ratios
 * are taken within one run. `stored`: refresh tokens in Gatehouse's database when the load starts.
 */
const SCENARIOS = [
  { id: 'refresh', title: 'refresh grant, rotation (64 chains)', kind: 'refresh', peers: ['gatehouse', 'floor', 'floor+fastify', 'oidc-provider', 'node:http'], stored: CHAINS },
  // DESIGN.md's targets are for every feature on: an OpenID grant (a new ID token, signed, with each
  // refresh: OIDC Core §12.2) of a client with a replay window configured, each token sent once. The
  // refresh targets are read on it: against the floor of `refresh` in the same run (the floor signs
  // no ID token), and against oidc-provider serving OpenID grants too (an ID token each).
  // Its own floor (floor-oidc) signs an RS256 ID token with each refresh, on the thread pool, as Gatehouse does.
  // The `refresh` chains of a user in 50 groups holding 20 roles of the REST API (RFC 9068 §2.2.3.1:
  // each access token carries both lists): what reading and carrying them costs, beside `refresh`.
  { id: 'refresh-roles', title: 'refresh grant, rotation, a user with 50 groups and 20 roles', kind: 'refresh', peers: ['gatehouse'], stored: CHAINS, roles: true },
  { id: 'refresh-oidc', title: 'refresh, every feature on: an OpenID grant (an ID token each time), a 300 s replay window', kind: 'refresh', peers: ['gatehouse', 'floor-oidc', 'oidc-provider'], stored: CHAINS, replayWindow: 300, openid: true, floor: 'floor-oidc' },
  { id: 'refresh-replay', title: 'refresh, each token replayed once inside a 300 s window', kind: 'refreshReplay', peers: ['gatehouse'], stored: CHAINS, replayWindow: 300 },
  // Tracing on (TRACING=otlp, every span exported to a local OTLP sink): its cost beside `refresh`, where it is off.
  { id: 'refresh-traced', title: 'refresh grant, TRACING=otlp to a local OTLP receiver', kind: 'refresh', peers: ['gatehouse'], stored: CHAINS, tracing: true },
  // A public client's refresh tokens bound to a DPoP key (RFC 9449 §5): a proof checked, and noted, per refresh.
  // Its floor (floor-dpop) verifies one ES256 proof per refresh and records its jti in the rotation's transaction.
  { id: 'refresh-dpop', title: 'refresh grant, public client, DPoP-bound (64 chains)', kind: 'refreshDpop', peers: ['gatehouse', 'floor-dpop', 'oidc-provider'], stored: CHAINS, floor: 'floor-dpop', dpop: true },
  { id: 'introspect', title: 'introspection of a live refresh token', kind: 'introspect', peers: ['gatehouse', 'floor', 'floor+fastify', 'oidc-provider', 'node:http'], stored: CHAINS },
  { id: 'rest-201', title: 'POST /v2/contacts → 201', kind: 'restCreate', peers: ['gatehouse', 'node:http', 'fastify'], stored: CHAINS },
  { id: 'rest-400', title: 'POST /v2/contacts, no email → 400', kind: 'restMissing', peers: ['gatehouse', 'node:http', 'fastify'], stored: CHAINS },
  // The kit's overhead: the same plain Fastify route, with (fastify+kit) and without (fastify) the resource-server kit.
  { id: 'kit-201', title: 'Fastify route behind the kit, verified token → 201', kind: 'restCreate', peers: ['fastify+kit', 'fastify'], stored: CHAINS },
  // Its floor (fastify+dpop) is the plain route verifying one ES256 proof per request.
  { id: 'kit-dpop-201', title: 'Fastify route behind the kit, DPoP-bound token and proof → 201', kind: 'restCreateDpop', peers: ['fastify+kit', 'fastify+dpop', 'fastify'], stored: CHAINS, floor: 'fastify+dpop' },
  { id: 'kit-400', title: 'Fastify route behind the kit, verified token, no email → 400', kind: 'restMissing', peers: ['fastify+kit', 'fastify'], stored: CHAINS },
  // Gatehouse alone; bench/README.md quotes Keycloak's published figures beside them.
  { id: 'client-credentials', title: 'client credentials grant (a service account)', kind: 'clientCredentials', peers: ['gatehouse'], stored: CHAINS },
  { id: 'sign-in', title: 'password sign-in: GET /authorize, POST /login (scrypt)', kind: 'signIn', peers: ['gatehouse'], stored: CHAINS },
  { id: 'code-flow', title: 'whole code flow: authorize, sign-in, consent, code exchange', kind: 'codeFlow', peers: ['gatehouse'], stored: CHAINS },
  // PostgreSQL (the machine's, TEST_POSTGRES_URL), two Gatehouse processes sharing it; the log adds
  // the store's commits, rows written and round trips per refresh.
  // Its floor (floor-pg, two processes too): node:http, pg, the rotation's rows in one transaction.
  { id: 'refresh-pg', title: 'refresh grant, rotation, PostgreSQL, two processes', kind: 'refresh', peers: ['gatehouse', 'floor-pg'], stored: CHAINS, postgres: true, processes: 2, floor: 'floor-pg' },
  { id: 'refresh-pg-roles', title: 'refresh-pg, a user with 50 groups and 20 roles', kind: 'refresh', peers: ['gatehouse'], stored: CHAINS, postgres: true, processes: 2, roles: true },
  // The console's users page with 100,000 users (GET /admin/v1/users, an admin token): the first
  // page, and a search by part of a username (a LIKE over every username in the store).
  { id: 'console-users', title: 'console: first page of users, 100,000 users', kind: 'consoleUsers', peers: ['gatehouse'], stored: CHAINS, users: 100_000 },
  { id: 'console-search', title: 'console: users searched by part of the username, 100,000 users', kind: 'consoleSearch', peers: ['gatehouse'], stored: CHAINS, users: 100_000 },
  // The dashboard's read (GET /admin/v1/overview: the counts of users, clients and live grants, the
  // mail outbox, the signing keys) with 100,000 users, and the first page of groups with 10,000.
  { id: 'console-overview', title: 'console: the dashboard (GET /admin/v1/overview), 100,000 users', kind: 'consoleOverview', peers: ['gatehouse'], stored: CHAINS, users: 100_000 },
  { id: 'console-groups', title: 'console: first page of groups, 10,000 groups, 100,000 users', kind: 'consoleGroups', peers: ['gatehouse'], stored: CHAINS, users: 100_000, groups: 10_000 },
  { id: 'growth-1k', title: 'refresh with 1,000 stored tokens', kind: 'refresh', peers: ['gatehouse'], stored: 1_000 },
  { id: 'growth-1m', title: 'refresh with 1,000,000 stored tokens', kind: 'refresh', peers: ['gatehouse'], stored: 1_000_000 },
  // The same on PostgreSQL (two processes, as refresh-pg): the rotation's lookups by primary key at a million rows.
  { id: 'growth-pg-1k', title: 'refresh-pg with 1,000 stored tokens', kind: 'refresh', peers: ['gatehouse'], stored: 1_000, postgres: true, processes: 2 },
  { id: 'growth-pg-1m', title: 'refresh-pg with 1,000,000 stored tokens', kind: 'refresh', peers: ['gatehouse'], stored: 1_000_000, postgres: true, processes: 2 },
].filter((s) => !options.only || options.only.split(',').includes(s.id))
  .map((s) => ({ ...s, peers: s.peers.filter((p) => !options.peers || options.peers.split(',').includes(p)) }));

const PATHS = {
  gatehouse: { refresh: '/token', refreshReplay: '/token', refreshDpop: '/token', introspect: '/introspect', restCreate: '/v2/contacts', restMissing: '/v2/contacts',
    clientCredentials: '/token', signIn: '/login', codeFlow: '/token', consoleUsers: '/admin/v1/users', consoleSearch: '/admin/v1/users',
    consoleOverview: '/admin/v1/overview', consoleGroups: '/admin/v1/groups' },
  floor: { refresh: '/token', introspect: '/introspect' },
  'floor-oidc': { refresh: '/token' },
  'floor-dpop': { refreshDpop: '/token' },
  'floor-pg': { refresh: '/token' },
  'fastify+dpop': { restCreateDpop: '/v2/contacts' },
  'floor+fastify': { refresh: '/token', introspect: '/introspect' },
  'oidc-provider': { refresh: '/token', introspect: '/token/introspection', refreshDpop: '/token' },
  'node:http': { refresh: '/token', introspect: '/introspect', restCreate: '/v2/contacts', restMissing: '/v2/contacts' },
  fastify: { restCreate: '/v2/contacts', restMissing: '/v2/contacts', restCreateDpop: '/v2/contacts' },
  'fastify+kit': { restCreate: '/v2/contacts', restMissing: '/v2/contacts', restCreateDpop: '/v2/contacts' },
};

const work = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
const profileDir = join(BENCH, 'profiles');
if (options.profile) mkdirSync(profileDir, { recursive: true });

function writeReport(results) {
  const report = renderReport(results);
  process.stdout.write(`\n${report.table}\n${report.targets}\n`);
  if (!options.gatehouse) {
    const file = join(BENCH, QUICK ? 'RESULTS-quick.md' : 'RESULTS.md');
    writeFileSync(file, report.markdown);
    log(`written to ${file}`);
  }
}

/** The measurements of a log, as the lines logged by main() print them. */
function resultsFromLog(text) {
  const line = /^run (\d+)\/\d+ (\S+) (\S+): ([\d,]+) req\/s, p50 ([\d.]+), p99 ([\d.]+), RSS ([\d,]+) MB, server ([\d.]+) cores = ([\d,]+) µs CPU\/request, other processes ([\d.]+) cores$/;
  const number = (v) => Number(v.replaceAll(',', ''));
  return text.split('\n').map((l) => line.exec(l)).filter(Boolean).map((m) => ({
    run: number(m[1]), scenario: m[2], peer: m[3], rps: number(m[4]), p50Ms: number(m[5]), p99Ms: number(m[6]), rssMb: number(m[7]),
    serverCores: number(m[8]), cpuUsPerRequest: number(m[9]), otherCpu: number(m[10]),
  }));
}

// --- one measurement ---------------------------------------------------------------------------

async function measure(scenario, peer, run) {
  if (!QUICK && !options.loaded) {
    const busy = await waitForQuiet(120_000);
    if (busy >= 0.15) log(`other processes keep ${busy.toFixed(2)} cores busy; measuring anyway`);
  }
  const server = peer === 'gatehouse' ? await startGatehouse(scenario, run) : await startPeer(peer, scenario, run);
  try {
    const plan = {
      kind: scenario.kind, origin: `http://127.0.0.1:${server.port}`, origins: server.ports?.map((port) => `http://127.0.0.1:${port}`), path: PATHS[peer][scenario.kind], connections: CHAINS,
      warmupMs: WARMUP_MS, durationMs: DURATION_MS, tokens: server.tokens,
      authorization: scenario.kind.startsWith('rest') || scenario.kind.startsWith('console') ? server.bearer
        : scenario.kind === 'clientCredentials' ? basic(server.serviceClientId, server.serviceClientSecret) : basic(server.clientId, server.clientSecret),
      scope: 'contacts:read', publicClientId: server.publicClientId, redirectUri: server.redirectUri, username: server.username, password: server.password,
      ...(server.dpopJwk === undefined ? {} : { dpopJwk: server.dpopJwk, dpopAccessToken: server.dpopAccessToken }),
      ...(scenario.kind === 'refreshDpop' ? { clientId: server.clientId, htu: server.htu ?? 'http://localhost/token' } : {}),
      ...(scenario.openid ? { expectIdToken: true } : {}),
    };
    const pids = [server.child.pid, ...(server.others ?? []).map((c) => c.pid)];
    if (!scenario.postgres || peer !== 'gatehouse') return await runLoad(plan, pids);
    const before = await postgresActivity(server.database);
    const result = await runLoad({ ...plan, countAll: true }, pids);
    const after = await postgresActivity(server.database);
    const perRefresh = (key) => (after[key] - before[key]) / result.total;
    const roundTrips = await postgresRoundTrips(server, plan);
    log(`${scenario.id}: per refresh ${perRefresh('commits').toFixed(2)} commits, ${perRefresh('rowsWritten').toFixed(2)} rows written `
      + `(${perRefresh('inserted').toFixed(2)} inserted, ${perRefresh('updated').toFixed(2)} updated, ${perRefresh('deleted').toFixed(2)} deleted), `
      + `${roundTrips.toFixed(2)} round trips to PostgreSQL`);
    return { ...result, commitsPerRequest: perRefresh('commits'), rowsPerRequest: perRefresh('rowsWritten'), roundTripsPerRequest: roundTrips };
  } finally {
    // The servers first, then what they send to (the OTLP sink): a server's last export at its stop finds it listening.
    await Promise.all([server.child, ...(server.others ?? [])].map(stop));
    await Promise.all((server.helpers ?? []).map(stop));
    await server.dropDatabase?.();
  }
}

/**
 * Runs the load generator; samples the server's resident memory while the load is measured, and
 * how much CPU processes other than the server and the load generator took meanwhile (this machine
 * may be shared: such a measurement is flagged in the log and the report).
 */
async function runLoad(plan, serverPids) {
  const loadgen = spawn(process.execPath, [join(BENCH, 'lib/loadgen.mjs'), JSON.stringify(plan)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collect(loadgen);
  let rssKb = 0;
  let cpuAtStart = null;
  const startedAt = Date.now();
  const sampler = setInterval(() => {
    if (Date.now() - startedAt < plan.warmupMs) return;
    rssKb = Math.max(rssKb, ...serverPids.map(residentKb));
    cpuAtStart ??= cpuTicks([...serverPids, loadgen.pid]);
    serverAtStart ??= cpuTicks(serverPids);
    if (Date.now() - startedAt < plan.warmupMs + plan.durationMs) {
      cpuAtEnd = cpuTicks([...serverPids, loadgen.pid]);
      serverAtEnd = cpuTicks(serverPids);
    }
  }, 200);
  let cpuAtEnd = null;
  let serverAtStart = null;
  let serverAtEnd = null;
  const code = await exited(loadgen);
  clearInterval(sampler);
  const { stdout, stderr } = output();
  if (code !== 0) throw new Error(`the load generator stopped (${code}): ${stderr.trim()}`);
  const measured = JSON.parse(stdout);
  // The server's CPU time per answered request: what the server itself spends, whatever else runs.
  const serverCores = serverAtStart && serverAtEnd ? (serverAtEnd.own - serverAtStart.own) / 100 / ((serverAtEnd.at - serverAtStart.at) / 1000) : NaN;
  return { ...measured, rssMb: rssKb / 1024, otherCpu: otherCpuShare(cpuAtStart, cpuAtEnd), serverCores, cpuUsPerRequest: (serverCores * 1e6) / measured.rps };
}

/** Busy ticks of the whole machine and of `pids`, from /proc. */
function cpuTicks(pids) {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const busy = fields.slice(0, 8).reduce((a, b) => a + b, 0) - fields[3] - fields[4];
  let own = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      own += Number(after[11]) + Number(after[12]); // utime, stime
    } catch {
      // exited
    }
  }
  return { busy, own, at: performance.now() };
}

/** CPU taken by other processes between two samples, in cores (1 = one core fully busy). */
function otherCpuShare(start, end) {
  if (!start || !end || end.at <= start.at) return NaN;
  const ticksPerSecond = 100;
  return Math.max(0, (end.busy - start.busy) - (end.own - start.own)) / ticksPerSecond / ((end.at - start.at) / 1000);
}

/** Waits (up to `limitMs`) until other processes use less than `cores` of CPU over one second. */
async function waitForQuiet(limitMs, cores = 0.15) {
  const until = Date.now() + limitMs;
  for (;;) {
    const start = cpuTicks([]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const share = otherCpuShare(start, cpuTicks([]));
    if (share < cores || Date.now() >= until) return share;
  }
}

function residentKb(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

// --- the servers -------------------------------------------------------------------------------

/**
 * The whole load comes from one address and one client, far past the default rate limits. The
 * limiter stays on (its cost is measured), with limits no load generator here reaches.
 */
const { DEFAULT_RATE_LIMITS } = await import(join(ROOT, 'packages/server/dist/index.js'));
const RAISED_RATE_LIMITS = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((name) => [`RATE_LIMIT_${name.toUpperCase()}`, '1000000/s']));

/** Gatehouse from its build, as `gatehouse serve` on SQLite, its database prepared beforehand. */
async function startGatehouse(scenario, run) {
  if (scenario.postgres) return startGatehouseOnPostgres(scenario, run);
  const template = await gatehouseTemplate(scenario.stored - CHAINS, scenario.replayWindow ?? 0);
  const database = join(work, `${scenario.id}-${run}.db`);
  rmSync(database, { force: true });
  copyFileSync(template.file, database);
  const chains = scenario.kind === 'refreshDpop' ? 'dpop-chains' : scenario.openid ? 'oidc-chains' : scenario.roles ? 'roles-chains' : 'chains';
  const made = JSON.parse(await node([join(BENCH, 'setup/gatehouse.mjs'), chains, database, String(CHAINS)]));
  const { tokens, dpopJwk, clientId } = made;
  // The console scenarios' users, and the admin token their requests carry.
  const accessToken = scenario.users === undefined ? made.accessToken
    : JSON.parse(await node([join(BENCH, 'setup/gatehouse.mjs'), 'console-users', database, String(scenario.users), String(scenario.groups ?? 0)])).accessToken;
  const flags = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${scenario.id}-${run}.cpuprofile`] : [];
  const tracing = scenario.tracing ? await startOtlpSink() : undefined;
  const child = spawn(process.execPath, [...flags, GATEHOUSE_MAIN, 'serve'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: `sqlite://${database}`, PORT: '0', HOST: '127.0.0.1', ISSUER: 'http://localhost', LOG_LEVEL: 'warn',
      OPENAPI_PATH: join(ROOT, 'openapi.yaml'), ...RAISED_RATE_LIMITS, ...tracing?.env },
  });
  const line = await firstLine(child, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
  const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line)[1]);
  return { ...template, child, port, tokens, clientId: clientId ?? template.clientId, bearer: `Bearer ${accessToken}`, dpopJwk,
    helpers: tracing ? [tracing.child] : [] };
}

/** The OTLP receiver of a traced scenario, and the variables that point Gatehouse's exporter at it. */
async function startOtlpSink() {
  const child = spawn(process.execPath, [join(BENCH, 'servers/otlp-sink.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await firstLine(child, /listening on (http:\/\/\S+)/);
  // The batch processor's defaults (5 s, 512 spans a batch, 2,048 queued): spans beyond the queue are dropped, as in production.
  return { child, env: { TRACING: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: /listening on (http:\/\/\S+)/.exec(line)[1], OTEL_SERVICE_NAME: 'gatehouse-bench' } };
}

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** `scenario.processes` Gatehouse processes on a fresh PostgreSQL database, prepared as the SQLite one is. */
async function startGatehouseOnPostgres(scenario, run) {
  const name = `gatehouse_bench_${scenario.id.replace(/\W/g, '_')}_${run}_${process.pid}`;
  await postgresAdmin(`DROP DATABASE IF EXISTS ${name}`, `CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const database = url.toString();
  const made = JSON.parse(await node([join(BENCH, 'setup/gatehouse.mjs'), 'client', database, String(scenario.stored - CHAINS), String(scenario.replayWindow ?? 0)]));
  const chains = scenario.roles ? 'roles-chains' : 'chains';
  const { tokens, accessToken } = JSON.parse(await node([join(BENCH, 'setup/gatehouse.mjs'), chains, database, String(CHAINS)]));
  const servers = [];
  for (let i = 0; i < (scenario.processes ?? 1); i++) servers.push(await serveGatehouse(database, `${scenario.id}-${run}-${i}`));
  const [first, ...others] = servers;
  return {
    ...made, child: first.child, port: first.port, others: others.map((s) => s.child), ports: servers.map((s) => s.port), tokens,
    bearer: `Bearer ${accessToken}`, database: name, databaseUrl: database,
    dropDatabase: () => postgresAdmin(`DROP DATABASE IF EXISTS ${name}`),
  };
}

async function serveGatehouse(databaseUrl, profileName) {
  const flags = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${profileName}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...flags, GATEHOUSE_MAIN, 'serve'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', ISSUER: 'http://localhost', LOG_LEVEL: 'warn',
      OPENAPI_PATH: join(ROOT, 'openapi.yaml'), ...RAISED_RATE_LIMITS },
  });
  const line = await firstLine(child, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
  return { child, port: Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line)[1]) };
}

async function postgresAdmin(...statements) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The database's commits and rows written so far (pg_stat_database, flushed within a second). */
async function postgresActivity(name) {
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rows: [row] } = await client.query(
      'SELECT xact_commit, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database WHERE datname = $1', [name]);
    const [commits, inserted, updated, deleted] = [row.xact_commit, row.tup_inserted, row.tup_updated, row.tup_deleted].map(Number);
    return { commits, inserted, updated, deleted, rowsWritten: inserted + updated + deleted };
  } finally {
    await client.end();
  }
}

/**
 * Round trips to PostgreSQL per refresh: one more Gatehouse process on the same database, reached
 * through a proxy that counts the client's synchronization points (each answered by ReadyForQuery),
 * under the same load for two seconds. Measured apart so that the proxy costs the throughput nothing.
 */
async function postgresRoundTrips(server, plan) {
  const { countingProxy } = await import('./lib/pg-count-proxy.mjs');
  const target = new URL(server.databaseUrl);
  const proxy = await countingProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(server.databaseUrl);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const counted = await serveGatehouse(viaProxy.toString(), 'round-trips');
  try {
    // The chains' tokens moved on during the measurement: continue from the latest ones.
    const tokens = JSON.parse(await node([join(BENCH, 'setup/gatehouse.mjs'), 'chains', server.databaseUrl, String(CHAINS)])).tokens;
    const start = proxy.roundTrips();
    const result = await runLoad({ ...plan, origin: `http://127.0.0.1:${counted.port}`, origins: undefined, tokens, warmupMs: 0, durationMs: 2000, countAll: true }, [counted.child.pid]);
    return (proxy.roundTrips() - start) / result.total;
  } finally {
    await stop(counted.child);
    await proxy.close();
  }
}

const templates = new Map();

/**
 * A database with the bench client (with a replay window of `replayWindow` seconds) and `fill` stored
 * tokens, made once per bench and copied per run.
 */
async function gatehouseTemplate(fill, replayWindow) {
  const key = `${fill}-${replayWindow}`;
  if (!templates.has(key)) {
    const file = join(work, `template-${key}.db`);
    const made = JSON.parse(await node([join(BENCH, 'setup/gatehouse.mjs'), 'client', file, String(fill), String(replayWindow)]));
    if (fill > 0) log(`filled a database with ${fmtInt(fill)} refresh tokens in ${made.fillSeconds.toFixed(1)} s`);
    templates.set(key, { file, ...made });
  }
  return templates.get(key);
}

const PEER_SERVERS = {
  floor: 'servers/floor.mjs',
  'floor+fastify': 'servers/floor-fastify.mjs',
  'oidc-provider': 'servers/oidc-provider.mjs',
  'node:http': 'servers/node-http.mjs',
  fastify: 'servers/fastify-route.mjs',
  'fastify+kit': 'servers/fastify-kit.mjs',
  'floor-oidc': 'servers/floor-oidc.mjs',
  'floor-dpop': 'servers/floor-dpop.mjs',
  'floor-pg': 'servers/floor-pg.mjs',
  'fastify+dpop': 'servers/fastify-dpop-route.mjs',
};

/** A peer prints one JSON line when it listens: its port, and its credentials and tokens if any. */
async function startPeer(peer, scenario, run) {
  if (peer === 'floor-pg') return startPostgresFloor(scenario, run);
  const name = `${scenario.id}-${peer.replace(/[^\w]+/g, '-')}-${run}.cpuprofile`;
  const flags = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}`] : [];
  const args = [String(CHAINS), ...(scenario.openid ? ['openid'] : scenario.dpop ? ['dpop'] : [])];
  const child = spawn(process.execPath, [...flags, join(BENCH, PEER_SERVERS[peer]), ...args], { cwd: BENCH, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = JSON.parse(await firstLine(child, /^\{"ready":true/));
  return {
    child, port: ready.port, clientId: ready.clientId ?? 'bench', clientSecret: ready.clientSecret ?? 'secret',
    tokens: ready.tokens ?? Array.from({ length: CHAINS }, (_, i) => `opaque-token-${i}`),
    // The same header Gatehouse gets, so that the peers parse as much; they do not check it
    // (fastify+kit does, and names its own token).
    bearer: ready.bearer ?? `Bearer ${'x'.repeat(520)}`,
    dpopJwk: ready.dpopJwk,
    dpopAccessToken: ready.dpopAccessToken,
    htu: ready.htu,
  };
}

/** The PostgreSQL floor: `scenario.processes` processes of servers/floor-pg.mjs on a fresh database. */
async function startPostgresFloor(scenario, run) {
  const name = `gatehouse_bench_floor_${run}_${process.pid}`;
  await postgresAdmin(`DROP DATABASE IF EXISTS ${name}`, `CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const children = [];
  const start = async (role, env) => {
    const profile = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${scenario.id}-floor-pg-${run}-${children.length}.cpuprofile`] : [];
    const child = spawn(process.execPath, [...profile, join(BENCH, PEER_SERVERS['floor-pg']), String(CHAINS), url.toString(), role], {
      cwd: BENCH, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    children.push(child);
    return JSON.parse(await firstLine(child, /^\{"ready":true/));
  };
  const first = await start('setup', {});
  const ports = [first.port];
  for (let i = 1; i < (scenario.processes ?? 1); i++) ports.push((await start('serve', { FLOOR_SECRET: first.clientSecret })).port);
  return {
    child: children[0], others: children.slice(1), port: first.port, ports, clientId: first.clientId, clientSecret: first.clientSecret,
    tokens: first.tokens, bearer: '', database: name, databaseUrl: url.toString(), dropDatabase: () => postgresAdmin(`DROP DATABASE IF EXISTS ${name}`),
  };
}

// --- processes ---------------------------------------------------------------------------------

function node(args) {
  const child = spawn(process.execPath, args, { cwd: BENCH, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collect(child);
  return exited(child).then((code) => {
    const { stdout, stderr } = output();
    if (code !== 0) throw new Error(`node ${args.join(' ')} failed (${code}): ${stderr.trim()}`);
    return stdout;
  });
}

function collect(child) {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  return () => ({ stdout, stderr });
}

function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code, signal) => resolve(code ?? signal));
  });
}

/** The first stdout line matching `pattern`; fails if the process exits or takes over 60 s. */
function firstLine(child, pattern) {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`no ready line from ${child.spawnargs.join(' ')}`)), 60_000);
    const onData = (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve(line);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${child.spawnargs.join(' ')} exited (${code}) before it was ready`));
    });
  });
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const done = exited(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await done;
  clearTimeout(timer);
}

// --- the report --------------------------------------------------------------------------------

function renderReport(results) {
  const median = (values) => {
    const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
    if (sorted.length === 0) return NaN;
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const of = (scenario, peer) => results.filter((r) => r.scenario === scenario && r.peer === peer);
  const stat = (scenario, peer, key) => median(of(scenario, peer).map((r) => r[key]));
  // Ratios within one run, then their median.
  const ratio = (scenarioA, peerA, scenarioB, peerB) => median(of(scenarioA, peerA).map((a) => {
    const b = results.find((r) => r.run === a.run && r.scenario === scenarioB && r.peer === peerB);
    return b ? a.rps / b.rps : NaN;
  }));

  const peerColumns = ['floor', 'floor+fastify', 'oidc-provider', 'node:http', 'fastify'];
  // `× its floor`: against the floor that does the scenario's own cryptographic work (scenario.floor).
  const header = ['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'RSS MB', 'CPU µs/req', '× its floor', ...peerColumns.map((p) => `× ${p}`)];
  const rows = [];
  for (const scenario of SCENARIOS) {
    for (const peer of scenario.peers) {
      // Gatehouse and the kit against every peer; the floor served by Fastify against the floor.
      const compared = (other) => peer === 'gatehouse' || peer === 'fastify+kit' || (peer === 'floor+fastify' && other === 'floor');
      const ratios = peerColumns.map((other) => (compared(other) && scenario.peers.includes(other) ? fmtRatio(ratio(scenario.id, peer, scenario.id, other)) : ''));
      const ownFloor = scenario.floor && (peer === 'gatehouse' || peer === 'fastify+kit') && scenario.peers.includes(scenario.floor)
        ? fmtRatio(ratio(scenario.id, peer, scenario.id, scenario.floor)) : '';
      rows.push([scenario.id, peer, fmtInt(stat(scenario.id, peer, 'rps')), fmtMs(stat(scenario.id, peer, 'p50Ms')),
        fmtMs(stat(scenario.id, peer, 'p99Ms')), fmtInt(stat(scenario.id, peer, 'rssMb')), fmtInt(stat(scenario.id, peer, 'cpuUsPerRequest')), ownFloor, ...ratios]);
    }
  }

  const has = (id) => SCENARIOS.some((s) => s.id === id);
  // Costs are CPU per request over the same median of another scenario.
  const cost = (scenario, base) => stat(scenario, 'gatehouse', 'cpuUsPerRequest') / stat(base, 'gatehouse', 'cpuUsPerRequest');
  const targets = [];
  // The targets of DESIGN.md ("Non-functional"), with every feature on.
  // `base`: the scenario the peer ran in, when Gatehouse's is another (refresh-oidc against refresh's peers).
  const target = (label, scenario, peer, min, base = scenario) => {
    if (!has(scenario) || !has(base) || !SCENARIOS.find((s) => s.id === base).peers.includes(peer)) return;
    const r = ratio(scenario, 'gatehouse', base, peer);
    targets.push([label, fmtRatio(r), min === undefined || r >= min]);
  };
  // The targets (DESIGN.md, "Non-functional"), each read against a floor that does the same cryptographic work.
  target('refresh (plain) ≥ 0.9× the floor', 'refresh', 'floor', 0.9);
  target('refresh (plain) ≥ 1.5× oidc-provider', 'refresh', 'oidc-provider', 1.5);
  target('refresh-oidc (RS256 ID token, replay window, rate limits, audit) ≥ 0.9× the floor that also signs an RS256 ID token on the pool', 'refresh-oidc', 'floor-oidc', 0.9);
  target('refresh-oidc ≥ 1.5× oidc-provider with OpenID grants', 'refresh-oidc', 'oidc-provider', 1.5);
  target('refresh-dpop ≥ 0.85× the floor that also verifies one ES256 proof and records its jti', 'refresh-dpop', 'floor-dpop', 0.85);
  target('refresh-dpop ≥ 1.5× oidc-provider with DPoP', 'refresh-dpop', 'oidc-provider', 1.5);
  target('introspection ≥ 0.8× its floor', 'introspect', 'floor', 0.8);
  target('introspection ≥ 2× oidc-provider', 'introspect', 'oidc-provider', 2);
  target('refresh-pg ≥ 0.9× the PostgreSQL floor (node:http + pg, the same rows in one transaction)', 'refresh-pg', 'floor-pg', 0.9);
  if (has('refresh-pg')) {
    const trips = stat('refresh-pg', 'gatehouse', 'roundTripsPerRequest');
    if (Number.isFinite(trips)) targets.push(['refresh-pg ≤ 3 round trips per refresh (lib/pg-count-proxy.mjs)', trips.toFixed(2), trips <= 3]);
    if (has('refresh')) {
      const r = cost('refresh-pg', 'refresh');
      targets.push(['refresh-pg: CPU per refresh ≤ 3× SQLite\'s (refresh)', fmtRatio(r), r <= 3]);
    }
  }
  // Issue 48: a refresh of a user with 50 groups and 20 roles costs ≤ 1.15× one of a user with none (CPU per refresh).
  if (has('refresh-roles') && has('refresh')) {
    const r = cost('refresh-roles', 'refresh');
    targets.push(['refresh-roles (50 groups, 20 roles): CPU per refresh ≤ 1.15× refresh\'s', fmtRatio(r), r <= 1.15]);
  }
  if (has('refresh-pg-roles')) {
    const trips = stat('refresh-pg-roles', 'gatehouse', 'roundTripsPerRequest');
    if (Number.isFinite(trips)) targets.push(['refresh-pg-roles ≤ 3 round trips per refresh (lib/pg-count-proxy.mjs)', trips.toFixed(2), trips <= 3]);
    if (has('refresh-pg')) {
      const r = cost('refresh-pg-roles', 'refresh-pg');
      targets.push(['refresh-pg-roles: CPU per refresh, × refresh-pg\'s (reported)', fmtRatio(r), true]);
    }
  }
  // What the two floor targets leave for Gatehouse once its framework is paid for: the floor's own
  // work served by a plain Fastify app (servers/floor-fastify.mjs), over the floor.
  for (const id of ['refresh', 'introspect'].filter(has)) {
    const { peers } = SCENARIOS.find((s) => s.id === id);
    if (!peers.includes('floor') || !peers.includes('floor+fastify')) continue;
    const r = ratio(id, 'floor+fastify', id, 'floor');
    targets.push([`${id}: the floor served by plain Fastify, × the floor (the framework alone; reported, no target)`, fmtRatio(r), true]);
  }
  target('400 missing-field (bearer check included) ≥ 1.0× the plain Fastify route', 'rest-400', 'fastify', 1.0);
  target('201 create (bearer check included) ≥ 0.8× the plain Fastify route', 'rest-201', 'fastify', 0.8);
  if (has('growth-1k') && has('growth-1m')) {
    const r = ratio('growth-1m', 'gatehouse', 'growth-1k', 'gatehouse');
    targets.push([`refresh at 1,000,000 tokens ≥ 0.85× at 1,000 (SQLite)`, fmtRatio(r), r >= 0.85]);
  }
  if (has('growth-pg-1k') && has('growth-pg-1m')) {
    const r = ratio('growth-pg-1m', 'gatehouse', 'growth-pg-1k', 'gatehouse');
    targets.push([`refresh at 1,000,000 tokens ≥ 0.85× at 1,000 (PostgreSQL)`, fmtRatio(r), r >= 0.85]);
  }
  for (const id of ['kit-201', 'kit-400'].filter(has)) {
    const r = ratio(id, 'fastify+kit', id, 'fastify');
    targets.push([`${id}: the route behind the kit ≥ 0.8× the plain route`, fmtRatio(r), r >= 0.8]);
  }
  // What a DPoP proof costs behind the kit, against the plain route that verifies one proof; what tracing costs.
  if (has('kit-dpop-201') && SCENARIOS.find((s) => s.id === 'kit-dpop-201').peers.includes('fastify+dpop')) {
    const r = ratio('kit-dpop-201', 'fastify+kit', 'kit-dpop-201', 'fastify+dpop');
    targets.push(['kit-dpop-201 ≥ 0.85× a plain Fastify route that verifies one ES256 proof', fmtRatio(r), r >= 0.85]);
  }
  if (has('refresh-dpop') && has('refresh')) {
    const r = cost('refresh-dpop', 'refresh');
    targets.push(['a DPoP-bound refresh\'s CPU, × a plain one (reported)', fmtRatio(r), true]);
  }
  if (has('refresh-traced') && has('refresh')) {
    const r = cost('refresh-traced', 'refresh');
    targets.push(['TRACING=otlp: a refresh\'s CPU, × with tracing off (reported, no target)', fmtRatio(r), true]);
  }
  if (SCENARIOS.some((s) => s.peers.includes('gatehouse'))) {
    // Every run of every scenario, not the medians.
    const runs = results.filter((r) => r.peer === 'gatehouse' && Number.isFinite(r.rssMb));
    const worst = runs.reduce((a, b) => (b.rssMb > (a?.rssMb ?? -1) ? b : a), undefined);
    if (worst) targets.push([`Gatehouse RSS ≤ ${RSS_TARGET_MB} MB in every run`, `${fmtInt(worst.rssMb)} MB at most (${worst.scenario}, run ${worst.run})`, worst.rssMb <= RSS_TARGET_MB]);
  }

  const others = results.map((r) => r.otherCpu).filter(Number.isFinite);
  const table = markdownTable(header, rows);
  const targetTable = markdownTable(['target', 'measured', 'met'], targets.map(([t, m, ok]) => [t, m, ok ? 'yes' : 'NO']));
  const machine = machineDescription();
  const markdown = [
    `# Benchmark results${QUICK ? ' (quick smoke run: not for comparison)' : ''}`, '',
    `Written by \`npm run bench${QUICK ? ' -- --quick' : ''}\` on ${runDate().toISOString().slice(0, 16).replace('T', ' ')} UTC.`, '',
    `Machine: ${machine}.`, '',
    `${RUNS} run${RUNS > 1 ? 's' : ''}; each measurement ${WARMUP_MS / 1000} s warm-up then ${DURATION_MS / 1000} s measured, ${CHAINS} keep-alive connections`
      + ` in a closed loop; figures are medians over the runs, ratios (× peer: Gatehouse's req/s over the peer's) are taken within`
      + ` each run and their median shown. RSS is the server process's peak VmRSS while measured; CPU µs/req is the server`
      + ` process's CPU time (user + system) over the requests it answered in the window.`
      + ` Other processes on the machine used ${fmtCores(median(others))} cores in the median measurement, ${fmtCores(Math.max(...others))} at most.`, '',
    table, '', '## Targets', '', targetTable, '',
    'A row marked NO: what limits it, with numbers, and what meeting it would take: docs/performance.md, "Targets".', '',
    'Scenarios and peers: bench/README.md. Gatehouse runs from its build on SQLite (WAL, synchronous=FULL), one process,'
      + ' LOG_LEVEL=warn, rate limits on but raised to 1,000,000/s (all load comes from one address and one client);'
      + ' what limits each figure: docs/performance.md.', '',
  ].join('\n');
  return { table, targets: targetTable, markdown };
}

/** When the measurements were made: now, or when the log re-rendered with --from-log was written. */
function runDate() {
  return options['from-log'] ? statSync(options['from-log']).mtime : new Date();
}

function markdownTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i < 2 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)].join('\n');
}

function machineDescription() {
  const model = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown CPU';
  return `${model}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB memory, Node.js ${process.version}, ${process.platform} ${process.arch}`;
}

function basic(id, secret) {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

function fmtInt(n) {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—';
}

function fmtMs(n) {
  return Number.isFinite(n) ? n.toFixed(2) : '—';
}

function fmtCores(n) {
  return Number.isFinite(n) ? n.toFixed(2) : '—';
}

function fmtRatio(n) {
  return Number.isFinite(n) ? `${n.toFixed(2)}×` : '—';
}

function log(message) {
  process.stderr.write(`${message}\n`);
}

// --- main -------------------------------------------------------------------------------------

async function main() {
  try {
    if (options['from-log']) return writeReport(resultsFromLog(readFileSync(options['from-log'], 'utf8')));
    const results = []; // { run, scenario, peer, rps, p50Ms, p99Ms, rssMb }
    for (let run = 1; run <= RUNS; run++) {
      for (const scenario of SCENARIOS) {
        for (const peer of scenario.peers) {
          const result = await measure(scenario, peer, run);
          results.push({ run, scenario: scenario.id, peer, ...result });
          log(`run ${run}/${RUNS} ${scenario.id} ${peer}: ${fmtInt(result.rps)} req/s, p50 ${fmtMs(result.p50Ms)}, p99 ${fmtMs(result.p99Ms)}, RSS ${fmtInt(result.rssMb)} MB, server ${result.serverCores.toFixed(2)} cores = ${fmtInt(result.cpuUsPerRequest)} µs CPU/request, other processes ${result.otherCpu.toFixed(2)} cores`);
        }
      }
    }
    writeReport(results);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
