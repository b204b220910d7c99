import { sql, type Kysely } from 'kysely';
import type { CachedHeldAccess, GrantHolderAccess, HeldAccess } from '../access-resolution.js';
import { ROW_EPOCH, ROW_EPOCH_TABLE } from '../row-cache.js';
import type { Database } from '../schema.js';
import { tokenPathQueries, tokenInFamilyFromRow, type TokenInFamilyRow } from '../token-path-queries.js';

/**
 * `findRefreshToken` with, in the same statement, what a refresh needs to know of the grant's
 * user: the row epoch (../row-cache.ts), under which the user's groups and roles are served from
 * memory (`holderAccess`), and its membership of the grant's organization. A refresh read them
 * after its commit, one more round trip each; here they come with the locked read, which a
 * pipelined transaction sends with its BEGIN (./pool.ts). Scalar subqueries of the token's row:
 * the lock is taken on the token and its grant only. At READ COMMITTED they read the statement's
 * snapshot, taken when the refresh's transaction sends it, so a change committed before the
 * refresh began is seen: a membership at once, a group or role through the epoch its triggers
 * advanced (migration 0035).
 *
 * The refresh's transaction reads it locked through migration 0039's function, which runs this
 * statement's SQL with its plan kept for the session (./token-path-functions.ts); this definition
 * is the unlocked read's, and the function's row must stay the same as its row (a test compares).
 *
 * The groups and roles are not resolved here on every refresh: that recursive query made the
 * statement about six times PostgreSQL's planning and execution of the read alone (450 against
 * 70 µs, EXPLAIN ANALYZE, 2026-11-29), sent unnamed and so planned anew each time.
 */
export const holderAccessQuery = (db: Kysely<Database>, p: { id: string }, lockRows: boolean) =>
  tokenPathQueries.findRefreshToken(db, p, lockRows).select([
    sql<number | null>`(select epoch from ${sql.table(ROW_EPOCH_TABLE)} where name = ${sql.lit(ROW_EPOCH)})`.as(
      'epoch',
    ),
    sql<OrganizationRow | null>`(select json_build_object('id', o.id, 'name', o.name, 'roles', m.roles::json)
        from organizations o join organization_members m on m.organization_id = o.id
        where o.id = g.organization_id and m.subject = g.subject)`.as('organization'),
  ]);

/** The `organization` column as node-postgres parses its JSON: null without a membership. */
interface OrganizationRow {
  id: string;
  name: string;
  roles: string[];
}

/**
 * A row of `holderAccessQuery`: the token in its family, with what its grant's user holds for the
 * API `api`, from `held` under the row's epoch or, on a miss (or without an epoch), read by `readNow`.
 */
export async function holderAccessFromRow(
  row: TokenInFamilyRow & { epoch: number | null; organization: OrganizationRow | null },
  api: string | null,
  held: CachedHeldAccess,
  readNow: (subject: string, api: string | null) => Promise<HeldAccess>,
) {
  const inFamily = tokenInFamilyFromRow(row);
  const { subject } = inFamily.grant;
  const holder: GrantHolderAccess = {
    held: row.epoch === null ? await readNow(subject, api) : await held.under(subject, api, row.epoch, readNow),
    organization: row.organization,
  };
  return { ...inFamily, holder };
}
