import { sql, type Kysely } from 'kysely';
import type { GrantHolderAccess } from '../access-resolution.js';
import type { Database } from '../schema.js';
import { tokenPathQueries, tokenInFamilyFromRow, type TokenInFamilyRow } from '../token-path-queries.js';

/**
 * `findRefreshToken` with what the grant's user holds, in the same statement: its groups and roles
 * as `AccessResolutionRepository.heldAccess` resolves them (the same rule: the groups it is a member
 * of and their ancestors; the roles assigned to it or to one of those groups, server-wide or of the
 * API `api`, none of any API when null) and its membership of the grant's organization. A refresh
 * read them after its commit, one more round trip each; here they come with the locked read, which
 * a pipelined transaction sends with its BEGIN (./pool.ts). Scalar subqueries of the token's row:
 * the lock is taken on the token and its grant only. At READ COMMITTED they read the statement's
 * snapshot, taken when the refresh's transaction sends it, so a removal committed before the
 * refresh began is seen, as the separate read saw it.
 */
export const holderAccessQuery = (db: Kysely<Database>, p: { id: string; api: string }, lockRows: boolean) =>
  tokenPathQueries.findRefreshToken(db, { id: p.id }, lockRows).select(
    sql<HolderRow>`(
        with recursive member_groups(id) as (
          select group_id from group_members where subject = g.subject
          union
          select ag.parent_id from access_groups ag join member_groups m on ag.id = m.id
          where ag.parent_id is not null
        )
        select json_build_object(
          'groups', (select json_agg(distinct ag.name order by ag.name) from access_groups ag
            where ag.id in (select id from member_groups)),
          'roles', (select json_agg(distinct r.name order by r.name) from access_roles r
            join role_assignments a on a.role_id = r.id
            where ((a.principal_kind = 'user' and a.principal_id = g.subject)
                or (a.principal_kind = 'group' and a.principal_id in (select id from member_groups)))
              and (r.scope_kind = 'server' or (r.scope_kind = 'api' and r.scope_id = ${p.api}))),
          'organization', (select json_build_object('id', o.id, 'name', o.name, 'roles', m.roles::json)
            from organizations o join organization_members m on m.organization_id = o.id
            where o.id = g.organization_id and m.subject = g.subject)
        ))`.as('holder'),
  );

/** The `holder` column as node-postgres parses its JSON; an empty list is null (`json_agg` of no rows). */
interface HolderRow {
  groups: string[] | null;
  roles: string[] | null;
  organization: { id: string; name: string; roles: string[] } | null;
}

/** A row of `holderAccessQuery`: the token in its family, with what its grant's user holds. */
export function holderAccessFromRow(row: TokenInFamilyRow & { holder: HolderRow }) {
  const { groups, roles, organization } = row.holder;
  const holder: GrantHolderAccess = { held: { groups: groups ?? [], roles: roles ?? [] }, organization };
  return { ...tokenInFamilyFromRow(row), holder };
}
