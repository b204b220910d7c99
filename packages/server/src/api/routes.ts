import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { allowOnly } from '../http/method-not-allowed.js';
import { problemErrorHandler } from '../http/problems.js';
import { authenticateBearer, BearerChallenge } from './bearer.js';
import type { ApiDefinition } from './definition.js';
import { collectionRoutes } from './collection-routes.js';
import { parseJsonBody } from './json-body.js';

/** JSON bodies of the REST API; anything larger is refused with 413 before parsing. */
export const API_BODY_LIMIT = 64 * 1024;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The bearer scope a route needs; routes without one are public. */
    scope?: string;
    /** The only media type the route's body may have. */
    mediaType?: string;
  }
}

/**
 * REST API v2 under /v2: the OpenAPI document, then CRUD for every collection it declares. The
 * bearer token is checked first (onRequest, before the body is read), then the content type, the
 * JSON, the size, and last the body against the schema.
 */
export async function apiRoutes(app: FastifyInstance, { context, api }: { context: ServerContext; api: ApiDefinition }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', 'application/merge-patch+json'], { parseAs: 'buffer', bodyLimit: API_BODY_LIMIT }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof BearerChallenge) reply.header('www-authenticate', error.challenge);
    return problemErrorHandler(error, request, reply);
  });
  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    const scope = request.routeOptions.config.scope;
    if (scope !== undefined) await authenticateBearer(context, request.headers.authorization, scope);
  });
  // The content type is refused before the body is read, so a wrong type is a 415 whatever the body.
  app.addHook('preParsing', async (request: FastifyRequest) => {
    const expected = request.routeOptions.config.mediaType;
    const sent = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (expected !== undefined && sent !== undefined && sent !== expected) {
      throw new ProblemError('unsupported_media_type', `Send this request as Content-Type: ${expected}.`);
    }
  });

  app.get('/openapi.json', async (_request, reply) => reply.header('cache-control', 'public, max-age=60').send(api.document));
  allowOnly(app, '/openapi.json', ['GET']);
  for (const [name, validate] of api.collections) collectionRoutes(app, context, { name, validate });
}
