import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import { ProblemError } from '@gatehouse/contract';
import { createResourceServer, type ResourceServerOptions } from './resource-server.js';
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
  app.removeContentTypeParser(['application/json']);
  // Every body is kept raw: the kit parses JSON itself and answers a catalog problem when it cannot.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // Fastify refuses a body over its bodyLimit with its own error body; a declared length over it
  // gets the catalog's 413 instead, before the body is read. Callback-style and synchronous: an async
  // hook costs every request a promise and a microtask more, and most requests (every GET, every
  // body under the limit) need nothing from this one.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const length = request.headers['content-length'];
    if (length === undefined) return done();
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
    if (Number(length) <= limit) return done();
    const detail = `The request body is larger than ${limit} bytes.`;
    send(reply, kit.problem(new ProblemError('payload_too_large', detail), pathOf(request)));
  });
  // Async, unlike the hook above: a fault in answering (a header Node refuses, say) then becomes
  // Fastify's error reply rather than an unhandled rejection.
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const verdict = await kit.check({
      method: request.method,
      path: pathOf(request),
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body: request.body as Uint8Array | undefined,
    });
    if (!verdict.ok) return send(reply, verdict.response);
    request.body = verdict.body;
    request.gatehouse = { token: verdict.token, operation: verdict.operation };
  });
};

function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}

/** A Buffer, so that Fastify adds no `; charset=utf-8` to the problem's media type. */
function send(reply: FastifyReply, problem: ProblemResponse): FastifyReply {
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .send(Buffer.from(JSON.stringify(problem.body)));
}

// What fastify-plugin does: the hooks and parsers apply to the routes of the app that registers it.
Object.assign(gatehouseFastify, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'gatehouse',
});
