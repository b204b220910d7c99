import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

export type Dialect = 'sqlite' | 'postgres';

/**
 * Every storage and HTTP suite runs once per dialect. PostgreSQL is the machine's server
 * (`TEST_POSTGRES_URL`, default postgres://postgres@127.0.0.1:5432/test). If it is unreachable the
 * suites fail — in CI always; a developer without PostgreSQL may set GATEHOUSE_TEST_SQLITE_ONLY=1,
 * which CI ignores.
 */
export const DIALECTS: readonly Dialect[] =
  process.env.GATEHOUSE_TEST_SQLITE_ONLY === '1' && process.env.CI !== 'true' ? ['sqlite'] : ['sqlite', 'postgres'];

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface PostgresSchema {
  /** A DATABASE_URL whose connections use the schema. */
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh, empty schema in the test database, so that suites never see each other's rows. */
export async function createPostgresSchema(): Promise<PostgresSchema> {
  const schema = `gh_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${POSTGRES_URL} (${(error as Error).message}); the PostgreSQL suites need it`,
      { cause: error },
    );
  }
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

/** An empty database of the dialect (a SQLite file in a temporary folder, or a fresh schema). */
export async function freshDatabase(dialect: Dialect): Promise<{ readonly url: string; drop(): Promise<void> }> {
  if (dialect === 'postgres') return createPostgresSchema();
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-db-'));
  return {
    url: `sqlite:${join(dir, 'gatehouse.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs SQL on a store's database directly, as an earlier version of the server (or an operator) would. */
export async function executeStatements(dialect: Dialect, url: string, statements: readonly string[]): Promise<void> {
  if (dialect === 'sqlite') {
    const database = new BetterSqlite3(url.slice('sqlite:'.length));
    try {
      for (const statement of statements) database.exec(statement);
    } finally {
      database.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
