import { oauthEndpoint } from './endpoint.js';

/**
 * GET /jwks: the public keys that verify access tokens (RFC 7517 §5), named by RFC 8414's `jwks_uri`,
 * as the store holds them now (a rotated-in key appears here before it signs).
 */
export const jwksEndpoint = oauthEndpoint({
  name: 'jwks',
  method: 'GET',
  path: '/jwks',
  metadataKey: 'jwks_uri',
  clientAuthentication: 'none',
  rateLimits: null,
  async handle({ reply }, { keys }) {
    return reply
      .header('cache-control', 'public, max-age=300')
      .type('application/jwk-set+json')
      .send(await keys.publishedJwks());
  },
});
