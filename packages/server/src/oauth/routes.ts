import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { FormParams } from '../http/form.js';
import { oauthErrorHandler } from '../http/oauth-errors.js';
import { discoveryEndpoints } from './endpoints/discovery.js';
import { introspectEndpoint } from './endpoints/introspect.js';
import { revokeEndpoint } from './endpoints/revoke.js';
import { tokenEndpoint } from './endpoints/token.js';

/** Form bodies of the OAuth endpoints are small; anything larger is refused before parsing. */
export const OAUTH_BODY_LIMIT = 16 * 1024;

/**
 * The authorization server's endpoints, in their own encapsulated context: they read only
 * `application/x-www-form-urlencoded` (RFC 6749 §3.2) and answer errors as RFC 6749 §5.2 bodies.
 */
export async function oauthRoutes(app: FastifyInstance, { context }: { context: ServerContext }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: OAUTH_BODY_LIMIT },
    (_request, body, done) => {
      done(null, FormParams.parse(body as string));
    },
  );
  app.setErrorHandler(oauthErrorHandler(context.issuer));
  tokenEndpoint(app, context);
  introspectEndpoint(app, context);
  revokeEndpoint(app, context);
  discoveryEndpoints(app, context);
}
