import type { Kysely } from 'kysely';
import type { MigrationMode } from '../migrations.js';
import { createRepository } from '../repository.js';
import type { Store } from '../store.js';
import { withUnavailableMapped } from './errors.js';
import { migratePostgres, pendingPostgresMigrations } from './migrations.js';
import { openPostgresDatabase } from './open.js';
import { withUnboundedStatements } from './pool.js';
import { postgresRateLimitStore } from './rate-limit-store.js';
import { postgresTransactions } from './transactions.js';
import { ROW_EPOCH, ROW_EPOCH_TABLE, RowCache } from '../row-cache.js';
import { cachedHeldAccess, createAccessResolutionRepository } from '../access-resolution.js';
import { BatchedEpoch } from './batched-epoch.js';
import { postgresHotQueries, runTemplate } from './hot-queries.js';
import { postgresOverviewCounts } from './overview-counts.js';
import { queryTemplate } from '../query-template.js';

export interface PostgresStoreOptions {
  /**
   * `postgres://user@host:port/database`; `?options=-c search_path=…` selects a schema. Several
   * hosts (`h1:5432,h2:5432`) with `target_session_attrs=read-write` follow a failover (./pool.ts).
   */
  readonly connectionString: string;
  /** Connections per process. */
  readonly poolSize?: number;
  readonly migrations?: MigrationMode;
}

/**
 * The store on PostgreSQL, for several Gatehouse processes sharing one database. Transactions run
 * at READ COMMITTED with row locks (`SELECT … FOR UPDATE`): of concurrent exchanges of one token,
 * one takes the lock and the others, once it commits, read the row as it left it.
 */
export async function openPostgresStore({
  connectionString,
  poolSize = 10,
  migrations = 'apply',
}: PostgresStoreOptions): Promise<Store> {
  const writeBehind = new Set<string>();
  const db = openPostgresDatabase(connectionString, poolSize, writeBehind);
  let appliedMigrations: string[];
  try {
    // Migrations, and waiting for another process's, may take longer than a request's statement timeout.
    appliedMigrations = await withUnboundedStatements(connectionString, (migrationDb) =>
      migratePostgres(migrationDb, migrations),
    );
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // Clients, grant liveness and what users hold, read on every token and API request, kept while
  // the row epoch stands (../row-cache.ts): one read of it for each turn's requests instead of one
  // read each; a refresh reads it with its token (./holder-access.ts).
  const epoch = queryTemplate(db, (d, p: { name: string }) =>
    d.selectFrom(ROW_EPOCH_TABLE).select('epoch').where('name', '=', p.name),
  );
  const rows = new RowCache(
    new BatchedEpoch(async () => {
      const [row] = (await runTemplate(db, epoch, { name: ROW_EPOCH })).rows;
      if (row === undefined) throw new Error(`${ROW_EPOCH_TABLE} has no row '${ROW_EPOCH}'`);
      // int8 is parsed as a number (open.ts).
      return row.epoch;
    }),
  );
  const resolution = withUnavailableMapped(createAccessResolutionRepository(db));
  const heldAccess = cachedHeldAccess(rows, (subject, audience) => resolution.heldAccess(subject, audience));
  const hot = postgresHotQueries(db, heldAccess);
  for (const text of hot.writeBehind) writeBehind.add(text);
  const repository = withUnavailableMapped({
    ...createRepository(db, { lockRows: false }),
    ...hot(db, false),
    ...postgresOverviewCounts(db),
  });
  return {
    dialect: 'postgres',
    appliedMigrations,
    pendingMigrations: () => pendingPostgresMigrations(db as Kysely<unknown>),
    ...repository,
    findClient: rows.cached((id) => repository.findClient(id)),
    findGrantLiveness: rows.cached((id) => repository.findGrantLiveness(id)),
    heldAccess,
    rateLimits: withUnavailableMapped(postgresRateLimitStore(db)),
    ...postgresTransactions(db, hot),
    async close() {
      await db.destroy();
    },
  };
}
