import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addressKey } from '../abuse/rate-limiter.js';
import { FormParams, formParamsOf } from '../http/form.js';
import { OAuthRateLimited, oauthErrorHandler } from '../http/oauth-errors.js';
import { traceRoutes } from '../telemetry/tracing.js';
import { callerAuthentication, callerAuthenticationAtOnce } from './endpoints/authenticate-caller.js';
import type { ClientAuthentication, EndpointCall, OAuthEndpoint } from './endpoints/endpoint.js';
import { OAUTH_ENDPOINTS } from './endpoints/index.js';
import type { OAuthServices } from './services.js';
import { OAuthError } from '@gatehouse/contract';

/** Form bodies of the OAuth endpoints are small; anything larger is refused before parsing. */
const OAUTH_BODY_LIMIT = 16 * 1024;

/**
 * The authorization server's endpoints, from the endpoint table, in their own encapsulated context:
 * they read only `application/x-www-form-urlencoded` (RFC 6749 §3.2) and answer errors as RFC 6749
 * §5.2 bodies. Every client-authenticating endpoint goes through the same authentication step. The
 * endpoints that read JSON (client registration, RFC 7591 §3.1) have a context of their own.
 */
export async function oauthRoutes(app: FastifyInstance, { services }: { services: OAuthServices }): Promise<void> {
  // A server span per request when tracing is on; nothing when off.
  traceRoutes(app);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: OAUTH_BODY_LIMIT },
    (_request, body, done) => {
      done(null, FormParams.parse(body as string));
    },
  );
  app.setErrorHandler(oauthErrorHandler(services.issuer));
  const served = OAUTH_ENDPOINTS.filter((e) => e.servedWhen?.(services) ?? true);
  for (const endpoint of served) if (endpoint.body !== 'json') registerEndpoint(app, services, endpoint);
  await app.register(async (json) => {
    json.removeAllContentTypeParsers();
    json.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: OAUTH_BODY_LIMIT },
      (_r, body, done) => {
        try {
          // An empty body (a DELETE that still names its type) is no body.
          done(null, body === '' ? undefined : JSON.parse(body as string));
        } catch {
          done(new OAuthError('client_metadata_not_object'), undefined);
        }
      },
    );
    json.setErrorHandler(oauthErrorHandler(services.issuer, 'oauth_json'));
    for (const endpoint of served) if (endpoint.body === 'json') registerEndpoint(json, services, endpoint);
  });
}

function registerEndpoint(app: FastifyInstance, services: OAuthServices, endpoint: OAuthEndpoint): void {
  if (endpoint.handle === undefined) return;
  const authenticate = endpoint.clientAuthentication === 'none' ? null : callerAuthentication(endpoint);
  // Where no client authenticates, the endpoint's own limit counts every request of an address.
  const addressLimit =
    endpoint.clientAuthentication === 'none' && endpoint.rateLimits ? `${endpoint.name}_address` : null;
  const handler = async (
    request: FastifyRequest,
    reply: FastifyReply,
    // The form and its precheck, when the answer at once read them already.
    read?: { readonly params: FormParams; readonly checked: unknown },
  ): Promise<FastifyReply> => {
    if (addressLimit !== null) {
      const wait = await services.rateLimits.consume([[addressLimit, addressKey(request.ip)]]);
      if (wait > 0) throw new OAuthRateLimited(wait);
    }
    const params = read?.params ?? (request.method === 'POST' ? formParamsOf(request.body) : FormParams.empty());
    const checked = read === undefined ? endpoint.precheck?.(params) : read.checked;
    const client = authenticate === null ? null : await authenticate(services, request, params);
    const call: EndpointCall<ClientAuthentication> = { request, reply, params, client, checked };
    return endpoint.handle!(call, services);
  };
  // On a store that reads at once (SQLite), a client-authenticating endpoint authenticates its caller
  // without an await, then answers at once where it can (`handleAtOnce`); any step that must wait
  // hands the request to the handler above, before anything was charged or written.
  const authenticateAtOnce =
    authenticate === null || services.store.readsAtOnce === undefined ? null : callerAuthenticationAtOnce(endpoint);
  const handleAtOnce = endpoint.handleAtOnce?.bind(endpoint);
  app.route({
    method: endpoint.bearer ? ['GET', 'POST'] : [endpoint.method].flat(),
    url: endpoint.path,
    handler:
      authenticateAtOnce === null
        ? handler
        : (request, reply) => {
            const params = request.method === 'POST' ? formParamsOf(request.body) : FormParams.empty();
            const checked = endpoint.precheck?.(params);
            const client = authenticateAtOnce(services, request, params);
            if (client === null) return handler(request, reply, { params, checked });
            const call: EndpointCall<ClientAuthentication> = { request, reply, params, client, checked };
            if (handleAtOnce === undefined || handleAtOnce(call, services) === null)
              return endpoint.handle!(call, services);
            // Sent: Fastify sends a reply a synchronous handler returns once more, so return nothing.
            return undefined;
          },
  });
}
