import type { FastifyInstance } from 'fastify';
import { authorizationEndpoint as authorizationEndpointEntry } from '../oauth/endpoints/authorization.js';
import { answerSignedIn } from './consent.js';
import { answerRefusal, loadAuthorizationRequest, rawQuery, type AuthorizePages } from './flow.js';
import { sendLoginPage } from './login.js';
import { currentSession, startSession } from './sessions.js';

/**
 * GET /authorize (RFC 6749 §4.1.1, RFC 7636 §4.3): checks the request, then shows the sign-in page,
 * the consent page, or answers the client with a code when consent is remembered. A browser
 * without a session gets one here, so that the sign-in form has a CSRF token.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.1 RFC 6749 §4.1.1
 */
export function authorizationEndpoint(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, clock, issuer },
    cookies,
  } = pages;
  app.get(authorizationEndpointEntry.path, async (request, reply) => {
    const check = await loadAuthorizationRequest(pages.context, rawQuery(request.url));
    if (check.kind !== 'valid') return answerRefusal(reply, check, issuer, 302);
    const now = clock.now();
    const session = (await currentSession(store, request, now)) ?? (await startSession(store, reply, cookies, now));
    if (session.username === null) return sendLoginPage(pages, reply, check.request, session, 200);
    return answerSignedIn(pages, reply, check.request, { ...session, username: session.username });
  });
}
