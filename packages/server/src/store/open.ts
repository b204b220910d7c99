import { existsSync } from 'node:fs';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { inSpan, isTracing } from '../telemetry/tracing.js';
import { sqliteFilename } from './sqlite-location.js';
import type { MigrationMode } from './migrations.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  readonly migrations?: MigrationMode;
  /**
   * Whether a missing SQLite file is created (with its folder): true for `serve` and `migrate`;
   * the other commands refuse a missing file, naming the path they looked at.
   */
  readonly create?: boolean;
}

/**
 * Opens the store named by a `DATABASE_URL`: `sqlite:relative/path.db`, `sqlite:///absolute/path.db`,
 * `sqlite::memory:`, or `postgres://user@host:port/database`. Pending migrations are applied (or,
 * with `migrations: 'check'`, refused) before it resolves.
 */
export async function openStore(
  databaseUrl: string,
  { migrations = 'apply', create = true }: OpenStoreOptions = {},
): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) {
    const filename = sqliteFilename(databaseUrl);
    if (!create && filename !== ':memory:' && !existsSync(filename))
      throw new OperatorInputError(
        `no SQLite database at ${filename} (DATABASE_URL ${databaseUrl}); gatehouse migrate or gatehouse serve creates it`,
      );
    // Each dialect's driver is loaded only when its store is opened: `pg` is about 15 MB of a process
    // that never speaks to PostgreSQL, better-sqlite3 about 5 MB of one that never opens a file.
    const { openSqliteStore } = await import('./sqlite/index.js');
    return withTracedTransactions(await openSqliteStore({ filename, migrations, create }));
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const { openPostgresStore } = await import('./postgres/index.js');
    return withTracedTransactions(await openPostgresStore({ connectionString: databaseUrl, migrations }));
  }
  throw new Error(
    `DATABASE_URL must start with sqlite: or postgres:// (got ${JSON.stringify(databaseUrl.split(':')[0])})`,
  );
}

/**
 * Each transaction in a span `store.transaction` when tracing is on (telemetry/tracing.ts), its
 * retries and group commit included; when off, one boolean read more per transaction.
 */
function withTracedTransactions(store: Store): Store {
  const run = store.transaction.bind(store);
  const attributes = { 'db.system.name': store.dialect === 'postgres' ? 'postgresql' : 'sqlite' };
  const transaction: Store['transaction'] = (work) =>
    isTracing() ? inSpan('store.transaction', attributes, () => run(work)) : run(work);
  return Object.assign(store, { transaction });
}
