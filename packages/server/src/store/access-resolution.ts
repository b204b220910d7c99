import { sql, type Kysely } from 'kysely';
import type { RowCache } from './row-cache.js';
import type { Database } from './schema.js';

/** What a user holds: the names of its groups (with their ancestors) and of its roles. */
export interface HeldAccess {
  readonly groups: readonly string[];
  readonly roles: readonly string[];
}

/**
 * What the PostgreSQL store reads of a refresh token's grant's user in the statement that finds and
 * locks the token (postgres/holder-access.ts), so that a refresh waits for the database no more
 * often for the user's groups and roles: those `heldAccess` resolves for the API `api`, and the
 * user's membership of the grant's organization.
 */
export interface GrantHolderAccess {
  readonly held: HeldAccess;
  /** The grant's organization with the user's roles in it; null without one, or for a user no longer its member. */
  readonly organization: { readonly id: string; readonly name: string; readonly roles: readonly string[] } | null;
}

/** What a refresh asks to be read with its token: the access its grant's user holds for the API `api`. */
export interface HolderAccessRead {
  readonly api: string | null;
}

/** How a user's groups and roles are resolved for a token. */
export interface AccessResolutionRepository {
  /**
   * The user's groups (those it is a member of, and their ancestors) and its roles: assigned to it
   * or to one of those groups, server-wide or of the API `audience` (none of any API when null).
   * One statement, so one snapshot: a change committed before it started is seen whole.
   */
  heldAccess(subject: string, audience: string | null): Promise<HeldAccess>;
}

/** A row of `heldAccessQuery`: a group's or a role's name. */
export interface HeldAccessRow {
  kind: 'group' | 'role';
  name: string;
}

/**
 * `heldAccess` as one statement, its parameters one object (../query-template.ts), so that the
 * SQLite store prepares it once (sqlite/index.ts). UNION (not UNION ALL) in the recursion: a group
 * reached twice is walked once. `audience`: the API's, '' for none (an API role's audience is never
 * '', so it matches none).
 */
export const heldAccessQuery = (db: Kysely<Database>, p: { subject: string; audience: string }) => {
  const query = sql<HeldAccessRow>`
    with recursive member_groups(id) as (
      select group_id from group_members where subject = ${p.subject}
      union
      select g.parent_id from access_groups g join member_groups m on g.id = m.id
      where g.parent_id is not null
    )
    select 'group' as kind, g.name as name from access_groups g
      where g.id in (select id from member_groups)
    union
    select 'role' as kind, r.name as name from access_roles r
      join role_assignments a on a.role_id = r.id
      where ((a.principal_kind = 'user' and a.principal_id = ${p.subject})
          or (a.principal_kind = 'group' and a.principal_id in (select id from member_groups)))
        and (r.scope_kind = 'server' or (r.scope_kind = 'api' and r.scope_id = ${p.audience}))
    order by kind, name`;
  return { compile: () => query.compile(db) };
};

/** The rows of `heldAccessQuery` as the lists they name. */
export function heldAccessFromRows(rows: readonly HeldAccessRow[]): HeldAccess {
  const groups: string[] = [];
  const roles: string[] = [];
  for (const row of rows) (row.kind === 'group' ? groups : roles).push(row.name);
  return { groups, roles };
}

export function createAccessResolutionRepository(db: Kysely<Database>): AccessResolutionRepository {
  return {
    async heldAccess(subject, audience) {
      const { rows } = await db.executeQuery(heldAccessQuery(db, { subject, audience: audience ?? '' }).compile());
      return heldAccessFromRows(rows);
    },
  };
}

/**
 * `read` with its answers kept in `rows` under the row epoch (./row-cache.ts), which migration
 * 0035's triggers advance in the transaction of every change of a group, a membership, a role or an
 * assignment, by any process: a refresh of a user in 50 groups otherwise resolves them anew each
 * time. An answer is kept per user and API. `under` answers from the same memory under an epoch the
 * caller read itself (the PostgreSQL refresh's locked read, postgres/holder-access.ts), reading with
 * its own `readNow` on a miss.
 */
export function cachedHeldAccess(rows: RowCache, read: AccessResolutionRepository['heldAccess']): CachedHeldAccess {
  const cached = rows.cached((key) => {
    const [subject, audience] = JSON.parse(key) as [string, string | null];
    return read(subject, audience);
  });
  return Object.assign(
    async (subject: string, audience: string | null) =>
      (await cached(JSON.stringify([subject, audience]))) as HeldAccess,
    {
      under: async (
        subject: string,
        audience: string | null,
        epoch: number,
        readNow: AccessResolutionRepository['heldAccess'],
      ) =>
        (await cached.under(JSON.stringify([subject, audience]), epoch, () =>
          readNow(subject, audience),
        )) as HeldAccess,
    },
  );
}

/** `heldAccess` kept under the row epoch (`cachedHeldAccess`). */
export interface CachedHeldAccess {
  (subject: string, audience: string | null): Promise<HeldAccess>;
  under(
    subject: string,
    audience: string | null,
    epoch: number,
    readNow: AccessResolutionRepository['heldAccess'],
  ): Promise<HeldAccess>;
}
