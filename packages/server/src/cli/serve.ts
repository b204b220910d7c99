import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import type { ServerConfig } from '../config.js';
import { serverLoggerOptions } from '../http/log-redaction.js';
import { startServer } from '../server.js';
import { ensureDemoClient } from './demo.js';
import { withContext } from './open-context.js';
import { UsageError, type CliIo } from './run.js';

/**
 * `gatehouse serve [--demo] [--workers N|auto]`: listens until SIGINT or SIGTERM, then closes
 * cleanly. With several workers (node:cluster) the primary prepares the store once (migrations,
 * keys, demo data) and the workers share the port; a worker that dies is replaced.
 */
export async function serveCommand(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { demo: { type: 'boolean' }, workers: { type: 'string' } } });
  const workers = workerCount(values.workers);
  if (cluster.isWorker) return serveUntilStopped(config, io, { demo: false, migrations: 'check', quiet: true });
  if (workers === 1)
    return serveUntilStopped(config, io, {
      demo: values.demo ?? false,
      migrations: config.autoMigrate ? 'apply' : 'check',
      quiet: false,
    });

  await withContext(
    config,
    async (context) => {
      if (values.demo) await ensureDemoClient(context, (line) => io.out(line));
    },
    config.autoMigrate ? 'apply' : 'check',
  );
  io.out(
    `Gatehouse is serving ${config.issuer} with ${workers} workers (port ${config.port}, store ${config.databaseUrl.split(':')[0]})`,
  );
  return superviseWorkers(workers);
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
  const server = await startServer({
    databaseUrl: config.databaseUrl,
    issuer: config.issuer,
    port: config.port,
    host: config.host,
    api: config.openApiPath,
    migrations: options.migrations,
    trustProxy: config.trustProxy,
    metricsToken: config.metricsToken,
    logger: serverLoggerOptions(config.logLevel),
    rateLimits: config.rateLimits,
    connectionLimits: config.connectionLimits,
    keyEncryptionKey: config.keyEncryptionKey,
    clientRegistration: config.clientRegistration,
  });
  if (options.demo) await ensureDemoClient(server.context, (line) => io.out(line));
  if (!options.quiet)
    io.out(
      `Gatehouse is serving ${config.issuer} (listening on ${server.url}, store ${config.databaseUrl.split(':')[0]})`,
    );
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
