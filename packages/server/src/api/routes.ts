import { ProblemError } from '@gatehouse/contract';
import type { FastifyError, FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { ServerContext } from '../context.js';
import { allowOnly } from '../http/method-not-allowed.js';
import { problemErrorHandler } from '../http/problems.js';
import { BearerChallenge, checkBearer } from './bearer.js';
import type { ApiDefinition } from './definition.js';
import { collectionRoutes } from './collection-routes.js';
import { parseJsonBody } from './json-body.js';
import { servedDocumentText } from './served-document.js';

/** JSON bodies of the REST API; anything larger is refused with 413 before parsing. */
const API_BODY_LIMIT = 64 * 1024;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The bearer scope a route needs; routes without one are public. */
    scope?: string;
    /** The only media type the route's body may have. */
    mediaType?: string;
  }
}

/**
 * REST API v2 under /v2: the OpenAPI document, then the operations it declares for each collection. The
 * bearer token is checked first, then the content type (both onRequest, before the body is read),
 * then the JSON, the size, and last the body against the schema.
 */
export async function apiRoutes(
  app: FastifyInstance,
  { context, api }: { context: ServerContext; api: ApiDefinition },
): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', 'application/merge-patch+json'],
    { parseAs: 'buffer', bodyLimit: API_BODY_LIMIT },
    (_request, body, done) => {
      try {
        done(null, parseJsonBody(body as Buffer));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof BearerChallenge) reply.header('www-authenticate', error.challenge);
    // The reply is sent before this returns; returning it would only make Fastify wait on it.
    problemErrorHandler(error, request, reply);
  });
  // Each route that needs a scope or a media type gets its own onRequest hook, made once from its
  // config, so no request pays for a hook (or for reading its route's options) it does not need.
  app.addHook('onRoute', (route) => {
    const { scope, mediaType } = route.config ?? {};
    if (scope === undefined && mediaType === undefined) return;
    const hooks =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...hooks, requestChecks(context, scope, mediaType)];
  });

  // Serialised once: what the server adds for where it runs (servers, security) is known at startup.
  const served = servedDocumentText(api.document, api.declarations, context.issuer);
  app.get('/openapi.json', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=60').type('application/json; charset=utf-8').send(served),
  );
  allowOnly(app, '/openapi.json', ['GET']);
  for (const declaration of api.declarations) {
    const validate = api.collections.get(declaration.name);
    if (validate !== undefined) collectionRoutes(app, context, { ...declaration, validate });
  }
}

/**
 * What is checked before the body is read, in this order: the bearer token and its scope, then
 * the content type (so a wrong type is a 415 whatever the body). Callback-style, so that a request
 * waits only for what is asynchronous: the grant lookup in the store.
 */
function requestChecks(
  context: ServerContext,
  scope: string | undefined,
  mediaType: string | undefined,
): onRequestHookHandler {
  return function checkRequest(request, _reply, done) {
    let authenticated: unknown;
    try {
      authenticated = scope === undefined ? undefined : checkBearer(context, request.headers.authorization, scope);
    } catch (error) {
      done(error as FastifyError);
      return;
    }
    if (authenticated instanceof Promise) authenticated.then(() => done(mediaTypeProblem(request, mediaType)), done);
    else done(mediaTypeProblem(request, mediaType));
  };
}

/** 415 when the request's Content-Type, without its parameters, is not the route's media type. */
function mediaTypeProblem(request: FastifyRequest, expected: string | undefined): ProblemError | undefined {
  const header = request.headers['content-type'];
  if (expected === undefined || header === undefined || header === expected) return undefined;
  const semicolon = header.indexOf(';');
  const sent = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  if (sent === expected) return undefined;
  return new ProblemError('unsupported_media_type', `Send this request as Content-Type: ${expected}.`);
}
