import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  addGroupMember,
  assignRole,
  createGroup,
  createRole,
  describeGroup,
  describeRole,
  listGroupMembers,
  listGroups,
  listRoleHolders,
  listRoles,
  removeGroup,
  removeGroupMember,
  removeRole,
  unassignRole,
  type NamedPrincipal,
} from '../access/index.js';
import type { ServerContext } from '../context.js';
import { validBodyOrThrow } from '../json-api/body-problems.js';
import { requireBody } from '../json-api/serve-json-api.js';
import { normalizeUsername } from '../users/users.js';
import type { AdminAccess } from './caller.js';
import type { AdminDefinition } from './definition.js';
import { queryValue, type Query } from './query.js';

type GroupRequest = FastifyRequest<{ Params: { group: string } }>;
type MemberRequest = FastifyRequest<{ Params: { group: string; username: string } }>;
type RoleRequest = FastifyRequest<{ Params: { role: string }; Querystring: Query }>;

/**
 * /groups and /roles: the same functions as `gatehouse groups` and `gatehouse roles` (access/),
 * audited with the caller as actor. A role is named by its name and, for an API's role, the query
 * parameter `api`; without it, the server-wide role of that name.
 */
export function accessRoutes(
  app: FastifyInstance,
  { store, audit, clock }: ServerContext,
  { bodies }: AdminDefinition,
  access: AdminAccess,
): void {
  app.get('/groups', { config: access.read }, async () => ({ items: await listGroups(store) }));
  app.post('/groups', { config: access.writeJson }, async (request, reply) => {
    requireBody(request);
    const { name, parent } = validBodyOrThrow(bodies.createGroup(request.body)) as { name: string; parent?: string };
    const group = await createGroup(audit, name, parent, clock.now(), request.adminActor);
    reply.code(201).header('location', `${request.url.split('?')[0]}/${encodeURIComponent(group.name)}`);
    return describeGroup(group, parent ?? null);
  });
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

  app.get<{ Querystring: Query }>('/roles', { config: access.read }, async (request) => ({
    items: await listRoles(store, queryValue(request.query, 'api')),
  }));
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
    await assignRole(audit, role, holderOf(request), clock.now(), request.adminActor);
    return reply.code(204).send();
  });
  app.post('/roles/:role/unassign', { config: access.writeJson }, async (request: RoleRequest, reply) => {
    const role = { name: request.params.role, api: queryValue(request.query, 'api') };
    await unassignRole(audit, role, holderOf(request), clock.now(), request.adminActor);
    return reply.code(204).send();
  });

  function holderOf(request: RoleRequest): NamedPrincipal {
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
