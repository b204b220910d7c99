import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { validBodyOrThrow } from '../json-api/body-problems.js';
import { cursorPosition, pageOf, pageSize } from '../json-api/paging.js';
import { requireBody } from '../json-api/serve-json-api.js';
import {
  addDomain,
  changeOrganization,
  createOrganization,
  describeDomain,
  describeMember,
  describeOrganization,
  existingOrganization,
  listMembers,
  putMember,
  removeDomain,
  removeMember,
  removeOrganization,
  type PolicyChange,
} from '../organizations/index.js';
import type { AdminAccess } from './caller.js';
import type { AdminDefinition } from './definition.js';
import { querySearch, type Query } from './query.js';

type OrganizationRequest = FastifyRequest<{ Params: { organization: string } }>;
type MemberRequest = FastifyRequest<{ Params: { organization: string; username: string } }>;
type DomainRequest = FastifyRequest<{ Params: { organization: string; domain: string } }>;

/**
 * /organizations: organizations, their members and e-mail domains (docs/organizations.md), through
 * the same functions as `gatehouse orgs` (organizations/administration.ts).
 */
export function organizationRoutes(
  app: FastifyInstance,
  { store, audit, clock }: ServerContext,
  { bodies }: AdminDefinition,
  access: AdminAccess,
): void {
  const withDomains = async (idOrSlug: string) => {
    const row = await existingOrganization(store, idOrSlug);
    return { ...describeOrganization(row), domains: (await store.listOrganizationDomains(row.id)).map(describeDomain) };
  };
  app.get<{ Querystring: Query }>('/organizations', { config: access.read }, async (request) => {
    const limit = pageSize(request.query.limit);
    const after = cursorPosition(request.query.cursor, (slug) => slug !== '');
    const search = querySearch(request.query, 'a slug or name');
    const rows = await store.listOrganizationsPage(after, limit + 1, search);
    return pageOf(rows, limit, (row) => row.slug, describeOrganization);
  });
  app.post('/organizations', { config: access.writeJson }, async (request, reply) => {
    requireBody(request);
    const body = validBodyOrThrow(bodies.createOrganization(request.body)) as {
      slug: string;
      name?: string;
      roles?: string[];
    };
    const row = await createOrganization(audit, body, clock.now(), request.adminActor);
    reply.code(201).header('location', `${request.url.split('?')[0]}/${encodeURIComponent(row.slug)}`);
    return { ...describeOrganization(row), domains: [] };
  });
  app.get('/organizations/:organization', { config: access.read }, async (request: OrganizationRequest) =>
    withDomains(request.params.organization),
  );
  app.patch('/organizations/:organization', { config: access.writeJson }, async (request: OrganizationRequest) => {
    requireBody(request);
    const body = validBodyOrThrow(bodies.updateOrganization(request.body)) as {
      name?: string;
      add_roles?: string[];
      remove_roles?: string[];
      policy?: PolicyChange;
    };
    const change = { name: body.name, addRoles: body.add_roles, removeRoles: body.remove_roles, policy: body.policy };
    const row = await changeOrganization(audit, request.params.organization, change, clock.now(), request.adminActor);
    return withDomains(row.id);
  });
  app.delete('/organizations/:organization', { config: access.write }, async (request: OrganizationRequest, reply) => {
    await removeOrganization(audit, request.params.organization, clock.now(), request.adminActor);
    return reply.code(204).send();
  });
  app.get('/organizations/:organization/members', { config: access.read }, async (request: OrganizationRequest) => ({
    items: (await listMembers(store, request.params.organization)).map(({ member, username }) =>
      describeMember(member, username),
    ),
  }));
  app.put(
    '/organizations/:organization/members/:username',
    { config: access.writeJson },
    async (request: MemberRequest) => {
      requireBody(request);
      const body = validBodyOrThrow(bodies.putOrganizationMember(request.body)) as { roles?: string[] };
      const { organization, username } = request.params;
      const member = await putMember(audit, organization, username, body.roles ?? [], clock.now(), request.adminActor);
      return describeMember(member, (await store.findUserBySubject(member.subject))?.username ?? null);
    },
  );
  app.delete(
    '/organizations/:organization/members/:username',
    { config: access.write },
    async (request: MemberRequest, reply) => {
      const { organization, username } = request.params;
      await removeMember(audit, organization, username, clock.now(), request.adminActor);
      return reply.code(204).send();
    },
  );
  app.put(
    '/organizations/:organization/domains/:domain',
    { config: access.writeJson },
    async (request: DomainRequest) => {
      requireBody(request);
      const body = validBodyOrThrow(bodies.putOrganizationDomain(request.body)) as { verified?: boolean };
      const { organization, domain } = request.params;
      const row = await addDomain(audit, organization, domain, body.verified === true, clock.now(), request.adminActor);
      return describeDomain(row);
    },
  );
  app.delete(
    '/organizations/:organization/domains/:domain',
    { config: access.write },
    async (request: DomainRequest, reply) => {
      const { organization, domain } = request.params;
      await removeDomain(audit, organization, domain, clock.now(), request.adminActor);
      return reply.code(204).send();
    },
  );
}
