import { resolve } from 'node:path';
import { openPostgresStore } from './postgres/index.js';
import { openSqliteStore } from './sqlite/index.js';
import type { MigrationMode } from './migrations.js';
import type { Store } from './store.js';

/**
 * Opens the store named by a `DATABASE_URL`: `sqlite:relative/path.db`, `sqlite:///absolute/path.db`,
 * `sqlite::memory:`, or `postgres://user@host:port/database`. Pending migrations are applied (or,
 * with `migrations: 'check'`, refused) before it resolves.
 */
export async function openStore(
  databaseUrl: string,
  { migrations = 'apply' }: { migrations?: MigrationMode } = {},
): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) {
    const rest = databaseUrl.slice('sqlite:'.length);
    const filename = rest === ':memory:' ? rest : resolve(rest.startsWith('//') ? rest.slice(2) : rest);
    return openSqliteStore({ filename, migrations });
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return openPostgresStore({ connectionString: databaseUrl, migrations });
  }
  throw new Error(
    `DATABASE_URL must start with sqlite: or postgres:// (got ${JSON.stringify(databaseUrl.split(':')[0])})`,
  );
}
