#!/usr/bin/env node
// The test tiers: every test file of every package is declared here, once, by what it starts.
// `node scripts/test-tiers.mjs [tier ...] [--package name] [--jobs N] [--checks script,...] [--list]` runs
// the named tiers (all of them when none is named); it refuses to run if a test file is missing from the
// table or the table names a file that does not exist, so no file is silently dropped. `--checks` names
// npm scripts (the static checks: typecheck, lint) that the pool runs first, beside the tests.
// Files of a shared tier run in one process per package (at most SHARED_CHUNK files: loaded once, then
// run one after another, as `node --test` runs a file's tests); every other tier runs one process per
// file. These runs ("jobs") go through a pool of N workers (default 2, one per core of the CI
// machine), the checks first, then the tiers in turn (poolOrder); `--jobs 1` or GATEHOUSE_TEST_JOBS=1
// runs them one at a time, tier after tier. A job's output is
// held and printed whole when it ends; meanwhile, every PROGRESS_MS, a line per run going says how
// long it has run and how many top-level tests it finished. Files in ALONE (they count calls in a
// time window) run with no other job beside them. Output is the node test runner's own; the closing
// summary sums every run's counts, a skipped suite counted as a skip (scripts/tap-report.mjs), and
// lists what was skipped and what failed. A process group a run's tests left behind is killed and
// named. The exit code is non-zero if any run failed. docs/testing.md describes the tiers and their
// measured times.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { COUNTS, readTap } from './tap-report.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

/** The tiers in the order they run; `shared`: the tier's files of a package run in one process. */
export const TIERS = {
  unit: { shared: true, about: 'no server: functions, the store, documents' },
  server: { shared: true, about: 'a listening server (or stub) in the test process' },
  processes: { shared: false, about: 'spawned server processes, kill -9, the CLI, npm pack' },
  'postgres-clusters': { shared: false, about: 'own PostgreSQL clusters: failover, outage' },
  fuzz: { shared: false, about: 'fuzz-*.test.ts: generated requests against a server' },
  browser: { shared: false, about: '*.browser.test.ts: chromium through playwright-core' },
};

/** package folder -> test file (in its test/) -> tier. */
export const TABLE = {
  contract: {
    'access-token.test.ts': 'unit',
    'basic-credentials.test.ts': 'unit',
    'dpop-signature.test.ts': 'unit',
    'catalog.test.ts': 'unit',
    'merge-patch.test.ts': 'unit',
    'openapi-document.test.ts': 'unit',
    'redirect-uris.test.ts': 'unit',
    'validator-31.test.ts': 'unit',
    'validator.test.ts': 'unit',
  },
  server: {
    'browser-pages.test.ts': 'unit',
    'docs-cli-examples.test.ts': 'unit',
    'docs-walkthrough.test.ts': 'server',
    'docs-organizations-example.test.ts': 'server',
    'docs-links.test.ts': 'unit',
    'error-classifier.test.ts': 'unit',
    'grant-types.test.ts': 'unit',
    'token-path-encoding.test.ts': 'unit',
    'hot-queries.test.ts': 'unit',
    'reads-at-once.test.ts': 'unit',
    'lazy-repositories.test.ts': 'unit',
    'layers.test.ts': 'unit',
    'message-catalogs.test.ts': 'unit',
    'palette-contrast.test.ts': 'unit',
    'loopback.test.ts': 'unit',
    'package-metadata.test.ts': 'unit',
    'postgres-connection.test.ts': 'unit',
    'postgres-commit-in-doubt.test.ts': 'unit',
    'postgres-round-trips.test.ts': 'unit',
    'postgres-token-path-functions.test.ts': 'unit',
    'dpop-proofs-migration.test.ts': 'unit',
    'redirect-uri.test.ts': 'unit',
    'safe-fetch.test.ts': 'unit',
    'refresh-token-state-table.test.ts': 'unit',
    'sign-in.test.ts': 'unit',
    'totp.test.ts': 'unit',
    'store.test.ts': 'unit',
    'row-cache.test.ts': 'unit',
    'sqlite-busy-reads.test.ts': 'unit',
    'turn-read-transaction.test.ts': 'unit',
    'sqlite-open.test.ts': 'unit',
    'users.test.ts': 'unit',
    'organizations.test.ts': 'unit',
    'mail-message.test.ts': 'unit',
    'mail-outbox.test.ts': 'unit',
    'webauthn.test.ts': 'unit',
    'worker-start.test.ts': 'unit',
    'admin-api.test.ts': 'server',
    'admin-roles.test.ts': 'server',
    'admin-lists.test.ts': 'server',
    'admin-step-up.test.ts': 'server',
    'admin-sessions.test.ts': 'server',
    'access-claims.test.ts': 'server',
    'resource-server-roles.test.ts': 'server',
    'cli-access.test.ts': 'server',
    'cli-locale.test.ts': 'server',
    'account.test.ts': 'server',
    'audit-pipe.test.ts': 'server',
    'audit.test.ts': 'server',
    'authorize-post.test.ts': 'server',
    'authorize.test.ts': 'server',
    'client-id-metadata.test.ts': 'server',
    'federation-icons.test.ts': 'server',
    'federation-refusals.test.ts': 'server',
    'pushed-authorization.test.ts': 'server',
    'pushed-authorization-dpop.test.ts': 'server',
    'fapi2-profile.test.ts': 'server',
    'private-key-jwt.test.ts': 'server',
    'client-registration.test.ts': 'server',
    'client-presentation.test.ts': 'server',
    'branding.test.ts': 'server',
    'connection-edges.test.ts': 'server',
    'consent.test.ts': 'server',
    'demo-openid.test.ts': 'server',
    'content-coding.test.ts': 'server',
    'device-authorization.test.ts': 'server',
    'discovery.test.ts': 'server',
    'federation.test.ts': 'server',
    'admin-upstreams.test.ts': 'server',
    'admin-upstream-test-sign-ins.test.ts': 'server',
    'admin-organizations.test.ts': 'server',
    'organization-flow.test.ts': 'server',
    'organization-sign-in-methods.test.ts': 'server',
    'introspection.test.ts': 'server',
    'token-kinds.test.ts': 'server',
    'one-subject.test.ts': 'server',
    'key-sealing.test.ts': 'server',
    'keys.test.ts': 'server',
    'login.test.ts': 'server',
    'second-factor.test.ts': 'server',
    'sign-in-changes.test.ts': 'server',
    'metrics.test.ts': 'server',
    'mail-delivery.test.ts': 'server',
    'password-reset.test.ts': 'server',
    'email-verification.test.ts': 'server',
    'required-actions.test.ts': 'server',
    'email-change.test.ts': 'server',
    'invitations.test.ts': 'server',
    'sign-up.test.ts': 'server',
    'sign-up-passkey.test.ts': 'server',
    'own-data.test.ts': 'server',
    'shared-hooks.test.ts': 'server',
    'nul-bytes.test.ts': 'server',
    'openid-connect.test.ts': 'server',
    'problem-pages.test.ts': 'server',
    'problem-page-languages.test.ts': 'server',
    'page-text.test.ts': 'server',
    'page-languages.test.ts': 'server',
    'wire-languages.test.ts': 'server',
    'protected-resource-metadata.test.ts': 'server',
    'rate-limits.test.ts': 'server',
    'redirect-uri-registration.test.ts': 'server',
    'dpop.test.ts': 'server',
    'refresh-token-lifecycle.test.ts': 'server',
    'replay-window.test.ts': 'server',
    'rest-api.test.ts': 'server',
    'rest-document.test.ts': 'server',
    'rest-missing-field.test.ts': 'server',
    'rest-ownership.test.ts': 'server',
    'rest-roles.test.ts': 'server',
    'rest-property.test.ts': 'server',
    'rest-second-collection.test.ts': 'server',
    'revocation.test.ts': 'server',
    'slow-clients.test.ts': 'server',
    'stored-secrets.test.ts': 'server',
    'token-endpoint.test.ts': 'server',
    'token-exchange.test.ts': 'server',
    'trust-proxy.test.ts': 'server',
    'unreadable-requests.test.ts': 'server',
    'cli-first-hour.test.ts': 'processes',
    'clean-stop.test.ts': 'processes',
    'cli.test.ts': 'processes',
    'cli-operations.test.ts': 'processes',
    'cli-mistakes.test.ts': 'processes',
    'crash-durability.test.ts': 'processes',
    'log-secrets.test.ts': 'processes',
    'log-format.test.ts': 'processes',
    'migration-faults.test.ts': 'processes',
    'multi-process.test.ts': 'processes',
    'mail-processes.test.ts': 'processes',
    'password-reset-timing.test.ts': 'processes',
    'tracing.test.ts': 'processes',
    'young-generation.test.ts': 'processes',
    'old-generation.test.ts': 'processes',
    'private-key-jwt-processes.test.ts': 'processes',
    'dpop-processes.test.ts': 'processes',
    'health.test.ts': 'postgres-clusters',
    'postgres-failover.test.ts': 'postgres-clusters',
    'postgres-outage.test.ts': 'postgres-clusters',
    'postgres-patroni.test.ts': 'postgres-clusters',
    'postgres-pgbouncer.test.ts': 'postgres-clusters',
    'postgres-switchover.test.ts': 'postgres-clusters',
    'fuzz-authorize.test.ts': 'fuzz',
    'fuzz-oauth.test.ts': 'fuzz',
    'fuzz-redirect-uri.test.ts': 'fuzz',
    'fuzz-rest.test.ts': 'fuzz',
    'account.browser.test.ts': 'browser',
    'page-languages.browser.test.ts': 'browser',
    'password-reset.browser.test.ts': 'browser',
    'invitation.browser.test.ts': 'browser',
    'sign-up.browser.test.ts': 'browser',
    'required-actions.browser.test.ts': 'browser',
    'federation-gatehouse.browser.test.ts': 'browser',
    'federation-sign-in-page.browser.test.ts': 'browser',
    'federation-oidc-provider.browser.test.ts': 'browser',
    'passkeys.browser.test.ts': 'browser',
    'passkeys.test.ts': 'server',
    'second-factor.browser.test.ts': 'browser',
    'organizations.browser.test.ts': 'browser',
    'authorization-flow.browser.test.ts': 'browser',
    'form-post.browser.test.ts': 'browser',
    'mcp-agent.browser.test.ts': 'browser',
    'mcp-cimd.browser.test.ts': 'browser',
    'pages.browser.test.ts': 'browser',
    'accessibility.browser.test.ts': 'browser',
    'branding.browser.test.ts': 'browser',
    'console.test.ts': 'server',
    'console.browser.test.ts': 'browser',
    'console-operator.browser.test.ts': 'browser',
    'console-ops.browser.test.ts': 'browser',
  },
  console: {
    'console-app.test.ts': 'unit',
    'upstream-fields.test.ts': 'unit',
  },
  client: {
    'boundary.test.ts': 'unit',
    'docs.test.ts': 'unit',
    'file-token-store.test.ts': 'unit',
    'pkce.test.ts': 'unit',
    'retry.test.ts': 'unit',
    'api-client.test.ts': 'server',
    'client-credentials.test.ts': 'server',
    'interop-dpop.test.ts': 'server',
    'dpop-sdk.test.ts': 'server',
    'dpop-token-file.test.ts': 'server',
    'interop-oauth4webapi-oidc.test.ts': 'server',
    'interop-oauth4webapi.test.ts': 'server',
    'interop-oidc-provider.test.ts': 'server',
    'interop-openid-client.test.ts': 'server',
    'interop-openid-connect.test.ts': 'server',
    'interop-token-exchange.test.ts': 'server',
    'interop-par-private-key-jwt.test.ts': 'server',
    'interop-par-dpop.test.ts': 'server',
    'local-storage-token-store.test.ts': 'server',
    'token-manager.test.ts': 'server',
    'transient.test.ts': 'server',
    'wire.test.ts': 'server',
    'cli.test.ts': 'processes',
    'file-lock.test.ts': 'processes',
    'shared-store.test.ts': 'processes',
    'device-login.browser.test.ts': 'browser',
    'tabs.browser.test.ts': 'browser',
  },
  'resource-server': {
    'fastify.test.ts': 'unit',
    'examples.test.ts': 'server',
    'dpop.test.ts': 'server',
    'dpop-nonce.test.ts': 'server',
    'tokens.test.ts': 'server',
    'requirements.test.ts': 'server',
    'install.test.ts': 'processes',
  },
};

/** What is wrong with the table against the test files on disk (empty when it covers them exactly). */
export function tableProblems() {
  const problems = [];
  for (const [pkg, files] of Object.entries(TABLE)) {
    const onDisk = readdirSync(join(ROOT, 'packages', pkg, 'test')).filter((f) => f.endsWith('.test.ts'));
    for (const f of onDisk) if (!(f in files)) problems.push(`packages/${pkg}/test/${f} has no tier`);
    for (const [f, tier] of Object.entries(files)) {
      if (!onDisk.includes(f)) problems.push(`packages/${pkg}/test/${f} is in the table but not on disk`);
      if (!(tier in TIERS)) problems.push(`packages/${pkg}/test/${f}: unknown tier ${tier}`);
    }
  }
  for (const pkg of readdirSync(join(ROOT, 'packages'))) {
    if (!(pkg in TABLE)) problems.push(`packages/${pkg} is not in the table`);
  }
  return problems;
}

/**
 * Files that must run with no other job beside them: they assert how many calls fit in a time window,
 * which another suite competing for the cores would make them miss.
 */
export const ALONE = new Set([
  'client/shared-store.test.ts',
  'client/tabs.browser.test.ts',
  // It compares answer times: another job beside it would only add noise.
  'server/password-reset-timing.test.ts',
]);

/** At most this many files of a shared tier load into one process; more are split into several jobs. */
const SHARED_CHUNK = 25;

/**
 * A run still going after this long is killed with its whole process group (servers, clusters and
 * browsers it started) and counted as failed: a hung test fails the run instead of holding CI until
 * its own limit. The longest run takes about two minutes on a busy machine. GATEHOUSE_TEST_RUN_LIMIT_MS
 * sets another limit (to see what the kill reports, say).
 */
const RUN_LIMIT_MS = Number(process.env.GATEHOUSE_TEST_RUN_LIMIT_MS) || 10 * 60_000;

/**
 * Before a run over its limit is killed, its process group is sent SIGUSR2: every Node process in it
 * (started with --report-on-signal, through NODE_OPTIONS) writes a diagnostic report, whose open
 * sockets, timers and child processes are then listed with the failure (hangReport), and a shared
 * run prints the tests it is in the middle of (SHARED_PRELUDE). This long is given to write them.
 */
const REPORT_WAIT_MS = 3000;

/**
 * The environment of every run: test passwords are hashed at scrypt N = 2^10, not 2^15, in the
 * servers and CLI commands the tests spawn too (packages/server/test/_password-cost.ts says why).
 */
const TEST_ENV = { PASSWORD_HASH_COST: '10', ...process.env };

/** The process groups of the runs going now, killed if this script is interrupted. */
const groups = new Set();
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const pid of groups) killGroup(pid);
    // And the groups their tests started (packages/server/test/_process-groups.ts), which are not in theirs.
    for (const { groupsDir } of going.values()) if (groupsDir !== undefined) killLeftGroups(groupsDir);
    process.exit(130);
  });

function killGroup(pid, signal = 'SIGKILL') {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * What held a run that was killed over its limit, from the reports its Node processes wrote on
 * SIGUSR2: for each process, its command line and the libuv handles keeping it alive (sockets with
 * both ends, timers and when they fire, child processes). A hung request shows as a connection
 * between two local ports; a hung hook as a timer or a child process.
 */
function hangReport(dir) {
  const lines = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    let report;
    try {
      report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch {
      continue; // written only in part
    }
    const command = report.header.commandLine
      .filter((arg) => !arg.startsWith('--require') && !arg.startsWith('--import') && !arg.includes('tsx/dist'))
      .join(' ');
    lines.push(`# process ${report.header.processId}: ${command.slice(0, 160)}`);
    const endpoint = (e) => (e ? `${e.ip4 ?? e.ip6 ?? e.host}:${e.port}` : '-');
    for (const handle of report.libuv) {
      if (!handle.is_active || !handle.is_referenced) continue;
      if (handle.type === 'tcp')
        lines.push(`#   tcp ${endpoint(handle.localEndpoint)} -> ${endpoint(handle.remoteEndpoint)}`);
      else if (handle.type === 'timer') lines.push(`#   timer firing in ${handle.firesInMsFromNow} ms`);
      else if (handle.type === 'process') lines.push(`#   child process ${handle.pid ?? ''}`.trimEnd());
      else if (handle.type !== 'loop' && handle.type !== 'pipe' && handle.type !== 'signal')
        lines.push(`#   ${handle.type}`);
    }
  }
  return lines.length > 0 ? lines : ['# no Node process wrote a report'];
}

/** The closing counts summed over every run; `skipped` counts skipped suites too (tap-report.mjs). */
const totals = Object.fromEntries(COUNTS.map((c) => [c, 0]));

/** The failing tests' TAP blocks ("not ok" and its YAML), repeated at the end where a CI log's tail shows them. */
const failures = [];
/** Every skipped test and suite, with its run's label and its reason, listed at the end. */
const skipped = [];
/** The runs going now, by label: when each started and where its TAP goes, for the progress lines. */
const going = new Map();

/**
 * The process groups a run's tests started and left (packages/server/test/_process-groups.ts notes
 * each in the folder named by GATEHOUSE_TEST_PROCESS_GROUPS while it runs): killed, and said so in
 * the run's output. A test stops what it starts, so this is a run killed over its limit, or a test
 * that forgot to.
 */
function killLeftGroups(dir) {
  const lines = [];
  for (const name of readdirSync(dir)) {
    const pid = Number(name);
    let alive = true;
    try {
      process.kill(-pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) continue;
    killGroup(pid);
    lines.push(`# left running by the run, killed: process group ${pid} (${readFileSync(join(dir, name), 'utf8')})`);
  }
  return lines;
}

/**
 * One node process; `echo` writes its output as it comes, else it is held and returned. Besides its
 * reporter on stdout (spec on a terminal, TAP otherwise) it writes TAP to a file, read for the
 * counts, the skips, the failures and the progress lines. Resolves to the exit code and the output.
 */
function run(args, cwd, echo, label) {
  const reports = mkdtempSync(join(tmpdir(), 'gatehouse-reports-'));
  const tapFile = join(reports, 'run.tap');
  const groupsDir = join(reports, 'groups');
  mkdirSync(groupsDir);
  const reporters = [
    `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
  ];
  const nodeOptions = `${TEST_ENV.NODE_OPTIONS ?? ''} --report-on-signal --report-compact --report-directory=${reports}`;
  return new Promise((done) => {
    // In a process group of its own, so that a run over its limit goes with everything it started.
    const child = spawn(TSX, ['--conditions=@gatehouse/source', ...reporters, ...args], {
      cwd,
      env: { ...TEST_ENV, NODE_OPTIONS: nodeOptions.trim(), GATEHOUSE_TEST_PROCESS_GROUPS: groupsDir },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    groups.add(child.pid);
    going.set(label, { started: Date.now(), tapFile, groupsDir });
    let overLimit = false;
    let kill;
    const limit = setTimeout(() => {
      overLimit = true;
      killGroup(child.pid, 'SIGUSR2');
      kill = setTimeout(() => killGroup(child.pid), REPORT_WAIT_MS);
    }, RUN_LIMIT_MS);
    const held = [];
    const hold = (chunk) => (echo ? process.stdout.write(chunk) : held.push(chunk));
    let pending = '';
    /** What a shared run said it was in the middle of, on SIGUSR2 (SHARED_PRELUDE). */
    let running;
    child.stderr.on('data', (chunk) => (echo ? process.stderr.write(chunk) : held.push(chunk)));
    child.stdout.on('data', (chunk) => {
      hold(chunk);
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('# running: ')) running = line.trimEnd();
    });
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      clearTimeout(kill);
      groups.delete(child.pid);
      going.delete(label);
      const tap = readTap(existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : '');
      for (const c of COUNTS) totals[c] += c === 'skipped' ? tap.skips.length : (tap.counts?.[c] ?? 0);
      for (const skip of tap.skips) skipped.push({ label, ...skip });
      for (const lines of tap.failures) failures.push({ label, lines });
      const left = killLeftGroups(groupsDir);
      if (left.length > 0) hold(Buffer.from(`\n${left.join('\n')}\n`));
      if (overLimit) {
        const note = `\n# ${args.at(-1)}: killed after ${RUN_LIMIT_MS / 1000} s (RUN_LIMIT_MS in scripts/test-tiers.mjs)\n`;
        hold(Buffer.from(note));
        failures.push({
          label,
          lines: [
            note.trim(),
            `# the last it finished: ${tap.lastFinished ?? 'nothing'}`,
            running ?? '# running: not known (a run of one process per file)',
            ...hangReport(reports),
            ...left,
          ],
        });
      }
      rmSync(reports, { recursive: true, force: true });
      done({ code: overLimit ? 1 : (code ?? (signal ? 1 : 0)), output: Buffer.concat(held), skips: tap.skips.length });
    });
  });
}

/** How often the pool says what is running, ms: a long run (a shared tier takes minutes) is never silent. */
const PROGRESS_MS = Number(process.env.GATEHOUSE_TEST_PROGRESS_MS) || 60_000;

/** One line per run going: its label, how long it has run, the top-level tests it finished so far. */
function progressLines(done, total) {
  const clock = new Date().toISOString().slice(11, 19);
  const lines = [`\n--- ${clock}: ${done} of ${total} runs done, ${going.size} running`];
  for (const [label, { started, tapFile }] of going) {
    const seconds = Math.round((Date.now() - started) / 1000);
    if (tapFile === undefined) {
      lines.push(`---   ${label}: ${seconds} s`);
      continue;
    }
    const { finished } = readTap(existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : '');
    const failed = finished.fail > 0 ? `, ${finished.fail} FAILED` : '';
    lines.push(`---   ${label}: ${seconds} s, ${finished.pass + finished.fail} top-level tests done${failed}`);
  }
  return lines.join('\n');
}

/**
 * The first lines of a shared run's entry: the tests in progress, kept by hooks on the root test
 * (which every test of every file inherits), are printed when the run is sent SIGUSR2 before it is
 * killed over its limit. "none": it hung outside any test, in a before or after hook.
 */
const SHARED_PRELUDE = `import { afterEach, beforeEach } from 'node:test';
const running = new Set();
beforeEach((t) => void running.add(t.name));
afterEach((t) => void running.delete(t.name));
process.on('SIGUSR2', () => process.stdout.write(\`\\n# running: \${[...running].join(' | ') || 'none'}\\n\`));
`;

/** The files of a shared tier in one process: static imports, so every file is loaded before a test runs. */
async function runShared(pkg, files, echo, label) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-tier-'));
  const entry = join(dir, `${pkg}.mjs`);
  const test = join(ROOT, 'packages', pkg, 'test');
  writeFileSync(
    entry,
    SHARED_PRELUDE + files.map((f) => `import ${JSON.stringify(pathToFileURL(join(test, f)).href)};\n`).join(''),
  );
  try {
    return await run([entry], join(ROOT, 'packages', pkg), echo, label);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The jobs of the named tiers, in the order of TIERS then TABLE: a shared chunk or one file each. */
export function jobsOf(tiers, pkg) {
  const jobs = [];
  for (const tier of Object.keys(TIERS).filter((t) => tiers.includes(t))) {
    for (const p of Object.keys(TABLE).filter((name) => pkg === undefined || name === pkg)) {
      const files = Object.keys(TABLE[p]).filter((f) => TABLE[p][f] === tier);
      if (files.length === 0) continue;
      if (TIERS[tier].shared) {
        const chunks = Math.ceil(files.length / SHARED_CHUNK);
        for (let c = 0; c < chunks; c++) {
          const part = files.filter((_, i) => i % chunks === c);
          jobs.push({
            tier,
            pkg: p,
            files: part,
            name: chunks > 1 ? `part ${c + 1}/${chunks}` : `${part.length} files`,
          });
        }
      } else {
        for (const f of files) jobs.push({ tier, pkg: p, files: [f], name: f, alone: ALONE.has(`${p}/${f}`) });
      }
    }
  }
  return jobs;
}

/**
 * The order of the jobs on several workers: the static checks first, then one of each tier in turn,
 * then the `alone` ones, when the pool drains anyway. Tiers differ in what they wait on: a server tier
 * part keeps a core busy, a PostgreSQL cluster test mostly waits for elections and restarts, a browser
 * test for chromium. Taken in turn, one job's waits are filled by another's work, where tier after
 * tier would put two waiting (or two busy) jobs side by side. The checks take unequal times (a lint
 * without its cache twice a typecheck's): the test runs start on the core the shorter one leaves.
 */
export function poolOrder(jobs) {
  const byTier = Object.keys(TIERS).map((tier) => jobs.filter((j) => j.tier === tier && !j.alone));
  const turns = [];
  for (let i = 0; byTier.some((list) => i < list.length); i++)
    for (const list of byTier) if (i < list.length) turns.push(list[i]);
  return [...jobs.filter((j) => j.script !== undefined), ...turns, ...jobs.filter((j) => j.alone)];
}

/** A static check's job: `npm run <script>`, not a test file. */
function checkJob(script) {
  return { tier: 'check', pkg: undefined, files: [], name: `npm run ${script}`, script };
}

/**
 * Runs `npm run <script>` (in a process group, as the test runs) with its output held; resolves to its
 * exit code and output.
 */
function runScript(script, echo) {
  return new Promise((done) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    groups.add(child.pid);
    going.set(`npm run ${script}`, { started: Date.now(), tapFile: undefined });
    const held = [];
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk) => (echo ? process.stdout.write(chunk) : held.push(chunk)));
    child.on('close', (code, signal) => {
      groups.delete(child.pid);
      going.delete(`npm run ${script}`);
      done({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(held) });
    });
  });
}

async function runJob(job, echo) {
  const started = Date.now();
  const label = job.script === undefined ? `tier ${job.tier}: packages/${job.pkg} (${job.name})` : job.name;
  if (echo) console.log(`\n=== ${label} ===`);
  const {
    code,
    output,
    skips = 0,
  } = job.script !== undefined
    ? await runScript(job.script, echo)
    : TIERS[job.tier].shared
      ? await runShared(job.pkg, job.files, echo, label)
      : await run(['--test', ...job.files.map((f) => join('test', f))], join(ROOT, 'packages', job.pkg), echo, label);
  const seconds = (Date.now() - started) / 1000;
  const status = `${code === 0 ? '' : `, FAILED (exit ${code})`}${skips > 0 ? `, ${skips} skipped` : ''}`;
  if (!echo) process.stdout.write(`\n=== ${label}: ${seconds.toFixed(1)} s${status} ===\n${output.toString()}`);
  return { ...job, seconds, code, skips };
}

/**
 * Runs the jobs on `workers` workers, each taking the next job in order; an `alone` job waits until
 * nothing else runs, and nothing starts beside it.
 */
async function runPool(jobs, workers) {
  const echo = workers === 1;
  const queue = [...jobs];
  const results = [];
  let running = 0;
  let aloneRunning = false;
  const waiters = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  async function worker() {
    for (;;) {
      const next = queue[0];
      if (next === undefined) return;
      if (aloneRunning || (next.alone && running > 0)) {
        await new Promise((w) => waiters.push(w));
        continue;
      }
      queue.shift();
      running++;
      if (next.alone) aloneRunning = true;
      try {
        results.push(await runJob(next, echo));
      } finally {
        running--;
        if (next.alone) aloneRunning = false;
        wake();
      }
    }
  }
  const progress = echo
    ? undefined
    : setInterval(() => console.log(progressLines(results.length, jobs.length)), PROGRESS_MS);
  await Promise.all(Array.from({ length: workers }, worker));
  clearInterval(progress);
  return results;
}

function parseArgs(argv) {
  const tiers = [];
  let pkg;
  let list = false;
  let checks = [];
  let jobs = Number(process.env.GATEHOUSE_TEST_JOBS ?? Math.min(2, availableParallelism()));
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--package') pkg = argv[++i];
    else if (argv[i] === '--checks') checks = (argv[++i] ?? '').split(',').filter((c) => c !== '');
    else if (argv[i] === '--jobs') jobs = Number(argv[++i]);
    else if (argv[i] === '--list') list = true;
    else if (argv[i] in TIERS) tiers.push(argv[i]);
    else throw new Error(`unknown tier or option ${argv[i]} (tiers: ${Object.keys(TIERS).join(', ')})`);
  }
  if (pkg !== undefined && !(pkg in TABLE)) throw new Error(`unknown package ${pkg}`);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error('--jobs takes a whole number, 1 or more');
  return { tiers: tiers.length > 0 ? tiers : Object.keys(TIERS), pkg, list, jobs, checks };
}

async function main() {
  const problems = tableProblems();
  if (problems.length > 0) {
    console.error(`scripts/test-tiers.mjs: the tier table does not match the test files:\n  ${problems.join('\n  ')}`);
    return 1;
  }
  const { tiers, pkg, list, jobs: workers, checks } = parseArgs(process.argv.slice(2));
  const jobs = [...checks.map(checkJob), ...jobsOf(tiers, pkg)];
  if (list) {
    for (const job of jobs)
      console.log(
        job.script === undefined
          ? `${job.tier}\tpackages/${job.pkg}\t${job.files.join(' ')}${job.alone ? '\t(alone)' : ''}`
          : `${job.tier}\t${job.name}`,
      );
    return 0;
  }
  const started = Date.now();
  console.log(`${jobs.length} runs on ${workers} worker${workers === 1 ? '' : 's'}`);
  const timings = await runPool(workers === 1 ? jobs : poolOrder(jobs), workers);
  const wall = (Date.now() - started) / 1000;
  console.log('\n=== test tiers: wall time of each run ===');
  for (const t of timings.filter((j) => j.script !== undefined))
    console.log(
      `${'check'.padEnd(18)} ${t.name.padEnd(35)} ${t.seconds.toFixed(1).padStart(7)} s  ${t.code === 0 ? 'ok' : 'FAILED'}`,
    );
  for (const tier of Object.keys(TIERS)) {
    for (const p of Object.keys(TABLE)) {
      const runs = timings.filter((t) => t.tier === tier && t.pkg === p);
      if (runs.length === 0) continue;
      const failedRuns = runs.filter((t) => t.code !== 0);
      const skips = runs.reduce((n, t) => n + t.skips, 0);
      const failedNames = failedRuns.map((t) => t.name).join(', ');
      const skippedNote = skips > 0 ? `, ${skips} skipped` : '';
      const status = `${failedRuns.length === 0 ? 'ok' : `FAILED: ${failedNames}`}${skippedNote}`;
      const files = `${String(runs.reduce((n, t) => n + t.files.length, 0)).padStart(3)} files`;
      const seconds = runs.reduce((n, t) => n + t.seconds, 0);
      console.log(
        `${tier.padEnd(18)} packages/${p.padEnd(16)} ${files} ${seconds.toFixed(1).padStart(7)} s  ${status}`,
      );
    }
  }
  console.log(`all runs: ${wall.toFixed(1)} s wall on ${workers} worker${workers === 1 ? '' : 's'}`);
  if (skipped.length > 0) {
    const suites = skipped.filter((skip) => skip.suite).length;
    console.log(`\n=== skipped (${skipped.length}: ${suites} suites, ${skipped.length - suites} tests) ===`);
    for (const skip of skipped)
      console.log(`--- ${skip.label}: ${skip.suite ? 'suite' : 'test'} "${skip.name}" # SKIP ${skip.reason}`);
    if (process.env.CI !== 'true')
      console.log('(under CI=true, a suite whose tool or database is missing fails instead of skipping)');
  }
  if (failures.length > 0) {
    console.log(`\n=== failing tests (${failures.length}), as reported above ===`);
    for (const f of failures) console.log(`--- ${f.label}\n${f.lines.join('\n')}`);
    console.log('');
  }
  const failed = timings.filter((t) => t.code !== 0).length;
  // A run that failed without reporting a failing test (it crashed, or a file did not load) still counts.
  if (failed > 0 && totals.fail === 0) totals.fail = failed;
  const mark = process.stdout.isTTY ? '\u2139' : '#'; // as the reporter in use writes them: spec or TAP
  console.log(
    `${mark} all tiers run: ${[...new Set(timings.map((t) => (t.script === undefined ? `${t.tier}/${t.pkg}` : `check/${t.script}`)))].join(' ')}`,
  );
  for (const c of COUNTS) console.log(`${mark} ${c} ${totals[c]}`);
  const skippedSuites = skipped.filter((skip) => skip.suite).map((skip) => `"${skip.name}" (${skip.reason})`);
  if (skippedSuites.length > 0) console.log(`${mark} skipped suites: ${skippedSuites.join('; ')}`);
  return failed === 0 ? 0 : 1;
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => (process.exitCode = code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 2;
    },
  );
}
