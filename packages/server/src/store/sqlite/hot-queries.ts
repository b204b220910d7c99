import type BetterSqlite3 from 'better-sqlite3';
import type { Compilable, Kysely } from 'kysely';
import type { Repository } from '../repository.js';
import { clientFromRow, grantFromRow } from '../rows.js';
import type { Database } from '../schema.js';
import { tokenInFamilyFromRow, tokenPathQueries, type TokenInFamilyRow } from '../token-path-queries.js';

/** The repository methods every token request runs, and which this file runs on prepared statements. */
export type HotQueries = Pick<
  Repository,
  | 'findClient'
  | 'findGrant'
  | 'findGrantRevokedAt'
  | 'findRefreshToken'
  | 'insertRefreshToken'
  | 'updateRefreshToken'
  | 'updateGrantFamily'
  | 'revokeGrant'
  | 'insertRecord'
>;

/**
 * The token hot path's queries (`../token-path-queries.ts`, the same definitions the repository
 * runs) compiled once by Kysely and prepared once by better-sqlite3, returning the same records:
 * no query is built, compiled or prepared per call. The domain rules stay in oauth/; these only
 * read and write rows.
 *
 * The caller decides when they may run: inside a transaction on its connection, or outside one
 * when no transaction is open (see GroupCommit.outsideTransactions).
 */
export function prepareHotQueries(database: BetterSqlite3.Database, db: Kysely<Database>): HotQueries {
  const q = tokenPathQueries;
  const findClient = prepare(database, (p: { id: string }) => q.findClient(db, p));
  const findGrant = prepare(database, (p: { id: string }) => q.findGrant(db, p));
  const findGrantRevokedAt = prepare(database, (p: { id: string }) => q.findGrantRevokedAt(db, p));
  const findRefreshToken = prepare(database, (p: { id: string }) => q.findRefreshToken(db, p));
  const revokeGrant = prepare(database, (p: Parameters<typeof q.revokeGrant>[1]) => q.revokeGrant(db, p));
  const updateGrantFamily = prepare(database, (p: Parameters<typeof q.updateGrantFamily>[1]) =>
    q.updateGrantFamily(db, p),
  );
  const insertRefreshToken = prepare(database, (p: Parameters<typeof q.insertRefreshToken>[1]) =>
    q.insertRefreshToken(db, p),
  );
  const updateRefreshToken = prepare(database, (p: Parameters<typeof q.updateRefreshToken>[1]) =>
    q.updateRefreshToken(db, p),
  );
  const insertRecord = prepare(database, (p: Parameters<typeof q.insertRecord>[1]) => q.insertRecord(db, p));

  return {
    async findClient(id) {
      const row = findClient.get<Parameters<typeof clientFromRow>[0]>({ id });
      return row && clientFromRow(row);
    },
    async findGrant(id) {
      const row = findGrant.get<Parameters<typeof grantFromRow>[0]>({ id });
      return row && grantFromRow(row);
    },
    async findGrantRevokedAt(id) {
      return findGrantRevokedAt.first<number | null>({ id });
    },
    async findRefreshToken(id) {
      const row = findRefreshToken.get<TokenInFamilyRow>({ id });
      return row && tokenInFamilyFromRow(row);
    },
    async revokeGrant(id, reason, now) {
      return revokeGrant.run({ id, reason, now }).changes > 0;
    },
    async updateGrantFamily(id, { rotationCount, headTokenId, previousTokenId }) {
      updateGrantFamily.run({ id, rotationCount, headTokenId, previousTokenId });
    },
    async insertRefreshToken(token) {
      insertRefreshToken.run(token);
    },
    async updateRefreshToken(id, { useCount, expiresAt }) {
      updateRefreshToken.run({ id, useCount, expiresAt });
    },
    async insertRecord(r) {
      insertRecord.run({ ...r, body: JSON.stringify(r.body) });
    },
  };
}

/** A query compiled once and prepared once, run with a parameters object like its definition's. */
interface PreparedQuery<P> {
  readonly statement: BetterSqlite3.Statement<unknown[]>;
  get<R>(parameters: P): R | undefined;
  /** The first column of the first row. */
  first<R>(parameters: P): R | undefined;
  run(parameters: P): BetterSqlite3.RunResult;
}

/**
 * Compiles `query` with a placeholder in place of each parameter, to learn the SQL and where each
 * named parameter goes among its `?`s, and prepares that SQL. A value the query fixes itself (not
 * one of its parameters) is passed as compiled.
 */
function prepare<P extends object>(database: BetterSqlite3.Database, query: (p: P) => Compilable): PreparedQuery<P> {
  const placeholders = new Map<unknown, string>();
  const named = new Proxy({} as P, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      const placeholder = { placeholder: name };
      placeholders.set(placeholder, name);
      return placeholder;
    },
  });
  const compiled = query(named).compile();
  const slots = compiled.parameters.map((value) => ({ name: placeholders.get(value), value }));
  const statement = database.prepare<unknown[]>(compiled.sql);
  const values = (p: P): unknown[] =>
    slots.map(({ name, value }) => (name === undefined ? value : (p as Record<string, unknown>)[name]));
  // Rows are read as arrays and made objects here: better-sqlite3 makes each column's name anew
  // for every object row it builds, which costs more than the read itself.
  const reader = statement.reader;
  const columns = reader ? statement.columns().map((column) => column.name) : [];
  if (reader) statement.raw(true);
  const objectRow = (values: unknown[] | undefined): Record<string, unknown> | undefined => {
    if (values === undefined) return undefined;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i] as string] = values[i];
    return row;
  };
  return {
    statement,
    // An array binds as the statement's `?`s in order.
    get: <R>(p: P) => objectRow(statement.get(values(p)) as unknown[] | undefined) as R | undefined,
    first: <R>(p: P) => (statement.get(values(p)) as unknown[] | undefined)?.[0] as R | undefined,
    run: (p: P) => statement.run(values(p)),
  };
}
