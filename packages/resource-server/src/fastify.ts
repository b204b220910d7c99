import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import { ProblemError } from '@gatehouse/contract';
import {
  createResourceServer,
  type ResourceServer,
  type ResourceServerOptions,
  type Verdict,
} from './resource-server.js';
import type { Requirement } from './requirements.js';
import type { ProblemResponse } from './problems.js';
import type { AccessTokenClaims } from './access-tokens.js';
import type { Operation } from './operations.js';

export interface GatehouseRequestState {
  readonly token: AccessTokenClaims | undefined;
  readonly operation: Operation | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    gatehouse?: GatehouseRequestState;
  }
}

/**
 * Fastify plugin: register it at the root (`await app.register(gatehouseFastify, options)`). It takes
 * over JSON body parsing (Fastify's default Ajv options coerce types and drop unknown fields; the kit
 * does neither), and before each handler answers the catalog problem or sets `request.body` to the
 * JSON as sent and `request.gatehouse` to `{ token, operation }`. Routes need no body schema.
 */
export const gatehouseFastify: FastifyPluginAsync<ResourceServerOptions> = async (
  app: FastifyInstance,
  options: ResourceServerOptions,
) => {
  const kit = createResourceServer(options);
  // Chosen once: without DPoP nonces an admitting verdict has no headers to look for.
  const admitted = kit.admitsWithHeaders ? admitWithHeaders : admit;
  const publicOrigin = options.publicOrigin?.replace(/\/+$/, '');
  // Declared up front, so that setting it does not give every request object a new shape.
  if (!app.hasRequestDecorator('gatehouse')) app.decorateRequest('gatehouse', undefined);
  // Every body is kept raw: the kit parses JSON itself and answers a catalog problem when it cannot.
  // application/json by name as well as the catch-all: Fastify caches the parser it finds by media
  // type, but looks the catch-all up anew (parsing the header) on every request.
  const keepRaw = (_request: FastifyRequest, body: Buffer | string, done: (e: null, b: unknown) => void) =>
    done(null, body);
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, keepRaw);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, keepRaw);
  // Fastify refuses a body over its bodyLimit with its own error body; a declared length over it
  // gets the catalog's 413 instead, before the body is read. Callback-style and synchronous: an async
  // hook costs every request a promise and a microtask more. A length under every route's limit (the
  // smallest seen by onRoute; routes are added after the plugin, or its hooks would not reach them)
  // is let through at once, without building request.routeOptions.
  let smallestLimit = app.initialConfig.bodyLimit ?? 1024 * 1024;
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined) smallestLimit = Math.min(smallestLimit, route.bodyLimit);
  });
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const length = request.headers['content-length'];
    if (length === undefined || Number(length) <= smallestLimit) return done();
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
    if (Number(length) <= limit) return done();
    const detail = `The request body is larger than ${limit} bytes.`;
    send(reply, kit.problem(new ProblemError('payload_too_large', detail), pathOf(request)));
  });
  // Callback-style too: the usual request (a token verified before, no introspection) is checked
  // without a promise; only a first sight of a token or an introspection waits.
  app.addHook('preHandler', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const verdict = kit.checkNow({
      method: request.method,
      path: pathOf(request),
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      headers: request.headers,
      // RFC 9449 §4.3: the URL as the client addressed it (`publicOrigin` behind a proxy).
      url: `${publicOrigin ?? `${request.protocol}://${request.host}`}${request.url}`,
      body: request.body as Uint8Array | undefined,
    });
    kits.set(request, kit);
    if (verdict instanceof Promise) verdict.then((v) => admitted(request, reply, v, done), done);
    else admitted(request, reply, verdict, done);
  });
};

/** `admit`, with the verdict's headers (a new DPoP-Nonce) set on the route's reply. */
function admitWithHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  verdict: Verdict,
  done: HookHandlerDoneFunction,
): void {
  if (verdict.ok && verdict.headers !== undefined) reply.headers(verdict.headers);
  admit(request, reply, verdict, done);
}

/** The kit that checked a request, for the requirements of its route. */
const kits = new WeakMap<FastifyRequest, ResourceServer>();

/**
 * A route's preHandler, after the plugin's: the token's user must hold one of `roles` (RFC 9068
 * §2.2.3.1 `roles`, for this API's audience), else 403 insufficient_role (401 without a token).
 * `app.get('/invoices', { preHandler: requireRole('billing-admin') }, handler)`.
 */
export function requireRole(...roles: readonly string[]) {
  return requirement({ roles });
}

/** A route's preHandler, after the plugin's: the token has one of `scopes`, else 403 insufficient_scope. */
export function requireScope(...scopes: readonly string[]) {
  return requirement({ scopes });
}

function requirement(required: Requirement) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const kit = kits.get(request);
    if (kit === undefined) return done(new Error('requireRole and requireScope need the gatehouse plugin registered'));
    const refused = kit.refusal(request.gatehouse?.token, required, pathOf(request));
    if (refused === undefined) return done();
    send(reply, refused);
  };
}

function admit(request: FastifyRequest, reply: FastifyReply, verdict: Verdict, done: HookHandlerDoneFunction): void {
  if (verdict.ok) {
    request.body = verdict.body;
    request.gatehouse = { token: verdict.token, operation: verdict.operation };
    return done();
  }
  try {
    send(reply, verdict.response);
  } catch (error) {
    // A fault in answering (a header Node refuses, say) becomes Fastify's error reply.
    done(error as Error);
  }
}

function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}

/**
 * A string, written with the headers in one go (a Buffer takes a second chunk); the serializer that
 * returns it as is keeps Fastify from appending `; charset=utf-8` to the problem's media type.
 */
function send(reply: FastifyReply, problem: ProblemResponse): FastifyReply {
  return reply.code(problem.status).headers(problem.headers).serializer(asIs).send(JSON.stringify(problem.body));
}

function asIs(payload: string): string {
  return payload;
}

// What fastify-plugin does: the hooks and parsers apply to the routes of the app that registers it.
Object.assign(gatehouseFastify, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'gatehouse',
});
