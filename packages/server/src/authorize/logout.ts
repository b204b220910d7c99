import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formParamsOf } from '../http/form.js';
import { endSessionEndpoint } from '../oauth/endpoints/end-session.js';
import { readIdTokenHint } from '../oauth/tokens/index.js';
import { isRegisteredPostLogoutRedirectUri } from '../oauth/clients/index.js';
import type { ClientRecord } from '../primitives/records.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import { viewOf, type AuthorizePages } from './flow.js';
import { localeClaimOf } from '../users/claims.js';
import type { BrowserPage } from './page.js';
import { renderLogoutPage, renderSignedOutPage } from './account-pages.js';
import { formActionSource, redirectToClient, sendPage } from '../html/responses.js';
import { currentSession, startSession } from './sessions.js';
import { signedInSession } from './sign-in/state.js';
import { clientLabel } from './client-label.js';

/** A checked logout request (RP-Initiated Logout 1.0 §2). */
interface LogoutRequest {
  readonly client: ClientRecord | undefined;
  /** The registered URI to return to, with `state`; undefined to show the signed-out page. */
  readonly returnTo: { readonly uri: string; readonly state: string | undefined } | undefined;
  /** The subject of the id_token_hint, when it was valid. */
  readonly hintedSubject: string | undefined;
  /** The parameters, re-encoded, for the confirmation form. */
  readonly query: string;
}

/** The parameters of RP-Initiated Logout 1.0 §2 that Gatehouse reads. */
const LOGOUT_PARAMETERS = ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state'] as const;

function refuse(detail: string): never {
  throw new ProblemError('invalid_logout_request', detail);
}

/**
 * Checks a logout request. `post_logout_redirect_uri` must be registered for the client named by
 * the id_token_hint's audience or `client_id`, compared exactly (§3); otherwise the user gets a page,
 * never a redirect.
 */
async function checkLogoutRequest({ context }: AuthorizePages, query: string): Promise<LogoutRequest> {
  const params = new URLSearchParams(query);
  const one = (name: string): string | undefined => {
    const values = params.getAll(name);
    if (values.length > 1) refuse(`${name} was sent more than once.`);
    return values[0] === '' ? undefined : values[0];
  };
  const hintText = one('id_token_hint');
  const hint = hintText === undefined ? undefined : await readIdTokenHint(hintText, context.keys, context.issuer);
  if (hintText !== undefined && !hint) refuse('The id_token_hint is not an ID token this server issued.');
  const clientId = one('client_id') ?? hint?.aud;
  if (hint && clientId !== hint.aud) refuse('The client_id is not the audience of the id_token_hint.');
  const client = clientId === undefined ? undefined : await context.store.findClient(clientId);
  if (clientId !== undefined && !client) refuse(`No client is registered with client_id '${clientId}'.`);
  const uri = one('post_logout_redirect_uri');
  if (uri !== undefined && !client) refuse('A post_logout_redirect_uri needs an id_token_hint or a client_id.');
  if (uri !== undefined && !isRegisteredPostLogoutRedirectUri(client?.postLogoutRedirectUris ?? [], uri))
    refuse(`The post_logout_redirect_uri '${uri}' is not registered for the client '${clientId ?? ''}'.`);
  return {
    client,
    returnTo: uri === undefined ? undefined : { uri, state: one('state') },
    hintedSubject: hint?.sub,
    query: params.toString(),
  };
}

/** Ends the browser's session and answers: back to the client, or the signed-out page. */
async function signOut(
  pages: AuthorizePages,
  request: FastifyRequest,
  reply: FastifyReply,
  logout: LogoutRequest,
  sessionId: string | undefined,
  status: 302 | 303,
): Promise<FastifyReply> {
  const { store } = pages.context;
  const { upstreams } = pages;
  if (sessionId !== undefined) await store.deleteBrowserSession(sessionId);
  request.log.info({ client_id: logout.client?.id }, 'signed out');
  // Federation: a session from an upstream that opted in is ended there too, which then returns here.
  const upstream =
    sessionId === undefined ? undefined : await upstreams?.endUpstreamSession(sessionId, logout.returnTo);
  if (upstream !== undefined)
    return reply.code(status).header('location', upstream).header('cache-control', 'no-store').send();
  if (logout.returnTo) return redirectToClient(reply, logout.returnTo.uri, { state: logout.returnTo.state }, status);
  return sendPage(reply, 200, renderSignedOutPage(viewOf(pages, reply, { here: '/' })));
}

/**
 * RP-initiated logout (GET /end-session) and the plain sign-out page (GET and POST /logout).
 * A request with a valid id_token_hint for the signed-in user (or with nobody signed in) signs
 * out at once: the hint shows the application asked. Anything else asks the user first, with a
 * CSRF-protected form, so that a link cannot sign anyone out.
 */
export function logoutEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, clock },
    cookies,
  } = pages;
  const ask = async (request: FastifyRequest, reply: FastifyReply, query: string): Promise<FastifyReply> => {
    const logout = await checkLogoutRequest(pages, query);
    const now = clock.now();
    const session = await currentSession(store, request, now);
    const signedIn = signedInSession(session);
    const user = signedIn ? await store.findUser(signedIn.username) : undefined;
    if (logout.hintedSubject !== undefined && (!user || user.subject === logout.hintedSubject))
      return signOut(pages, request, reply, logout, session?.id, 302);
    const shown = session ?? (await startSession(store, reply, cookies, now));
    const view = viewOf(pages, reply, { user: user && localeClaimOf(user) });
    const page = renderLogoutPage(view, {
      csrfToken: shown.csrfToken,
      query: logout.query,
      username: signedInSession(shown)?.username ?? null,
      client: logout.client && clientLabel(logout.client),
    });
    return sendPage(reply, 200, page, logout.returnTo ? [formActionSource(logout.returnTo.uri)] : []);
  };
  app.get(endSessionEndpoint.path, async (request, reply) => ask(request, reply, queryOf(request.url)));
  // RP-Initiated Logout 1.0 §2: the end_session_endpoint takes GET and POST (form) alike.
  app.post(endSessionEndpoint.path, async (request, reply) => {
    const form = formParamsOf(request.body);
    const params = new URLSearchParams();
    for (const name of LOGOUT_PARAMETERS) {
      const value = form.get(name);
      if (value !== undefined) params.set(name, value);
    }
    return ask(request, reply, params.toString());
  });
  app.get('/logout', async (request, reply) => ask(request, reply, queryOf(request.url)));
  app.post('/logout', async (request, reply) => {
    const form = formParamsOf(request.body);
    const session = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const logout = await checkLogoutRequest(pages, form.get('request') ?? '');
    return signOut(pages, request, reply, logout, session.id, 303);
  });
}

function queryOf(url: string): string {
  const mark = url.indexOf('?');
  return mark < 0 ? '' : url.slice(mark + 1);
}

export const logoutPage: BrowserPage = {
  name: 'logout',
  routes: [
    { path: endSessionEndpoint.path, methods: [endSessionEndpoint.method, 'POST'] },
    { path: '/logout', methods: ['GET', 'POST'] },
  ],
  serve: logoutEndpoints,
};
