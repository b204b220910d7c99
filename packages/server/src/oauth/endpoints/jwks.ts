import { oauthEndpoint } from './endpoint.js';

/** GET /jwks: the public keys that verify access tokens (RFC 7517 §5), named by RFC 8414's `jwks_uri`. */
export const jwksEndpoint = oauthEndpoint({
  name: 'jwks',
  method: 'GET',
  path: '/jwks',
  metadataKey: 'jwks_uri',
  clientAuthentication: 'none',
  rateLimits: null,
  async handle({ reply }, { keys }) {
    return reply.header('cache-control', 'public, max-age=300').type('application/jwk-set+json').send(keys.jwks);
  },
});
