import type { ServerConfig } from '../config.js';
import { openStore } from '../store/open.js';
import { sqliteFilename } from '../store/sqlite-location.js';
import { parseCommand, type CommandDeclaration } from './declaration.js';
import type { CliIo } from './run.js';

export const MIGRATE = {
  name: 'migrate',
  summary: 'apply pending database migrations (safe from several hosts at once)',
  options: {},
} as const satisfies CommandDeclaration;

/** `gatehouse migrate`: applies pending migrations (safe to run from several hosts at once). */
export async function migrateCommand(args: string[], config: ServerConfig, io: CliIo): Promise<number> {
  parseCommand(MIGRATE, args);
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
