import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { FormParams } from '../http/form.js';
import { allowOnly } from '../http/method-not-allowed.js';
import { authorizationEndpoint as authorizationEndpointEntry } from '../oauth/endpoints/authorization.js';
import { consentEndpoint } from './consent.js';
import { deviceEndpoints } from './device.js';
import { DEVICE_VERIFICATION_PATH } from '../oauth/endpoints/device-authorization.js';
import { accountEndpoints } from './account.js';
import { logoutEndpoints } from './logout.js';
import { endSessionEndpoint } from '../oauth/endpoints/end-session.js';
import { authorizationEndpoint } from './endpoint.js';
import type { AuthorizePages } from './flow.js';
import { loginEndpoint } from './login.js';
import { htmlErrorHandler } from '../html/responses.js';
import { cookiePolicyFor } from './sessions.js';
import { FAVICON_SVG, STYLESHEET } from '../html/styles.js';

/** The sign-in and consent forms are small; anything larger is refused before parsing. */
const PAGE_FORM_BODY_LIMIT = 16 * 1024;

/**
 * The authorization pages (GET /authorize, POST /login, POST /consent, the device page) and their assets, in their
 * own encapsulated context: form bodies only, and errors answered as HTML pages for people.
 */
export async function authorizationPages(app: FastifyInstance, { context }: { context: ServerContext }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: PAGE_FORM_BODY_LIMIT },
    (_request, body, done) => {
      done(null, FormParams.parse(body as string));
    },
  );
  const base = new URL(context.issuer).pathname.replace(/\/+$/, '');
  const pages: AuthorizePages = { context, base, cookies: cookiePolicyFor(context.issuer) };
  app.setErrorHandler(htmlErrorHandler(base));
  assets(app);
  authorizationEndpoint(app, pages);
  loginEndpoint(app, pages);
  consentEndpoint(app, pages);
  logoutEndpoints(app, pages);
  accountEndpoints(app, pages);
  deviceEndpoints(app, pages);
  allowOnly(app, authorizationEndpointEntry.path, [authorizationEndpointEntry.method]);
  allowOnly(app, '/login', ['POST']);
  allowOnly(app, '/consent', ['POST']);
  allowOnly(app, endSessionEndpoint.path, [endSessionEndpoint.method, 'POST']);
  allowOnly(app, '/logout', ['GET', 'POST']);
  allowOnly(app, '/account', ['GET']);
  allowOnly(app, '/account/revoke', ['POST']);
  allowOnly(app, DEVICE_VERIFICATION_PATH, ['GET', 'POST']);
  allowOnly(app, `${DEVICE_VERIFICATION_PATH}/login`, ['POST']);
  allowOnly(app, `${DEVICE_VERIFICATION_PATH}/consent`, ['POST']);
}

function assets(app: FastifyInstance): void {
  const cached = 'public, max-age=3600';
  app.get('/assets/gatehouse.css', async (_request, reply) =>
    reply
      .header('cache-control', cached)
      .header('x-content-type-options', 'nosniff')
      .type('text/css; charset=utf-8')
      .send(STYLESHEET),
  );
  app.get('/assets/gatehouse.svg', async (_request, reply) =>
    reply
      .header('cache-control', cached)
      .header('x-content-type-options', 'nosniff')
      .type('image/svg+xml')
      .send(FAVICON_SVG),
  );
}
