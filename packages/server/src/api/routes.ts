import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { allowOnly } from '../http/method-not-allowed.js';
import type { ApiDefinition } from './definition.js';
import { collectionRoutes } from './collection-routes.js';
import type { RecordAccess } from './ownership.js';
import { serveJsonApi } from '../json-api/serve-json-api.js';
import { resourceMetadataUrl } from './resource-metadata.js';
import { servedDocumentText } from './served-document.js';
import { traceRoutes } from '../telemetry/tracing.js';

/**
 * REST API v2 under /v2: the OpenAPI document, then the operations it declares for each collection. The
 * bearer token is checked first, then the content type (both onRequest, before the body is read),
 * then the JSON, the size, and last the body against the schema (json-api/serve-json-api.ts).
 */
export async function apiRoutes(
  app: FastifyInstance,
  { context, api }: { context: ServerContext; api: ApiDefinition },
): Promise<void> {
  // A server span per REST operation when tracing is on; nothing when off.
  traceRoutes(app);
  serveJsonApi(app, context, { realm: 'gatehouse', resourceMetadata: resourceMetadataUrl(context.issuer) });
  // Serialised once: what the server adds for where it runs (servers, security) is known at startup.
  const served = servedDocumentText(api.document, api.declarations, context.issuer);
  app.get('/openapi.json', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=60').type('application/json; charset=utf-8').send(served),
  );
  allowOnly(app, '/openapi.json', ['GET']);
  // Set by each route's onRequest check (collection-routes.ts) before its handler runs.
  app.decorateRequest('recordAccess', null as unknown as RecordAccess);
  for (const declaration of api.declarations) {
    const validate = api.collections.get(declaration.name);
    const policy = api.policies.get(declaration.name);
    const roles = api.roles.get(declaration.name);
    if (validate !== undefined && policy !== undefined && roles !== undefined)
      collectionRoutes(app, context, { ...declaration, validate, policy, roles });
  }
}
