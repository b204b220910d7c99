import type { ChallengeParameters } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { serveJsonApi } from '../json-api/serve-json-api.js';
import type { Actor } from '../audit/audit.js';
import type { ServerContext } from '../context.js';
import { allowOnly } from '../http/method-not-allowed.js';
import { accessRoutes } from './access-routes.js';
import { auditRoutes } from './audit-routes.js';
import { adminAccess } from './caller.js';
import { clientRoutes } from './client-routes.js';
import type { AdminDefinition } from './definition.js';
import { grantRoutes } from './grant-routes.js';
import { keyRoutes } from './key-routes.js';
import { recordRoutes } from './record-routes.js';
import { upstreamRoutes } from './upstream-routes.js';
import { organizationRoutes } from './organization-routes.js';
import { overviewRoutes } from './overview-routes.js';
import { userRoutes } from './user-routes.js';
import { invitationRoutes } from './invitation-routes.js';

/**
 * The admin API under /admin/v1 (docs/operating.md, "Admin API"): its OpenAPI document, then the operations it
 * declares, served with the JSON API machinery it shares with the REST API (json-api/): bearer
 * token and scope, then content type, then the JSON, and the body validated by the contract's
 * validator. Every change is made by the same domain function the CLI calls, and audited with the
 * admin client as actor.
 */
export async function adminRoutes(
  app: FastifyInstance,
  {
    context,
    admin,
    challenge,
    collections = [],
  }: {
    context: ServerContext;
    admin: AdminDefinition;
    challenge: ChallengeParameters;
    /** The REST API's collections, whose records it reads. */
    collections?: readonly string[];
  },
): Promise<void> {
  serveJsonApi(app, context, challenge);
  // Set by the onRequest check (caller.ts) before any admin handler runs; null only until then.
  app.decorateRequest('adminActor', null as unknown as Actor);
  app.get('/openapi.json', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=60').type('application/json; charset=utf-8').send(admin.served),
  );
  allowOnly(app, '/openapi.json', ['GET']);
  const access = adminAccess(context);
  clientRoutes(app, context, admin, access);
  userRoutes(app, context, admin, access);
  invitationRoutes(app, context, admin, access);
  upstreamRoutes(app, context, admin, access);
  organizationRoutes(app, context, admin, access);
  grantRoutes(app, context, access);
  keyRoutes(app, context, access);
  auditRoutes(app, context, access);
  overviewRoutes(app, context, access);
  accessRoutes(app, context, admin, access);
  recordRoutes(app, context, new Set(collections), access);
  // Any other method on a declared path is 405 with Allow (RFC 9110 §15.5.6), as the document says.
  for (const [path, item] of Object.entries(admin.document.paths)) {
    const methods = Object.keys(item).filter((key) => key !== 'parameters');
    allowOnly(
      app,
      path.replace(/\{([^}]+)\}/g, ':$1'),
      methods.map((m) => m.toUpperCase()),
    );
  }
}
