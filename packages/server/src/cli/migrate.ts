import { parseArgs } from 'node:util';
import type { ServerConfig } from '../config.js';
import { openStore } from '../store/open.js';
import { sqliteFilename } from '../store/sqlite-location.js';
import type { CliIo } from './run.js';

/** `gatehouse migrate`: applies pending migrations (safe to run from several hosts at once). */
export async function migrateCommand(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  parseArgs({ args, options: {} });
  const store = await openStore(config.databaseUrl, { migrations: 'apply' });
  try {
    // The file, absolute: a relative DATABASE_URL (and the default) depends on where the command runs.
    const file = config.databaseUrl.startsWith('sqlite:') ? { database: sqliteFilename(config.databaseUrl) } : {};
    io.out(JSON.stringify({ dialect: store.dialect, ...file, applied: store.appliedMigrations }));
    return 0;
  } finally {
    await store.close();
  }
}
