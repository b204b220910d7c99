import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { apiRoutes } from './api/routes.js';
import type { ApiDefinition } from './api/definition.js';
import type { ServerContext } from './context.js';
import { problemPages } from './http/problem-pages.js';
import { notFoundHandler, problemErrorHandler } from './http/problems.js';
import { oauthRoutes } from './oauth/routes.js';

export interface AppOptions {
  readonly logger?: FastifyServerOptions['logger'];
  /** The REST API to serve under /v2; none when undefined. */
  readonly api?: ApiDefinition;
}

/** Builds the HTTP application over a context; listening is the caller's business. */
export async function buildApp(context: ServerContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // Time limits against slow clients: a request must arrive whole within 30 s.
    requestTimeout: 30_000,
    return503OnClosing: true,
  });
  app.setNotFoundHandler(notFoundHandler);
  app.setErrorHandler(problemErrorHandler);
  problemPages(app);
  await app.register(oauthRoutes, { context });
  if (options.api) await app.register(apiRoutes, { prefix: '/v2', context, api: options.api });
  return app;
}
