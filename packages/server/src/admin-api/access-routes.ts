import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  addGroupMember,
  assignRole,
  createGroup,
  createRole,
  describeGroup,
  describeRole,
  existingRole,
  listGroupMembers,
  listGroupsPage,
  listRoleHolders,
  listRolesPage,
  removeGroup,
  removeGroupMember,
  removeRole,
  roleKeyOf,
  showGroup,
  unassignRole,
  type NamedPrincipal,
} from '../access/index.js';
import type { ServerContext } from '../context.js';
import { validBodyOrThrow } from '../json-api/body-problems.js';
import { cursorPosition, pageOf, pageSize } from '../json-api/paging.js';
import { requireBody } from '../json-api/serve-json-api.js';
import type { RoleKey } from '../store/role-repository.js';
import { normalizeUsername } from '../users/users.js';
import type { AdminAccess } from './caller.js';
import type { AdminDefinition } from './definition.js';
import { querySearch, queryValue, type Query } from './query.js';

type GroupRequest = FastifyRequest<{ Params: { group: string } }>;
type MemberRequest = FastifyRequest<{ Params: { group: string; username: string } }>;
type RoleRequest = FastifyRequest<{ Params: { role: string }; Querystring: Query }>;

/** A role's key in a cursor: its API's audience ('' server-wide), a line break (in no name), its name. */
const roleCursorKey = (key: RoleKey): string => `${key.audience}\n${key.name}`;

function roleKeyOfCursor(text: string): RoleKey | undefined {
  const end = text.lastIndexOf('\n');
  if (end < 0 || end === text.length - 1) return undefined;
  return { audience: text.slice(0, end), name: text.slice(end + 1) };
}

/** `holder` of GET /roles as the holders list writes it: `user:USERNAME`, `group:NAME` or `client:ID`. */
function holderOf(query: Query): NamedPrincipal | undefined {
  const holder = queryValue(query, 'holder');
  if (holder === undefined) return undefined;
  const [, kind, name] = /^(user|group|client):(.+)$/.exec(holder) ?? [];
  if (kind === 'user') return { user: normalizeUsername(name as string) };
  if (kind === 'group') return { group: name as string };
  if (kind === 'client') return { client: name as string };
  throw new ProblemError('invalid_parameter', 'holder must be user:USERNAME, group:NAME or client:CLIENT_ID.');
}

/**
 * /groups and /roles: the same functions as `gatehouse groups` and `gatehouse roles` (access/),
 * audited with the caller as actor. A role is named by its name and, for an API's role, the query
 * parameter `api`; without it, the server-wide role of that name. The lists are paged and searched
 * in the store, as /users is (json-api/paging.ts).
 */
export function accessRoutes(
  app: FastifyInstance,
  { store, audit, clock }: ServerContext,
  { bodies }: AdminDefinition,
  access: AdminAccess,
): void {
  app.get<{ Querystring: Query }>('/groups', { config: access.read }, async (request) => {
    const limit = pageSize(request.query.limit);
    const after = cursorPosition(request.query.cursor, (name) => name !== '');
    const search = querySearch(request.query, 'a group name');
    const rows = await listGroupsPage(store, after, limit + 1, search);
    return pageOf(
      rows,
      limit,
      (row) => row.group.name,
      (row) => describeGroup(row.group, row.parentName),
    );
  });
  app.post('/groups', { config: access.writeJson }, async (request, reply) => {
    requireBody(request);
    const { name, parent } = validBodyOrThrow(bodies.createGroup(request.body)) as { name: string; parent?: string };
    const group = await createGroup(audit, name, parent, clock.now(), request.adminActor);
    reply.code(201).header('location', `${request.url.split('?')[0]}/${encodeURIComponent(group.name)}`);
    return describeGroup(group, parent ?? null);
  });
  app.get('/groups/:group', { config: access.read }, async (request: GroupRequest) =>
    showGroup(store, request.params.group),
  );
  app.delete('/groups/:group', { config: access.write }, async (request: GroupRequest, reply) => {
    await removeGroup(audit, request.params.group, clock.now(), request.adminActor);
    return reply.code(204).send();
  });
  app.get('/groups/:group/members', { config: access.read }, async (request: GroupRequest) => ({
    group: request.params.group,
    members: await listGroupMembers(store, request.params.group),
  }));
  app.put('/groups/:group/members/:username', { config: access.write }, async (request: MemberRequest, reply) => {
    const { group, username } = request.params;
    await addGroupMember(audit, group, normalizeUsername(username), clock.now(), request.adminActor);
    return reply.code(204).send();
  });
  app.delete('/groups/:group/members/:username', { config: access.write }, async (request: MemberRequest, reply) => {
    const { group, username } = request.params;
    await removeGroupMember(audit, group, normalizeUsername(username), clock.now(), request.adminActor);
    return reply.code(204).send();
  });

  app.get<{ Querystring: Query }>('/roles', { config: access.read }, async (request) => {
    const limit = pageSize(request.query.limit);
    const after = cursorPosition(request.query.cursor, (text) => roleKeyOfCursor(text) !== undefined);
    const filter = {
      api: queryValue(request.query, 'api'),
      search: querySearch(request.query, 'a role name, description or API'),
      holder: holderOf(request.query),
    };
    const position = after === undefined ? undefined : roleKeyOfCursor(after);
    const roles = await listRolesPage(store, position, limit + 1, filter);
    return pageOf(roles, limit, (role) => roleCursorKey(roleKeyOf(role)), describeRole);
  });
  app.post('/roles', { config: access.writeJson }, async (request, reply) => {
    requireBody(request);
    const body = validBodyOrThrow(bodies.createRole(request.body)) as {
      name: string;
      api?: string;
      description?: string;
    };
    const role = await createRole(audit, body, clock.now(), request.adminActor);
    const api = body.api === undefined ? '' : `?api=${encodeURIComponent(body.api)}`;
    reply.code(201).header('location', `${request.url.split('?')[0]}/${encodeURIComponent(role.name)}${api}`);
    return describeRole(role);
  });
  app.get('/roles/:role', { config: access.read }, async (request: RoleRequest) =>
    describeRole(await existingRole(store, request.params.role, queryValue(request.query, 'api'))),
  );
  app.delete('/roles/:role', { config: access.write }, async (request: RoleRequest, reply) => {
    const api = queryValue(request.query, 'api');
    await removeRole(audit, request.params.role, api, clock.now(), request.adminActor);
    return reply.code(204).send();
  });
  app.get('/roles/:role/holders', { config: access.read }, async (request: RoleRequest) => {
    const api = queryValue(request.query, 'api');
    return {
      role: request.params.role,
      api: api ?? null,
      holders: await listRoleHolders(store, request.params.role, api),
    };
  });
  app.post('/roles/:role/assign', { config: access.writeJson }, async (request: RoleRequest, reply) => {
    const role = { name: request.params.role, api: queryValue(request.query, 'api') };
    await assignRole(audit, role, holderInBody(request), clock.now(), request.adminActor);
    return reply.code(204).send();
  });
  app.post('/roles/:role/unassign', { config: access.writeJson }, async (request: RoleRequest, reply) => {
    const role = { name: request.params.role, api: queryValue(request.query, 'api') };
    await unassignRole(audit, role, holderInBody(request), clock.now(), request.adminActor);
    return reply.code(204).send();
  });

  function holderInBody(request: RoleRequest): NamedPrincipal {
    requireBody(request);
    const body = validBodyOrThrow(bodies.roleHolder(request.body)) as {
      user?: string;
      group?: string;
      client?: string;
    };
    if (body.user !== undefined) return { user: normalizeUsername(body.user) };
    if (body.group !== undefined) return { group: body.group };
    return { client: body.client as string };
  }
}
