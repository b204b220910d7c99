import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { pino } from 'pino';
import type { ServerConfig } from '../config.js';
import { serverLoggerOptions } from '../http/log-redaction.js';
import { recordServedIssuer } from '../oauth/served-issuer.js';
import { createContext, startServer } from '../server.js';
import { openStore } from '../store/open.js';
import { sqliteFilename } from '../store/sqlite-location.js';
import { ensureDemoClient } from './demo.js';
import { CLI_AUDIT_SINK } from './open-context.js';
import { DemoFlows } from '../pages/demo-flows.js';
import { parseCommand, UsageError, type CommandDeclaration } from './declaration.js';
import type { CliIo } from './run.js';

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
 * cleanly. With several workers (node:cluster) the primary prepares the store once (migrations,
 * keys, demo data) and the workers share the port; a worker that dies is replaced.
 */
export async function serveCommand(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  const { values } = parseCommand(SERVE, args);
  const workers = workerCount(values.workers);
  if (cluster.isWorker)
    return serveUntilStopped(config, io, { demo: values.demo ?? false, migrations: 'check', quiet: true });
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
  warnOfPlaintextKeys(config, values.demo ?? false, primaryLogger(config));
  io.out(
    `Gatehouse is serving ${config.issuer} with ${workers} workers (port ${config.port}, store ${storeOf(config)})`,
  );
  return superviseWorkers(workers);
}

/** Where the data is: the SQLite file's absolute path (a relative DATABASE_URL depends on the folder), or the dialect. */
function storeOf(config: ServerConfig): string {
  return config.databaseUrl.startsWith('sqlite:')
    ? `sqlite ${sqliteFilename(config.databaseUrl)}`
    : (config.databaseUrl.split(':')[0] as string);
}

/** The log of the primary of several workers, in the workers' format. */
function primaryLogger(config: ServerConfig): { warn(message: string): void } {
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
  const demo = options.demo ? new DemoFlows() : undefined;
  const server = await startServer({
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
  });
  // Workers serve the demo's callback page; the primary made the demo data and printed the request.
  if (demo && !cluster.isWorker) await ensureDemoClient(server.context, (line) => io.out(line), demo);
  if (!options.quiet) {
    warnOfPlaintextKeys(config, options.demo, server.app.log);
    io.out(`Gatehouse is serving ${config.issuer} (listening on ${server.url}, store ${storeOf(config)})`);
  }
  await stopSignal();
  await server.close();
  return 0;
}

/** Forks the workers, replaces any that die, and on a stop signal lets them finish their requests. */
async function superviseWorkers(count: number): Promise<number> {
  let stopping = false;
  const fork = (): void => {
    cluster.fork();
  };
  cluster.on('exit', (_worker, code, signal) => {
    if (stopping) return;
    process.stderr.write(`${JSON.stringify({ msg: 'worker exited; starting another', code, signal })}\n`);
    setTimeout(fork, 1000).unref();
  });
  for (let i = 0; i < count; i++) fork();
  await stopSignal();
  stopping = true;
  await new Promise<void>((resolve) => cluster.disconnect(resolve));
  return 0;
}

/** SIGINT, SIGTERM, or — in a worker — the primary disconnecting it. */
function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.off('disconnect', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (cluster.isWorker) process.on('disconnect', stop);
  });
}
