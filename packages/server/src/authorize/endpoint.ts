import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formParamsOf } from '../http/form.js';
import { authorizationEndpoint as authorizationEndpointEntry } from '../oauth/endpoints/authorization.js';
import { answerSignedIn } from './consent.js';
import { OAuthError } from '@gatehouse/contract';
import { answerRefusal, answerWithError, loadAuthorizationRequest, rawQuery, type AuthorizePages } from './flow.js';
import { needsSignIn } from './sign-in-freshness.js';
import { readIdTokenHint } from '../oauth/tokens/index.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { AuthorizationRequest } from '../oauth/authorization-requests/index.js';
import { authorizationTarget, sendLoginPage, sendSignInForm } from './sign-in-forms.js';
import { secondFactorDueFor } from './step-up.js';
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
async function answerAuthorizationRequest(
  pages: AuthorizePages,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { store, clock } = pages.context;
  const check = await loadAuthorizationRequest(pages.context, rawQuery(request.url), request.ip);
  if (check.kind !== 'valid') return answerRefusal(pages, reply, check, 302);
  const now = clock.now();
  const authorization = check.request;
  const session = (await currentSession(store, request, now)) ?? (await startSession(store, reply, pages.cookies, now));
  const hint = await hintedUser(pages, authorization, session);
  if (hint === 'invalid')
    return answerWithError(pages, reply, authorization, new OAuthError('id_token_hint_invalid'), 302);
  const signedIn = signedInSession(session);
  // A sign-in stopped at its second factor goes on there, not at the password again.
  if (session.pending === true && hint !== 'another' && !authorization.oidc.prompt.has('login')) {
    const due = await secondFactorDueFor(pages.context, session, authorizationTarget(pages, authorization).policy);
    if (due.kind !== 'none') {
      if (authorization.oidc.prompt.has('none'))
        return answerWithError(pages, reply, authorization, new OAuthError('login_required'), 302);
      return sendSignInForm(pages, reply, authorizationTarget(pages, authorization), session, 200, {
        kind: 'factor',
        due,
      });
    }
  }
  if (needsSignIn(authorization, session, now) || !signedIn || hint === 'another') {
    // OIDC Core §3.1.2.1: prompt=none never shows a page. Signed in as another user than the
    // id_token_hint names, choosing an account is an interaction; otherwise a sign-in is needed.
    if (authorization.oidc.prompt.has('none')) {
      const error = new OAuthError(hint === 'another' && signedIn ? 'interaction_required' : 'login_required');
      return answerWithError(pages, reply, authorization, error, 302);
    }
    return sendLoginPage(pages, reply, authorization, session, 200, {
      username: authorization.oidc.loginHint ?? session.username ?? undefined,
    });
  }
  return answerSignedIn(pages, reply, authorization, signedIn);
}

/**
 * The parameters of POST /authorize (OIDC Core §3.1.2.1: "serialized using Form Serialization"): the
 * form's, and the query's when the URL has one. A parameter in both is sent twice, and refused as
 * any repeated parameter is (RFC 6749 §3.1), so that no reading of the request sees a value the
 * server ignored.
 */
function postedParameters(url: string, body: unknown): string {
  return [rawQuery(url), formParamsOf(body).serialize()].filter((part) => part !== '').join('&');
}

/**
 * POST /authorize (OIDC Core §3.1.2.1: the server MUST support GET and POST): the request is checked
 * as on GET, a refusal answered here (303, RFC 9700 §4.12), and a valid request continues as
 * GET /authorize with the same parameters (303). That hop is what lets a signed-in user be
 * recognised: the POST is the client's cross-site form, on which a browser never sends the
 * SameSite=Lax session cookie, while it does on the top-level GET the 303 makes of it. Without it,
 * every POST would show the sign-in page and prompt=none could only fail. The POST carries no CSRF
 * token: it starts a flow and acts for nobody (it reads and writes no session).
 */
async function answerPostedRequest(
  pages: AuthorizePages,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  // The request_uri of a pushed request is used by the GET this answer leads to, not here.
  const check = await loadAuthorizationRequest(
    pages.context,
    postedParameters(request.url, request.body),
    request.ip,
    true,
  );
  if (check.kind !== 'valid') return answerRefusal(pages, reply, check, 303);
  return reply
    .code(303)
    .header('cache-control', 'no-store')
    .header('location', `${pages.base}${authorizationEndpointEntry.path}?${check.request.query}`)
    .send();
}

export function authorizationEndpoint(app: FastifyInstance, pages: AuthorizePages): void {
  const { path } = authorizationEndpointEntry;
  app.get(path, async (request, reply) => answerAuthorizationRequest(pages, request, reply));
  app.post(path, async (request, reply) => answerPostedRequest(pages, request, reply));
}

export const authorizePage: BrowserPage = {
  name: 'authorize',
  routes: [{ path: authorizationEndpointEntry.path, methods: [...authorizationEndpointEntry.method] }],
  serve: authorizationEndpoint,
};
