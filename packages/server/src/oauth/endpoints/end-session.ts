import { oauthEndpoint } from './endpoint.js';

/**
 * GET /end-session: RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 §2). A browser
 * endpoint, served with the sign-in pages (`authorize/logout.ts`), which answer in HTML and redirects.
 */
export const endSessionEndpoint = oauthEndpoint({
  name: 'end_session',
  method: 'GET',
  path: '/end-session',
  metadataKey: 'end_session_endpoint',
  clientAuthentication: 'none',
  rateLimits: null,
});
