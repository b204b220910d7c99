import type { FastifyInstance } from 'fastify';
import { auditLogOf } from '../http/audit-log.js';
import { FormParams, formParamsOf } from '../http/form.js';
import { oauthErrorHandler } from '../http/oauth-errors.js';
import { callerAuthentication } from './endpoints/authenticate-caller.js';
import type { ClientAuthentication, EndpointCall, OAuthEndpoint } from './endpoints/endpoint.js';
import { OAUTH_ENDPOINTS } from './endpoints/index.js';
import type { OAuthServices } from './services.js';

/** Form bodies of the OAuth endpoints are small; anything larger is refused before parsing. */
const OAUTH_BODY_LIMIT = 16 * 1024;

/**
 * The authorization server's endpoints, from the endpoint table, in their own encapsulated context:
 * they read only `application/x-www-form-urlencoded` (RFC 6749 §3.2) and answer errors as RFC 6749
 * §5.2 bodies. Every client-authenticating endpoint goes through the same authentication step.
 */
export async function oauthRoutes(app: FastifyInstance, { services }: { services: OAuthServices }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: OAUTH_BODY_LIMIT },
    (_request, body, done) => {
      done(null, FormParams.parse(body as string));
    },
  );
  app.setErrorHandler(oauthErrorHandler(services.issuer));
  for (const endpoint of OAUTH_ENDPOINTS) registerEndpoint(app, services, endpoint);
  await Promise.resolve();
}

function registerEndpoint(app: FastifyInstance, services: OAuthServices, endpoint: OAuthEndpoint): void {
  if (endpoint.handle === undefined) return;
  const authenticate = endpoint.clientAuthentication === 'none' ? null : callerAuthentication(endpoint);
  app.route({
    method: endpoint.bearer ? ['GET', 'POST'] : endpoint.method,
    url: endpoint.path,
    handler: async (request, reply) => {
      const params = request.method === 'POST' ? formParamsOf(request.body) : FormParams.empty();
      const audit = auditLogOf(request);
      endpoint.precheck?.(params);
      const client = authenticate === null ? null : await authenticate(services, request, params, audit);
      const call: EndpointCall<ClientAuthentication> = { request, reply, params, client, audit };
      return endpoint.handle!(call, services);
    },
  });
}
