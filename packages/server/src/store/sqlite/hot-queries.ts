import type BetterSqlite3 from 'better-sqlite3';
import type { Selectable } from 'kysely';
import type { Repository } from '../repository.js';
import { clientFromRow, grantFromRow, refreshTokenFromRow } from '../rows.js';
import type { ClientsTable, GrantsTable } from '../schema.js';

/** The repository methods every token request runs, and which this file implements on SQLite. */
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

/** A grants row as an array, in the order of GRANT_COLUMNS. */
type GrantTuple = [
  string,
  string,
  string,
  string,
  number,
  number,
  number,
  string | null,
  string | null,
  number | null,
  string | null,
];

const GRANT_COLUMNS =
  'id, client_id, subject, scope, created_at, expires_at, rotation_count, head_token_id, previous_token_id, revoked_at, revoked_reason';

type TokenInFamilyRow = Selectable<GrantsTable> & {
  t_id: string;
  grant_id: string;
  use_count: number;
  issued_at: number;
  t_expires_at: number;
};

/**
 * The token hot path's queries as better-sqlite3 statements prepared once per connection: the same
 * SQL as their Kysely versions in repository.ts, returning the same records, without building and
 * compiling a query and preparing a statement on every call (together most of a refresh's CPU
 * time). The domain rules stay in oauth/; these only read and write rows.
 *
 * The REST API's insert is here too: it runs in the group commit, once per 201.
 *
 * The caller decides when they may run: inside a transaction on its connection, or outside one
 * when no transaction is open (see GroupCommit.outsideTransactions).
 */
export function prepareHotQueries(database: BetterSqlite3.Database): HotQueries {
  const findClient = database.prepare<[string], Selectable<ClientsTable>>('select * from clients where id = ?');
  // Every bearer request reads its grant. Rows as arrays: better-sqlite3 builds an object row
  // property by property, with its column names made anew each time, which costs more than the read.
  const findGrant = database
    .prepare<[string], GrantTuple>(`select ${GRANT_COLUMNS} from grants where id = ?`)
    .raw(true);
  const findGrantRevokedAt = database
    .prepare<[string], number | null>('select revoked_at from grants where id = ?')
    .pluck(true);
  const findRefreshToken = database.prepare<[string], TokenInFamilyRow>(`
    select t.id as t_id, t.grant_id, t.use_count, t.issued_at, t.expires_at as t_expires_at,
      g.id, g.client_id, g.subject, g.scope, g.created_at, g.expires_at, g.rotation_count,
      g.head_token_id, g.previous_token_id, g.revoked_at, g.revoked_reason
    from refresh_tokens as t inner join grants as g on g.id = t.grant_id
    where t.id = ?`);
  const revokeGrant = database.prepare<[number, string, string]>(
    'update grants set revoked_at = ?, revoked_reason = ? where id = ? and revoked_at is null',
  );
  const updateGrantFamily = database.prepare<[number, string | null, string | null, string]>(
    'update grants set rotation_count = ?, head_token_id = ?, previous_token_id = ? where id = ?',
  );
  const insertRefreshToken = database.prepare<[string, string, number, number, number]>(
    'insert into refresh_tokens (id, grant_id, use_count, issued_at, expires_at) values (?, ?, ?, ?, ?)',
  );
  const updateRefreshToken = database.prepare<[number, number, string]>(
    'update refresh_tokens set use_count = ?, expires_at = ? where id = ?',
  );
  const insertRecord = database.prepare<[string, string, string, number, number, number]>(
    'insert into records (collection, id, body, version, created_at, updated_at) values (?, ?, ?, ?, ?, ?)',
  );

  return {
    async findClient(id) {
      const row = findClient.get(id);
      return row && clientFromRow(row);
    },
    async findGrant(id) {
      const row = findGrant.get(id);
      return row && grantFromRow(grantRow(row));
    },
    async findGrantRevokedAt(id) {
      return findGrantRevokedAt.get(id);
    },
    async findRefreshToken(id) {
      const row = findRefreshToken.get(id);
      if (!row) return undefined;
      const token = refreshTokenFromRow({
        id: row.t_id,
        grant_id: row.grant_id,
        use_count: row.use_count,
        issued_at: row.issued_at,
        expires_at: row.t_expires_at,
      });
      return { token, grant: grantFromRow(row) };
    },
    async revokeGrant(id, reason, now) {
      return revokeGrant.run(now, reason, id).changes > 0;
    },
    async updateGrantFamily(id, family) {
      updateGrantFamily.run(family.rotationCount, family.headTokenId, family.previousTokenId, id);
    },
    async insertRefreshToken(token) {
      insertRefreshToken.run(token.id, token.grantId, token.useCount, token.issuedAt, token.expiresAt);
    },
    async updateRefreshToken(id, fields) {
      updateRefreshToken.run(fields.useCount, fields.expiresAt, id);
    },
    async insertRecord(r) {
      insertRecord.run(r.collection, r.id, JSON.stringify(r.body), r.version, r.createdAt, r.updatedAt);
    },
  };
}

function grantRow(r: GrantTuple): Selectable<GrantsTable> {
  return {
    id: r[0],
    client_id: r[1],
    subject: r[2],
    scope: r[3],
    created_at: r[4],
    expires_at: r[5],
    rotation_count: r[6],
    head_token_id: r[7],
    previous_token_id: r[8],
    revoked_at: r[9],
    revoked_reason: r[10],
  };
}
