import type { Kysely } from 'kysely';
import { containsAnyCase } from './contains.js';
import type { Database } from './schema.js';

/**
 * Where a role applies (0028): the whole server, one API (its audience: a resource server's client id,
 * or `/v2` for the built-in REST API), or one organization (its id).
 */
export type RoleScope =
  | { readonly kind: 'server' }
  | { readonly kind: 'api'; readonly audience: string }
  | { readonly kind: 'organization'; readonly organizationId: string };

export interface RoleRecord {
  readonly id: string;
  readonly name: string;
  readonly scope: RoleScope;
  readonly description: string | null;
  /** The admin API's roles, made by the migration: never removed. */
  readonly builtIn: boolean;
  readonly createdAt: number;
}

/** Who holds a role: a user (by subject), a group (by id), or a client (by id). */
export type PrincipalKind = 'user' | 'group' | 'client';

export interface RoleAssignment {
  readonly kind: PrincipalKind;
  /** The user's subject, the group's id, or the client's id. */
  readonly id: string;
  readonly assignedAt: number;
}

/**
 * Where a server-wide or API role stands in the list of roles: its API's audience (`''` for a
 * server-wide role, so those come first) then its name.
 */
export interface RoleKey {
  readonly audience: string;
  readonly name: string;
}

/** Which server-wide and API roles a page holds (organizations' roles are not in the list). */
export interface RoleFilter {
  /** Only the roles of this scope. */
  readonly scope?: RoleScope;
  /** Only the roles whose name, description or API contains this text, in any case. */
  readonly search?: string;
  /** Only the roles this principal holds directly. */
  readonly holder?: Omit<RoleAssignment, 'assignedAt'>;
}

/** The queries of roles and their assignments. */
export interface RoleRepository {
  /** Inserts the role unless its name is taken in its scope; false when it is. */
  insertRoleIfAbsent(role: RoleRecord): Promise<boolean>;
  findRole(name: string, scope: RoleScope): Promise<RoleRecord | undefined>;
  /** Every role, or those of one scope, by scope then name. */
  listRoles(scope?: RoleScope): Promise<RoleRecord[]>;
  /** A page of the server-wide and API roles after `after`, by API (server-wide first) then name (0038). */
  listRolesPage(after: RoleKey | undefined, limit: number, filter?: RoleFilter): Promise<RoleRecord[]>;
  /** Removes the role and every assignment of it; false when there was none. */
  removeRole(id: string): Promise<boolean>;
  /** Assigns the role unless the principal holds it; false when it did. */
  assignRole(roleId: string, principal: Omit<RoleAssignment, 'assignedAt'>, now: number): Promise<boolean>;
  /** False when the principal did not hold it (directly). */
  unassignRole(roleId: string, principal: Omit<RoleAssignment, 'assignedAt'>): Promise<boolean>;
  listRoleAssignments(roleId: string): Promise<RoleAssignment[]>;
  /** The names of the server-wide roles assigned to a client directly. */
  serverRolesOfClient(clientId: string): Promise<string[]>;
}

export function scopeColumns(scope: RoleScope): { scope_kind: string; scope_id: string } {
  switch (scope.kind) {
    case 'server':
      return { scope_kind: 'server', scope_id: '' };
    case 'api':
      return { scope_kind: 'api', scope_id: scope.audience };
    case 'organization':
      return { scope_kind: 'organization', scope_id: scope.organizationId };
  }
}

function scopeFromColumns(kind: string, id: string): RoleScope {
  if (kind === 'api') return { kind, audience: id };
  if (kind === 'organization') return { kind, organizationId: id };
  return { kind: 'server' };
}

const roleFromRow = (row: Database['access_roles']): RoleRecord => ({
  id: row.id,
  name: row.name,
  scope: scopeFromColumns(row.scope_kind, row.scope_id),
  description: row.description,
  builtIn: Number(row.built_in) === 1,
  createdAt: Number(row.created_at),
});

export function createRoleRepository(db: Kysely<Database>): RoleRepository {
  return {
    async insertRoleIfAbsent(role) {
      const result = await db
        .insertInto('access_roles')
        .values({
          id: role.id,
          name: role.name,
          ...scopeColumns(role.scope),
          description: role.description,
          built_in: role.builtIn ? 1 : 0,
          created_at: role.createdAt,
        })
        .onConflict((oc) => oc.columns(['scope_kind', 'scope_id', 'name']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async findRole(name, scope) {
      const { scope_kind, scope_id } = scopeColumns(scope);
      const row = await db
        .selectFrom('access_roles')
        .selectAll()
        .where('name', '=', name)
        .where('scope_kind', '=', scope_kind)
        .where('scope_id', '=', scope_id)
        .executeTakeFirst();
      return row && roleFromRow(row);
    },
    async listRoles(scope) {
      const columns = scope === undefined ? undefined : scopeColumns(scope);
      const rows = await db
        .selectFrom('access_roles')
        .selectAll()
        .$if(columns !== undefined, (q) =>
          q
            .where('scope_kind', '=', (columns as { scope_kind: string }).scope_kind)
            .where('scope_id', '=', (columns as { scope_id: string }).scope_id),
        )
        .orderBy('scope_kind')
        .orderBy('scope_id')
        .orderBy('name')
        .execute();
      return rows.map(roleFromRow);
    },
    async listRolesPage(after, limit, { scope, search, holder } = {}) {
      const columns = scope === undefined ? undefined : scopeColumns(scope);
      const rows = await db
        .selectFrom('access_roles')
        .selectAll()
        .where('scope_kind', 'in', ['server', 'api'])
        .$if(columns !== undefined, (q) =>
          q
            .where('scope_kind', '=', (columns as { scope_kind: string }).scope_kind)
            .where('scope_id', '=', (columns as { scope_id: string }).scope_id),
        )
        .$if(after !== undefined, (q) =>
          q.where((eb) =>
            eb(eb.refTuple('scope_id', 'name'), '>', eb.tuple((after as RoleKey).audience, (after as RoleKey).name)),
          ),
        )
        .$if(search !== undefined, (q) => q.where(containsAnyCase(search as string, 'name', 'description', 'scope_id')))
        .$if(holder !== undefined, (q) =>
          q.where((eb) =>
            eb.exists(
              eb
                .selectFrom('role_assignments as a')
                .select('a.role_id')
                .whereRef('a.role_id', '=', 'access_roles.id')
                .where('a.principal_kind', '=', (holder as RoleAssignment).kind)
                .where('a.principal_id', '=', (holder as RoleAssignment).id),
            ),
          ),
        )
        .orderBy('scope_id')
        .orderBy('name')
        .limit(limit)
        .execute();
      return rows.map(roleFromRow);
    },
    async removeRole(id) {
      await db.deleteFrom('role_assignments').where('role_id', '=', id).execute();
      const result = await db.deleteFrom('access_roles').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async assignRole(roleId, principal, now) {
      const result = await db
        .insertInto('role_assignments')
        .values({ role_id: roleId, principal_kind: principal.kind, principal_id: principal.id, assigned_at: now })
        .onConflict((oc) => oc.columns(['role_id', 'principal_kind', 'principal_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async unassignRole(roleId, principal) {
      const result = await db
        .deleteFrom('role_assignments')
        .where('role_id', '=', roleId)
        .where('principal_kind', '=', principal.kind)
        .where('principal_id', '=', principal.id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async listRoleAssignments(roleId) {
      const rows = await db
        .selectFrom('role_assignments')
        .selectAll()
        .where('role_id', '=', roleId)
        .orderBy('principal_kind')
        .orderBy('principal_id')
        .execute();
      return rows.map((r) => ({
        kind: r.principal_kind as PrincipalKind,
        id: r.principal_id,
        assignedAt: Number(r.assigned_at),
      }));
    },
    async serverRolesOfClient(clientId) {
      const rows = await db
        .selectFrom('role_assignments as a')
        .innerJoin('access_roles as r', 'r.id', 'a.role_id')
        .select('r.name')
        .where('a.principal_kind', '=', 'client')
        .where('a.principal_id', '=', clientId)
        .where('r.scope_kind', '=', 'server')
        .orderBy('r.name')
        .execute();
      return rows.map((r) => r.name);
    },
  };
}
