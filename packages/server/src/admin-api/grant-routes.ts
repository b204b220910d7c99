import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cursorPosition, pageOf, pageSize } from '../json-api/paging.js';
import type { ServerContext } from '../context.js';
import { describeGrant, revokeGrantAsAdmin } from '../oauth/grant-administration/index.js';
import type { GrantOwner } from '../store/admin-repository.js';
import { normalizeUsername } from '../users/users.js';
import type { AdminAccess } from './caller.js';
import { queryValue, type Query } from './query.js';

/**
 * /grants: the grants of a user or of a client, and their revocation
 * (oauth/grant-administration/grant-administration.ts).
 */
export function grantRoutes(app: FastifyInstance, { store, audit, clock }: ServerContext, access: AdminAccess): void {
  app.get<{ Querystring: Query }>('/grants', { config: access.read }, async (request) => {
    const owner = await ownerOf(store, request.query);
    const limit = pageSize(request.query.limit);
    const after = cursorPosition(request.query.cursor, (id) => id !== '');
    const grants = owner === undefined ? [] : await store.listGrantsPage(owner, after, limit + 1);
    return pageOf(grants, limit, (g) => g.id, describeGrant);
  });
  app.post(
    '/grants/:grant_id/revoke',
    { config: access.write },
    async (request: FastifyRequest<{ Params: { grant_id: string } }>) => {
      const id = request.params.grant_id;
      const grant = await revokeGrantAsAdmin(audit, id, clock.now(), request.adminActor);
      if (!grant) throw new ProblemError('not_found', `There is no grant '${id}'.`);
      return { grant_id: id, revoked: true, already_revoked: grant.revokedAt !== null };
    },
  );
}

/** Whose grants to list: a client's, or a user's by its subject; undefined for a username no user has. */
async function ownerOf(store: ServerContext['store'], query: Query): Promise<GrantOwner | undefined> {
  const user = queryValue(query, 'user');
  const clientId = queryValue(query, 'client_id');
  if ((user === undefined) === (clientId === undefined))
    throw new ProblemError('invalid_parameter', 'Give exactly one of user and client_id: whose grants to list.');
  if (user === undefined) return { clientId: clientId as string };
  const found = await store.findUser(normalizeUsername(user));
  return found && { subject: found.subject };
}
