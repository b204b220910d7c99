import { oauthEndpoint } from './endpoint.js';

/**
 * GET and POST /authorize (RFC 6749 §3.1; OIDC Core §3.1.2.1: the server MUST support both, POST
 * with the parameters as a form), named here so the metadata and every other list of the surface
 * include it; it is served with the sign-in and consent pages (`authorize/`), since its errors are
 * pages and redirects (RFC 6749 §4.1.2.1), not RFC 6749 §5.2 bodies.
 */
export const authorizationEndpoint = oauthEndpoint({
  name: 'authorization',
  method: ['GET', 'POST'],
  path: '/authorize',
  metadataKey: 'authorization_endpoint',
  clientAuthentication: 'none',
  rateLimits: null,
});
