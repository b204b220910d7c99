import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createResourceServer, type ResourceServerOptions } from './resource-server.js';
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
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const verdict = await kit.check({
      method: request.method,
      path: request.url.split('?', 1)[0] ?? '/',
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body: request.body as Uint8Array | undefined,
    });
    if (!verdict.ok) {
      return reply
        .code(verdict.response.status)
        .headers(verdict.response.headers)
        .send(Buffer.from(JSON.stringify(verdict.response.body)));
    }
    request.body = verdict.body;
    request.gatehouse = { token: verdict.token, operation: verdict.operation };
  });
};
// What fastify-plugin does: the hooks and parsers apply to the routes of the app that registers it.
Object.assign(gatehouseFastify, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'gatehouse',
});
