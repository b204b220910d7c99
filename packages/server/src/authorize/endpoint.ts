import type { FastifyInstance } from 'fastify';
import { authorizationEndpoint as authorizationEndpointEntry } from '../oauth/endpoints/authorization.js';
import { answerSignedIn } from './consent.js';
import { OAuthError } from '@gatehouse/contract';
import { answerRefusal, loadAuthorizationRequest, rawQuery, redirectWithError, type AuthorizePages } from './flow.js';
import { needsSignIn } from './sign-in-freshness.js';
import { readIdTokenHint } from '../oauth/id-token-hint.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { AuthorizationRequest } from './authorization-request.js';
import { sendLoginPage } from './login.js';
import type { BrowserPage } from './page.js';
import { currentSession, startSession } from './sessions.js';
import { signedInSession } from './sign-in/state.js';

/**
 * Compares an `id_token_hint` (OIDC Core §3.1.2.1) with the signed-in user: 'same' (or no hint, or
 * nobody signed in), 'another' when it names someone else, 'invalid' when it is no ID token of ours
 * for this client.
 */
async function hintedUser(
  { context }: AuthorizePages,
  authorization: AuthorizationRequest,
  session: BrowserSessionRecord,
): Promise<'same' | 'another' | 'invalid'> {
  const text = authorization.oidc.idTokenHint;
  if (text === undefined) return 'same';
  const hint = await readIdTokenHint(text, context.keys, context.issuer);
  if (!hint || hint.aud !== authorization.client.id) return 'invalid';
  const signedIn = signedInSession(session);
  if (!signedIn) return 'same';
  const user = await context.store.findUser(signedIn.username);
  return user?.subject === hint.sub ? 'same' : 'another';
}

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
    const authorization = check.request;
    const session = (await currentSession(store, request, now)) ?? (await startSession(store, reply, cookies, now));
    const hint = await hintedUser(pages, authorization, session);
    if (hint === 'invalid')
      return redirectWithError(
        reply,
        authorization.redirectUri,
        authorization.state,
        new OAuthError('id_token_hint_invalid'),
        issuer,
        302,
      );
    const signedIn = signedInSession(session);
    if (needsSignIn(authorization, session, now) || !signedIn || hint === 'another') {
      // OIDC Core §3.1.2.1: prompt=none never shows a page. Signed in as another user than the
      // id_token_hint names, choosing an account is an interaction; otherwise a sign-in is needed.
      if (authorization.oidc.prompt.has('none'))
        return redirectWithError(
          reply,
          authorization.redirectUri,
          authorization.state,
          new OAuthError(hint === 'another' && signedIn ? 'interaction_required' : 'login_required'),
          issuer,
          302,
        );
      return sendLoginPage(pages, reply, authorization, session, 200, {
        username: authorization.oidc.loginHint ?? session.username ?? undefined,
      });
    }
    return answerSignedIn(pages, reply, authorization, signedIn);
  });
}

export const authorizePage: BrowserPage = {
  name: 'authorize',
  routes: [{ path: authorizationEndpointEntry.path, methods: [authorizationEndpointEntry.method] }],
  serve: authorizationEndpoint,
};
