import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { GRANT_HANDLERS } from '../grants/index.js';

/**
 * GET /.well-known/oauth-authorization-server (RFC 8414 §3) and GET /jwks (RFC 7517 §5).
 * Authorization responses carry `iss` (RFC 9207 §3), which the metadata announces.
 */
export function discoveryEndpoints(app: FastifyInstance, { issuer, keys }: ServerContext): void {
  const metadata = {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    introspection_endpoint: `${issuer}/introspect`,
    revocation_endpoint: `${issuer}/revoke`,
    jwks_uri: `${issuer}/jwks`,
    grant_types_supported: [...GRANT_HANDLERS.keys()],
    response_types_supported: ['code'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
  };
  app.get('/.well-known/oauth-authorization-server', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send(metadata),
  );
  app.get('/jwks', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('application/jwk-set+json').send(keys.jwks),
  );
}
