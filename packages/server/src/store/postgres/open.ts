import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';
import { createPool, DEFAULT_POOL_SETTINGS } from './pool.js';

// int8 (oid 20) comes back as a string by default; our bigints are epoch seconds, well inside 2^53.
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : (pg.types.getTypeParser(oid, format as 'text') as (value: string) => unknown)) as typeof pg.types.getTypeParser,
};

/**
 * The pool of connections to the database (pool.ts: errors handled, timeouts bounded, failover), as
 * Kysely. `writeBehind`: the statements a pipelined transaction holds back (pool.ts), filled once the
 * store has compiled them.
 */
export function openPostgresDatabase(
  connectionString: string,
  poolSize: number,
  writeBehind: ReadonlySet<string> = new Set(),
): Kysely<Database> {
  const pool = createPool(connectionString, { ...DEFAULT_POOL_SETTINGS, max: poolSize, types, writeBehind });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
