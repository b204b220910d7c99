import type { Actor, AuditTrail } from '../audit/audit.js';
import { newId } from '../primitives/ids.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { Repository } from '../store/repository.js';
import type { PrincipalKind, RoleAssignment, RoleKey, RoleRecord, RoleScope } from '../store/role-repository.js';
import { existingGroup } from './groups.js';
import { checkedName, checkedScope, scopeLabel } from './names.js';

/**
 * The administrative changes of roles, shared by `gatehouse roles` and the admin API: one
 * transaction each, audited with the actor. A role is named by its name and its scope: `api`
 * (`/v2`, or a resource server's client id) or server-wide (`api` undefined).
 */

/** Who a role is assigned to, as an operator names it. */
export type NamedPrincipal = { readonly user: string } | { readonly group: string } | { readonly client: string };

/** The role of this name in this scope, or a not-found refusal. */
export async function existingRole(store: Repository, name: string, api: string | undefined): Promise<RoleRecord> {
  const scope = await checkedScope(store, api);
  const role = await store.findRole(name, scope);
  if (role === undefined) throw new OperatorInputError(`there is no role '${name}' ${where(scope)}`, 'not_found');
  return role;
}

const where = (scope: RoleScope): string => (scope.kind === 'server' ? 'server-wide' : `of ${scopeLabel(scope)}`);

export async function createRole(
  trail: AuditTrail,
  r: { readonly name: string; readonly api?: string | undefined; readonly description?: string | undefined },
  now: number,
  actor: Actor,
): Promise<RoleRecord> {
  const name = checkedName('role', r.name);
  return trail.transaction(async (tx, audit) => {
    const scope = await checkedScope(tx, r.api);
    const role: RoleRecord = {
      id: newId(),
      name,
      scope,
      description: r.description ?? null,
      builtIn: false,
      createdAt: now,
    };
    if (!(await tx.insertRoleIfAbsent(role)))
      throw new OperatorInputError(`role '${name}' already exists ${where(scope)}`, 'conflict');
    await audit({ event: 'role_created', at: now, reason: roleReason(role), actor: actor.id });
    return role;
  });
}

/** Removes a role and every assignment of it; the admin API's own roles are refused. */
export async function removeRole(
  trail: AuditTrail,
  name: string,
  api: string | undefined,
  now: number,
  actor: Actor,
): Promise<void> {
  await trail.transaction(async (tx, audit) => {
    const role = await existingRole(tx, name, api);
    if (role.builtIn) throw new OperatorInputError(`role '${name}' is built in: the admin API needs it`);
    await tx.removeRole(role.id);
    await audit({ event: 'role_removed', at: now, reason: roleReason(role), actor: actor.id });
  });
}

/** The stored principal an operator names: a user's subject, a group's id, an existing client's id. */
async function principalOf(
  store: Repository,
  named: NamedPrincipal,
): Promise<{ kind: PrincipalKind; id: string; label: string }> {
  if ('user' in named) {
    const user = await store.findUser(named.user);
    if (user === undefined) throw new OperatorInputError(`there is no user '${named.user}'`, 'not_found');
    return { kind: 'user', id: user.subject, label: `user=${user.username}` };
  }
  if ('group' in named) {
    const group = await existingGroup(store, named.group);
    return { kind: 'group', id: group.id, label: `group=${group.name}` };
  }
  const client = await store.findClient(named.client);
  if (client === undefined) throw new OperatorInputError(`there is no client '${named.client}'`, 'not_found');
  return { kind: 'client', id: client.id, label: `client=${client.id}` };
}

export async function assignRole(
  trail: AuditTrail,
  role: { readonly name: string; readonly api?: string | undefined },
  to: NamedPrincipal,
  now: number,
  actor: Actor,
): Promise<boolean> {
  return trail.transaction(async (tx, audit) => {
    const found = await existingRole(tx, role.name, role.api);
    const principal = await principalOf(tx, to);
    if (principal.kind === 'client' && found.scope.kind !== 'server')
      throw new OperatorInputError(
        "a client holds only server-wide roles (the admin API's): its tokens carry no user's roles",
      );
    if (!(await tx.assignRole(found.id, principal, now))) return false;
    await audit({
      event: 'role_assigned',
      at: now,
      ...subjectOrClient(principal),
      reason: `${roleReason(found)} ${principal.label}`,
      actor: actor.id,
    });
    return true;
  });
}

/** Takes a role back: the next access token of the user (or of the group's members) lacks it. */
export async function unassignRole(
  trail: AuditTrail,
  role: { readonly name: string; readonly api?: string | undefined },
  from: NamedPrincipal,
  now: number,
  actor: Actor,
): Promise<void> {
  await trail.transaction(async (tx, audit) => {
    const found = await existingRole(tx, role.name, role.api);
    const principal = await principalOf(tx, from);
    if (!(await tx.unassignRole(found.id, principal)))
      throw new OperatorInputError(
        `${principal.label.replace('=', " '")}' does not hold role '${found.name}'`,
        'not_found',
      );
    await audit({
      event: 'role_unassigned',
      at: now,
      ...subjectOrClient(principal),
      reason: `${roleReason(found)} ${principal.label}`,
      actor: actor.id,
    });
  });
}

function subjectOrClient(p: { kind: PrincipalKind; id: string }): { subject?: string; clientId?: string } {
  return p.kind === 'user' ? { subject: p.id } : p.kind === 'client' ? { clientId: p.id } : {};
}

function roleReason(role: RoleRecord): string {
  return `role=${role.name} scope=${scopeLabel(role.scope)}`;
}

/** A role as the CLI and the admin API show it. */
export interface RoleView {
  readonly name: string;
  /** The API's audience, or null for a server-wide role. */
  readonly api: string | null;
  readonly description: string | null;
  readonly built_in: boolean;
  readonly created_at: string;
}

export function describeRole(role: RoleRecord): RoleView {
  return {
    name: role.name,
    api: role.scope.kind === 'api' ? role.scope.audience : null,
    description: role.description,
    built_in: role.builtIn,
    created_at: new Date(role.createdAt * 1000).toISOString(),
  };
}

/** Every server-wide and API role (organizations' roles are listed with their organization). */
export async function listRoles(store: Repository, api?: string): Promise<RoleView[]> {
  const roles = api === undefined ? await store.listRoles() : await store.listRoles(await checkedScope(store, api));
  return roles.filter((r) => r.scope.kind !== 'organization').map(describeRole);
}

/** Which roles a page of the list holds: of one API, searched, held directly by one principal. */
export interface RoleListFilter {
  readonly api?: string | undefined;
  /** Matched against the name, the description and the API, in any case. */
  readonly search?: string | undefined;
  readonly holder?: NamedPrincipal | undefined;
}

/**
 * A page of the server-wide and API roles after `after`, server-wide first then by API, each by
 * name. An unknown API or holder is a not-found refusal, as naming it elsewhere is.
 */
export async function listRolesPage(
  store: Repository,
  after: RoleKey | undefined,
  limit: number,
  { api, search, holder }: RoleListFilter,
): Promise<RoleRecord[]> {
  const scope = api === undefined ? undefined : await checkedScope(store, api);
  const principal = holder === undefined ? undefined : await principalOf(store, holder);
  return store.listRolesPage(after, limit, {
    ...(scope === undefined ? {} : { scope }),
    ...(search === undefined ? {} : { search }),
    ...(principal === undefined ? {} : { holder: { kind: principal.kind, id: principal.id } }),
  });
}

/** Where a role stands in the list of roles (its cursor's key). */
export function roleKeyOf(role: RoleRecord): RoleKey {
  return { audience: role.scope.kind === 'api' ? role.scope.audience : '', name: role.name };
}

/** Who holds a role directly, as `user:<username>`, `group:<name>` and `client:<id>`. */
export async function listRoleHolders(store: Repository, name: string, api: string | undefined): Promise<string[]> {
  const role = await existingRole(store, name, api);
  const holders: string[] = [];
  for (const a of await store.listRoleAssignments(role.id)) holders.push(await holderLabel(store, a));
  return holders;
}

async function holderLabel(store: Repository, a: RoleAssignment): Promise<string> {
  if (a.kind === 'user') return `user:${(await store.findUserBySubject(a.id))?.username ?? a.id}`;
  if (a.kind === 'group') return `group:${(await store.findGroupById(a.id))?.name ?? a.id}`;
  return `client:${a.id}`;
}
