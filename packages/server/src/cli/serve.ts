import { parseArgs } from 'node:util';
import type { ServerConfig } from '../config.js';
import { startServer } from '../server.js';
import { ensureDemoClient } from './demo.js';
import type { CliIo } from './run.js';

/** `gatehouse serve [--demo]`: listens until SIGINT or SIGTERM, then closes cleanly. */
export async function serveCommand(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { demo: { type: 'boolean' } } });
  const server = await startServer({
    databaseUrl: config.databaseUrl, issuer: config.issuer, port: config.port, host: config.host, api: config.openApiPath,
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
  });
  if (values.demo) await ensureDemoClient(server.context, io.out);
  io.out(`Gatehouse is serving ${config.issuer} (listening on ${server.url}, store ${config.databaseUrl.split(':')[0]})`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  return 0;
}
