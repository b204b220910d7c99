import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inviteUser, listInvitations, revokeInvitation } from '../accounts/index.js';
import type { ServerContext } from '../context.js';
import { validBodyOrThrow } from '../json-api/body-problems.js';
import { requireBody } from '../json-api/serve-json-api.js';
import type { AdminAccess } from './caller.js';
import type { AdminDefinition } from './definition.js';

/** /invitations: send, list, revoke (accounts/invitation.ts), as `gatehouse users invite` does. */
export function invitationRoutes(
  app: FastifyInstance,
  context: ServerContext,
  { bodies }: AdminDefinition,
  access: AdminAccess,
): void {
  const { store, audit, clock } = context;
  app.get('/invitations', { config: access.read }, async () => ({
    items: await listInvitations(store, clock.now()),
  }));
  app.post('/invitations', { config: access.writeJson }, async (request, reply) => {
    requireBody(request);
    const body = validBodyOrThrow(bodies.createInvitation(request.body)) as {
      email: string;
      groups?: string[];
      organization?: string;
      org_roles?: string[];
      ttl_seconds?: number;
      locale?: string;
    };
    const invitation = await inviteUser(context, {
      email: body.email,
      groups: body.groups ?? [],
      organization: body.organization,
      orgRoles: body.org_roles ?? [],
      ttl: body.ttl_seconds,
      locale: body.locale,
      actor: request.adminActor,
      now: clock.now(),
    });
    return reply.code(201).send(invitation);
  });
  app.delete(
    '/invitations/:invitation',
    { config: access.write },
    async (request: FastifyRequest<{ Params: { invitation: string } }>, reply) => {
      await revokeInvitation(audit, request.params.invitation, clock.now(), request.adminActor);
      return reply.code(204).send();
    },
  );
}
