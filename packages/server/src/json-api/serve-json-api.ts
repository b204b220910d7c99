import { ProblemError, type ChallengeParameters, type RequiredScopes } from '@gatehouse/contract';
import type {
  FastifyContextConfig,
  FastifyError,
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
} from 'fastify';
import type { ServerContext } from '../context.js';
import { problemErrorHandler } from '../http/problems.js';
import type { AccessTokenClaims } from '../oauth/tokens/index.js';
import { bearerCheck, requiredScopes, type BearerCheck, type RequiredScope } from './bearer.js';
import { parseJsonBody } from './json-body.js';

/** JSON bodies of the JSON APIs; anything larger is refused with 413 before parsing. */
const API_BODY_LIMIT = 64 * 1024;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The bearer scope a route needs (or scopes of which one suffices); routes without one are public. */
    scope?: RequiredScope;
    /** The only media type the route's body may have. */
    mediaType?: string;
    /**
     * A check of the authenticated caller beyond its scope, run before the body is read (the admin
     * API's: an admin client's token; the REST API's: whose records the caller reaches).
     */
    authorize?: (claims: AccessTokenClaims, request: FastifyRequest) => void | Promise<void>;
  }
}

/**
 * What the server's JSON APIs share, the REST API (/v2) and the admin API (/admin/v1), set up in
 * the plugin of each: the JSON body parser (UTF-8, depth, size), the problem+json error handler
 * with the RFC 6750 challenge (`challenge` names its realm and resource metadata), and per route,
 * from its config, the checks made before the body is read: the bearer token and its scope, then
 * the content type.
 */
export function serveJsonApi(app: FastifyInstance, context: ServerContext, challenge: ChallengeParameters): void {
  const bearer = bearerCheck(context, challenge);
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
  // The problem renderer adds a BearerChallenge's WWW-Authenticate (http/problems.ts).
  app.setErrorHandler(problemErrorHandler);
  // Each route that needs a scope or a media type gets its own onRequest hook, made once from its
  // config, so no request pays for a hook (or for reading its route's options) it does not need.
  app.addHook('onRoute', (route) => {
    const { scope, mediaType, authorize } = route.config ?? {};
    if (scope === undefined && mediaType === undefined) return;
    const hooks =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    const required = scope === undefined ? undefined : requiredScopes(scope);
    route.onRequest = [...hooks, requestChecks(bearer, required, mediaType, authorize)];
  });
}

/**
 * What is checked before the body is read, in this order: the bearer token and its scope (and the
 * route's own check of the caller), then the content type (so a wrong type is a 415 whatever the
 * body). Callback-style, so that a request waits only for what is asynchronous: the store.
 */
function requestChecks(
  bearer: BearerCheck,
  scope: RequiredScopes | undefined,
  mediaType: string | undefined,
  authorize: FastifyContextConfig['authorize'],
): onRequestHookHandler {
  return function checkRequest(request, _reply, done) {
    let checked: unknown;
    try {
      const claims = scope === undefined ? undefined : bearer(request, scope);
      // The route's own check runs at once on claims known at once (the REST API's, on every request).
      if (authorize === undefined || claims === undefined) checked = claims;
      else if (claims instanceof Promise) checked = claims.then((verified) => authorize(verified, request));
      else checked = authorize(claims, request);
    } catch (error) {
      done(error as FastifyError);
      return;
    }
    if (checked instanceof Promise) checked.then(() => done(mediaTypeProblem(request, mediaType)), done);
    else done(mediaTypeProblem(request, mediaType));
  };
}

/** A request without a body is malformed JSON: there is nothing to read. */
export function requireBody(request: FastifyRequest): void {
  if (request.body === undefined)
    throw new ProblemError('malformed_json', 'The request body is empty; send a JSON object.');
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
