import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { pino, type Logger } from 'pino';
import { readUpstreamsFile } from '../federation/administration.js';
import type { ServerConfig } from '../config.js';
import { serverLoggerOptions } from '../http/log-redaction.js';
import { recordServedIssuer } from '../oauth/discovery/index.js';
import { createContext, startServer, type RunningServer, type StartOptions } from '../server.js';
import { openStore } from '../store/open.js';
import { startTracing } from '../telemetry/start.js';
import { sqliteFilename } from '../store/sqlite-location.js';
import { ensureDemoClient } from './demo.js';
import { CLI_AUDIT_SINK } from './open-context.js';
import { checkPortFree, listenErrorHint } from './listen-errors.js';
import { DemoFlows } from '../pages/demo-flows.js';
import { parseCommand, UsageError, type CommandDeclaration } from './declaration.js';
import type { CliIo } from './run.js';
import { watchStopSignals } from './stop-signals.js';
import { startWaitingForStore } from './worker-start.js';

export const SERVE = {
  name: 'serve',
  summary: 'serve the authorization server until SIGINT or SIGTERM',
  options: {
    demo: { type: 'boolean', help: 'with demo clients and a demo user, for trying it out' },
    workers: { type: 'string', value: 'N|auto', help: 'N processes sharing the port (auto: one per core)' },
  },
} as const satisfies CommandDeclaration;

/**
 * `gatehouse serve [--demo] [--workers N|auto]`: listens until SIGINT or SIGTERM, then closes
 * cleanly (cli/stop-signals.ts: a second signal is logged, a third stops at once). With several
 * workers (node:cluster) the primary prepares the store once (migrations, keys, demo data) and the
 * workers share the port; a worker that dies is replaced.
 */
export async function serveCommand(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  const { values } = parseCommand(SERVE, args);
  const workers = workerCount(values.workers);
  if (cluster.isWorker)
    return serveUntilStopped(config, io, { demo: values.demo ?? false, migrations: 'check', quiet: true });
  // Before the store is opened or a worker forked: a busy port is said once, with what to do.
  await checkPortFree(config.host, config.port);
  if (workers === 1)
    return serveUntilStopped(config, io, {
      demo: values.demo ?? false,
      migrations: config.autoMigrate ? 'apply' : 'check',
      quiet: false,
    });

  const store = await openStore(config.databaseUrl, { migrations: config.autoMigrate ? 'apply' : 'check' });
  try {
    const options = { keyEncryptionKey: config.keyEncryptionKey, auditSink: CLI_AUDIT_SINK };
    const context = await createContext(store, config.issuer, options);
    await recordServedIssuer(store, config.issuer, context.clock.now());
    if (values.demo) await ensureDemoClient(context, (line) => io.out(line));
  } finally {
    await store.close();
  }
  const log = primaryLogger(config);
  warnOfPlaintextKeys(config, values.demo ?? false, log);
  io.out(
    `Gatehouse is serving ${config.issuer} with ${workers} workers (port ${config.port}, store ${storeOf(config)})`,
  );
  io.out(mailLine(config));
  return superviseWorkers(workers, log, () => closeSqliteAlone(config, log));
}

/**
 * SQLite checkpoints the WAL and removes the -wal and -shm files when the last connection to the
 * file closes. Workers that close at the same moment may each still see the other's connection and
 * leave the files, so the primary, alone once every worker has exited, opens the store and closes
 * it. If that fails, the next start recovers the WAL; the stop is still clean.
 */
async function closeSqliteAlone(config: ServerConfig, log: Logger): Promise<void> {
  if (!config.databaseUrl.startsWith('sqlite:') || sqliteFilename(config.databaseUrl) === ':memory:') return;
  try {
    // Not made anew if it is gone.
    const store = await openStore(config.databaseUrl, { migrations: 'check', create: false });
    await store.close();
  } catch (error) {
    log.warn({ err: error }, 'the SQLite WAL was left after the workers stopped; the next start recovers it');
  }
}

/** Where the data is: the SQLite file's absolute path (a relative DATABASE_URL depends on the folder), or the dialect. */
function storeOf(config: ServerConfig): string {
  return config.databaseUrl.startsWith('sqlite:')
    ? `sqlite ${sqliteFilename(config.databaseUrl)}`
    : (config.databaseUrl.split(':')[0] as string);
}

/** Said once at start: where the outbox's mail goes (every worker of `--workers` sends the same way). */
function mailLine(config: ServerConfig): string {
  const { transport, from } = config.mail;
  return transport.kind === 'smtp'
    ? `Mail is sent through ${transport.description}, from ${from}`
    : `Mail is written to ${transport.dir}/*.eml and its links are logged (no SMTP_URL set), from ${from}`;
}

/** The log of the primary of several workers, in the workers' format. */
function primaryLogger(config: ServerConfig): Logger {
  const { stream, ...options } = serverLoggerOptions(config.logLevel, config.logFormat);
  return pino(options, stream ?? process.stdout);
}

/**
 * Said once per start, at warn: without KEY_ENCRYPTION_KEY the private signing keys are plaintext
 * in the database, and whoever reads it or a backup of it can sign tokens. Not for `--demo`.
 */
function warnOfPlaintextKeys(config: ServerConfig, demo: boolean, log: { warn(message: string): void }): void {
  if (config.keyEncryptionKey !== undefined || demo) return;
  log.warn(
    'KEY_ENCRYPTION_KEY is not set: the private signing keys are stored in PLAINTEXT in the database, and anyone who can read it or a backup of it can sign tokens. Set KEY_ENCRYPTION_KEY (openssl rand -base64 32) on every process.',
  );
}

function workerCount(value: string | undefined): number {
  if (value === undefined) return 1;
  if (value === 'auto') return availableParallelism();
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1)
    throw new UsageError('--workers takes a whole number of at least 1, or auto');
  return Number(value);
}

interface ServeOptions {
  readonly demo: boolean;
  readonly migrations: 'apply' | 'check';
  readonly quiet: boolean;
}

async function serveUntilStopped(config: ServerConfig, io: CliIo, options: ServeOptions): Promise<number> {
  // Watched from the start: a signal while the store opens stops the server as soon as it is up.
  let inFlight = (): number => 0;
  const log = pino(serverLoggerOptions(config.logLevel));
  const stop = watchStopSignals(log, { inFlight: () => inFlight() });
  const stopped = new AbortController();
  void stop.requested.then(() => stopped.abort());
  const demo = options.demo ? new DemoFlows() : undefined;
  try {
    // Before the routes are registered: they are wrapped in spans only when tracing is on.
    const tracing = await startTracing(config.tracing);
    const start = (): Promise<RunningServer> =>
      startServer(startOptions(config, options, demo)).catch((error: unknown) => {
        throw listenErrorHint(error, config.host, config.port) ?? error;
      });
    // A worker waits out a store outage (./worker-start.ts); one process alone stops with the error.
    const server = cluster.isWorker ? await startWaitingForStore(start, log, stopped.signal) : await start();
    if (server === undefined) {
      await tracing.shutdown();
      return 0;
    }
    inFlight = () => server.app.drain.inFlight;
    // Workers serve the demo's callback page; the primary made the demo data and printed the request.
    if (demo && !cluster.isWorker) await ensureDemoClient(server.context, (line) => io.out(line), demo);
    if (!options.quiet) {
      warnOfPlaintextKeys(config, options.demo, server.app.log);
      io.out(`Gatehouse is serving ${config.issuer} (listening on ${server.url}, store ${storeOf(config)})`);
      io.out(mailLine(config));
    }
    await stop.requested;
    await server.close();
    await tracing.shutdown();
    return 0;
  } finally {
    // A worker's IPC channel would keep it running: it leaves the cluster once it stopped or failed.
    cluster.worker?.disconnect();
  }
}

function startOptions(config: ServerConfig, options: ServeOptions, demo: DemoFlows | undefined): StartOptions {
  return {
    databaseUrl: config.databaseUrl,
    issuer: config.issuer,
    port: config.port,
    host: config.host,
    api: config.openApiPath,
    migrations: options.migrations,
    trustProxy: config.trustProxy,
    metricsToken: config.metricsToken,
    logger: serverLoggerOptions(config.logLevel, config.logFormat),
    rateLimits: config.rateLimits,
    connectionLimits: config.connectionLimits,
    keyEncryptionKey: config.keyEncryptionKey,
    demo,
    clientRegistration: config.clientRegistration,
    clientIdMetadata: config.clientIdMetadata,
    upstreams: config.upstreamsFile === undefined ? undefined : readUpstreamsFile(config.upstreamsFile, process.env),
    trustedIssuers: config.trustedIssuers,
    requirePushedAuthorizationRequests: config.requirePushedAuthorizationRequests,
    jwksUriAllowAddresses: config.jwksUriAllowAddresses,
    dpopNonces: config.dpopNonces,
    secondFactor: config.secondFactor,
    passwordResetRevokesGrants: config.passwordResetRevokesGrants,
    emailVerification: config.emailVerification,
    terms: config.terms,
    // The demo is for trying everything out: anyone may create an account, with a password or a
    // passkey (where the issuer can have passkeys), unless SIGN_UP and SIGN_UP_METHODS say otherwise.
    signUp: {
      mode: config.signUpMode ?? (demo ? 'open' : 'off'),
      domains: config.signUpDomains,
      methods: config.signUpMethods ?? (demo ? ['password', 'passkey'] : ['password']),
    },
    authorizationCodeTtl: config.authorizationCodeTtl,
    defaultLocale: config.defaultLocale,
    mail: config.mail,
    branding: config.branding,
  };
}

/**
 * Forks the workers and replaces any that die. Each stop signal goes on to every worker (the
 * terminal signals them too, at Ctrl-C; twice within SAME_STOP_MS is one stop): each worker drains
 * and closes its store, and the primary exits once they all have (after `afterWorkers`), 1 if any
 * failed to.
 */
async function superviseWorkers(count: number, log: Logger, afterWorkers: () => Promise<void>): Promise<number> {
  let stopping = false;
  let failed = 0;
  const respawns = new Set<NodeJS.Timeout>();
  const fork = (): void => {
    if (!stopping) cluster.fork();
  };
  cluster.on('exit', (_worker, code, signal) => {
    if (stopping) {
      if (code !== 0) failed += 1;
      return;
    }
    process.stderr.write(`${JSON.stringify({ msg: 'worker exited; starting another', code, signal })}\n`);
    // Not unref'd: with every worker dead (one that cannot listen exits), it keeps the primary up.
    const respawn = setTimeout(() => {
      respawns.delete(respawn);
      fork();
    }, 1000);
    respawns.add(respawn);
  });
  const stop = watchStopSignals(log, {
    onSignal: (signal) => {
      stopping = true;
      for (const respawn of respawns) clearTimeout(respawn);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    },
  });
  for (let i = 0; i < count; i++) fork();
  await stop.requested;
  const running = Object.keys(cluster.workers ?? {}).length;
  log.info({ workers: running }, `stopping: ${running} worker(s) finishing their requests in flight`);
  await everyWorkerExited();
  await afterWorkers();
  log.info({ failedWorkers: failed }, `stopped: every worker drained${failed === 0 ? '' : `, ${failed} failed to`}`);
  return failed === 0 ? 0 : 1;
}

function everyWorkerExited(): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = (): void => {
      if (Object.keys(cluster.workers ?? {}).length > 0) return;
      cluster.off('exit', check);
      resolve();
    };
    cluster.on('exit', check);
    check();
  });
}
