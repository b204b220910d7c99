import type BetterSqlite3 from 'better-sqlite3';
import type { Compilable, Kysely } from 'kysely';
import type { Repository } from '../repository.js';
import type { ClientRecord, GrantLiveness, RefreshTokenBrief } from '../../primitives/records.js';
import { amrFromColumn, clientFromRow, grantFromRow, grantLivenessFromRow, revokedGrantFromRow } from '../rows.js';
import type { Database } from '../schema.js';
import { queryTemplate } from '../query-template.js';
import { userFromRow } from '../identity-repository.js';
import { heldAccessFromRows, heldAccessQuery } from '../access-resolution.js';
import {
  tokenBriefFromRow,
  tokenInFamilyFromRow,
  tokenPathQueries,
  type TokenPathMethods,
} from '../token-path-queries.js';

/** The repository methods every token request runs, and which this file runs on prepared statements. */
export type HotQueries = TokenPathMethods & Pick<Repository, 'revokeGrant' | 'heldAccess'>;

/** The hot queries on SQLite, where a statement runs before its method returns. */
export type SqliteHotQueries = HotQueries & {
  /** The reads of `Store.readsAtOnce`, answered synchronously. */
  readonly atOnce: {
    findClient(id: string): ClientRecord | undefined;
    findGrantLiveness(id: string): GrantLiveness | undefined;
    findRefreshTokenBrief(id: string): RefreshTokenBrief | undefined;
  };
};

/**
 * The token hot path's queries (`../token-path-queries.ts`, the same definitions the repository
 * runs) compiled once by Kysely and prepared once by better-sqlite3, returning the same records:
 * no query is built, compiled or prepared per call. The domain rules stay in oauth/; these only
 * read and write rows.
 *
 * The caller decides when they may run: inside a transaction on its connection, or outside one
 * when no transaction is open (see GroupCommit.outsideTransactions).
 */
export function prepareHotQueries(database: BetterSqlite3.Database, db: Kysely<Database>): SqliteHotQueries {
  const q = tokenPathQueries;
  const findClient = prepare(database, db, q.findClient);
  const findGrant = prepare(database, db, q.findGrant);
  const findGrantLiveness = prepare(database, db, q.findGrantLiveness);
  const findRefreshToken = prepare(database, db, q.findRefreshToken);
  const findRefreshTokenBrief = prepare(database, db, q.findRefreshTokenBrief);
  const revokeGrant = prepare(database, db, q.revokeGrant);
  const updateGrantFamily = prepare(database, db, q.updateGrantFamily);
  const insertRefreshToken = prepare(database, db, q.insertRefreshToken);
  const updateRefreshToken = prepare(database, db, q.updateRefreshToken);
  const touchGrantUse = prepare(database, db, q.touchGrantUse);
  const findUserBySubject = prepare(database, db, q.findUserBySubject);
  const insertRecord = prepare(database, db, q.insertRecord);
  const noteDpopProof = prepare(database, db, q.noteDpopProof);
  // A user grant's refresh reads what its user holds for the access token (../access-resolution.ts).
  const heldAccess = prepare(database, db, heldAccessQuery);

  const atOnce: SqliteHotQueries['atOnce'] = {
    findClient(id) {
      const row = findClient.get({ id });
      return row && clientFromRow(row);
    },
    findGrantLiveness(id) {
      const row = findGrantLiveness.get({ id });
      return row && grantLivenessFromRow(row);
    },
    findRefreshTokenBrief(id) {
      const row = findRefreshTokenBrief.get({ id });
      return row && tokenBriefFromRow(row);
    },
  };

  return {
    atOnce,
    async findClient(id) {
      return atOnce.findClient(id);
    },
    async findGrant(id) {
      const row = findGrant.get({ id });
      return row && grantFromRow(row);
    },
    async findGrantLiveness(id) {
      return atOnce.findGrantLiveness(id);
    },
    async findRefreshToken(id) {
      const row = findRefreshToken.get({ id });
      return row && tokenInFamilyFromRow(row);
    },
    async findRefreshTokenBrief(id) {
      return atOnce.findRefreshTokenBrief(id);
    },
    async heldAccess(subject, audience) {
      return heldAccessFromRows(heldAccess.all({ subject, audience: audience ?? '' }));
    },
    async revokeGrant(id, reason, now, descendantReason = reason) {
      return revokeGrant.all({ id, reason, descendantReason, now }).map(revokedGrantFromRow);
    },
    async insertRefreshToken(token) {
      insertRefreshToken.run(token);
    },
    async updateRefreshToken(id, { useCount, expiresAt }) {
      updateRefreshToken.run({ id, useCount, expiresAt });
    },
    async rotateFamily({ token, successor, grant }) {
      updateRefreshToken.run({ id: token.id, useCount: token.useCount, expiresAt: token.expiresAt });
      if (successor !== null) insertRefreshToken.run(successor);
      const { id, rotationCount, headTokenId, previousTokenId, rotatedAt } = grant;
      updateGrantFamily.run({ id, rotationCount, headTokenId, previousTokenId, rotatedAt });
    },
    async touchGrantUse(id, now) {
      const row = touchGrantUse.get({ id, now });
      return row && { authTime: row.auth_time, amr: amrFromColumn(row.amr) };
    },
    async findUserBySubject(subject) {
      const row = findUserBySubject.get({ subject });
      return row && userFromRow(row);
    },
    async insertRecord(r) {
      insertRecord.run({ ...r, body: JSON.stringify(r.body) });
    },
    async noteDpopProof(id, expiresAt) {
      return noteDpopProof.run({ id, expiresAt }).changes > 0;
    },
  };
}

/** A query compiled once and prepared once, run with a parameters object like its definition's. */
interface PreparedQuery<P, O> {
  get(parameters: P): O | undefined;
  all(parameters: P): O[];
  run(parameters: P): BetterSqlite3.RunResult;
}

/** Prepares `query`'s SQL, compiled once (../query-template.ts). */
function prepare<P extends object, O>(
  database: BetterSqlite3.Database,
  db: Kysely<Database>,
  query: (db: Kysely<Database>, parameters: P) => Compilable<O>,
): PreparedQuery<P, O> {
  const template = queryTemplate(db, query);
  // An array binds as the statement's `?`s in order.
  const values = template.parameters;
  const statement = database.prepare<unknown[]>(template.sql);
  // Rows are read as arrays and made objects here: better-sqlite3 makes each column's name anew for
  // every object row it builds, which costs more than the read itself.
  const columns = statement.reader ? statement.columns().map((column) => column.name) : [];
  if (statement.reader) statement.raw(true);
  const rowOf = rowBuilder<O>(columns);
  return {
    get(p) {
      const tuple = statement.get(values(p)) as unknown[] | undefined;
      return tuple === undefined ? undefined : rowOf(tuple);
    },
    all: (p) => (statement.all(values(p)) as unknown[][]).map(rowOf),
    run: (p) => statement.run(values(p)),
  };
}

/**
 * The function that makes a row object of a tuple of `columns`: one object literal with the
 * columns as its keys, so that every row of a statement has the same shape from its creation.
 * Assigned key by key in a loop, each store was a megamorphic keyed store (callgrind: ~15,000
 * instructions of an introspection, whose client row has 26 columns). The names are the
 * statement's own columns, each written as a JSON string literal.
 */
function rowBuilder<O>(columns: readonly string[]): (tuple: unknown[]) => O {
  const fields = columns.map((name, i) => `${JSON.stringify(name)}: tuple[${i}]`).join(', ');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- code made of the statement's column names only
  return new Function('tuple', `return { ${fields} };`) as (tuple: unknown[]) => O;
}
