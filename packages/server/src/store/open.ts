import { resolve } from 'node:path';
import { openPostgresStore } from './postgres/index.js';
import { openSqliteStore } from './sqlite/index.js';
import type { Store } from './store.js';

/**
 * Opens the store named by a `DATABASE_URL`: `sqlite:relative/path.db`, `sqlite:///absolute/path.db`,
 * `sqlite::memory:`, or `postgres://user@host:port/database`. Migrations are applied before it
 * resolves.
 */
export async function openStore(databaseUrl: string): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) {
    const rest = databaseUrl.slice('sqlite:'.length);
    const filename = rest === ':memory:' ? rest : resolve(rest.startsWith('//') ? rest.slice(2) : rest);
    return openSqliteStore({ filename });
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return openPostgresStore({ connectionString: databaseUrl });
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${JSON.stringify(databaseUrl.split(':')[0])})`);
}
