import { PROBLEMS } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formParamsOf, type FormParams } from '../http/form.js';
import type { SignInFailure, SignInStep } from './sign-in/steps/index.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { AuthorizationRequest } from '../oauth/authorization-request.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import { answerRefusal, loadAuthorizationRequest, type AuthorizePages } from './flow.js';
import { renderLoginPage, type LoginPage } from './login-page.js';
import type { BrowserPage } from './page.js';
import { formActionSource, sendPageUnder } from '../html/responses.js';
import { passkeySignInOptions } from './passkey.js';
import { currentSession, signIn } from './sessions.js';
import { answerSignedIn } from './consent.js';
import { runSignInStep } from './sign-in/sign-in.js';
import { signedInSession, signInStateOf, type SignedInSession } from './sign-in/state.js';
import { asksForFreshSignIn } from './sign-in-freshness.js';

/** Sends the sign-in page of a request; its form may lead (by redirects) to the client. */
export async function sendLoginPage(
  pages: AuthorizePages,
  reply: FastifyReply,
  request: AuthorizationRequest,
  session: BrowserSessionRecord,
  status: number,
  extra: Pick<LoginPage, 'username' | 'alert'> = {},
): Promise<FastifyReply> {
  const { base, upstreams } = pages;
  // passkey: the page offers a passwordless sign-in with a challenge of its own (passkey.ts).
  const passkeyOptions = await passkeySignInOptions(pages, session);
  const page = renderLoginPage(base, {
    clientName: request.client.name,
    query: request.query,
    csrfToken: session.csrfToken,
    // Federation: the upstream providers offered beside the password (and their redirects' origins).
    upstreams: upstreams ? await upstreams.list() : [],
    passkeyOptions,
    ...extra,
  });
  const upstreamOrigins = upstreams ? await upstreams.formTargets() : [];
  const formAction = ["'self'", formActionSource(request.redirectUri), ...upstreamOrigins].filter(
    (s): s is string => s !== undefined,
  );
  return sendPageUnder(reply, status, page, { formAction, scripts: passkeyOptions ? ["'self'"] : [] });
}

/** A refused sign-in, in the metrics: by its reason, and as the catalog problem its page shows. */
function countSignInFailure(reply: FastifyReply, reason: SignInFailure): void {
  reply.server.metrics?.countSignInFailure(reason);
  reply.server.metrics?.countProblem(reason === 'rate_limited' ? 'too_many_login_attempts' : refusalProblem(reason));
}

/** The catalog problem a refused step shows: a passkey's own, or the password's. */
function refusalProblem(reason: SignInFailure): 'login_failed' | 'passkey_sign_in_failed' {
  return reason.startsWith('passkey_') ? 'passkey_sign_in_failed' : 'login_failed';
}

/** A Retry-After wait as a page says it. */
export function waitInWords(seconds: number): string {
  return seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

/** A sign-in form's outcome: signed in, or what the form must show again. */
export type SignInAttempt =
  | { readonly ok: true; readonly session: SignedInSession }
  | { readonly ok: false; readonly status: 401 | 429; readonly page: Pick<LoginPage, 'username' | 'alert'> };

/**
 * The HTTP side of a sign-in form for an OAuth client (`clientId`): the form handed to the sign-in
 * steps (sign-in/sign-in.ts) as plain data, then their result made a session (a new cookie), or a
 * refusal counted in the metrics (by its reason, and as the catalog problem its page shows) with
 * its Retry-After. An unknown user and a wrong password get the same 401. Shared by the
 * authorization code flow and the device page.
 */
export async function attemptSignIn(
  { context: { store, audit, clock, rateLimits }, cookies }: AuthorizePages,
  request: FastifyRequest,
  reply: FastifyReply,
  session: BrowserSessionRecord,
  form: Pick<FormParams, 'get'>,
  clientId: string,
  steps?: readonly SignInStep[],
): Promise<SignInAttempt> {
  const now = clock.now();
  const result = await runSignInStep(
    { store, rateLimits, audit },
    { state: signInStateOf(session), field: (name) => form.get(name), address: request.ip, clientId, now },
    steps,
  );
  switch (result.kind) {
    case 'rate_limited': {
      countSignInFailure(reply, 'rate_limited');
      reply.header('retry-after', String(result.retryAfter));
      const { title } = PROBLEMS.too_many_login_attempts;
      const alert = { title, text: `Try again in ${waitInWords(result.retryAfter)}.` };
      return { ok: false, status: 429, page: { username: result.username, alert } };
    }
    case 'refused': {
      countSignInFailure(reply, result.failure);
      const problem = refusalProblem(result.failure);
      const { title } = PROBLEMS[problem];
      const text = problem === 'login_failed' ? 'Check them and try again.' : 'Try again, or use your password.';
      return { ok: false, status: 401, page: { username: result.username, alert: { title, text } } };
    }
    case 'pending':
      // No step after the first has a page yet, and SIGN_IN_STEPS requires none.
      await signIn(store, reply, cookies, session, result.state, now);
      throw new Error(`no page serves the sign-in step '${result.next}'`);
    case 'signed_in': {
      const signedIn = signedInSession(await signIn(store, reply, cookies, session, result.state, now));
      if (!signedIn) throw new Error('a completed sign-in made no signed-in session');
      return { ok: true, session: signedIn };
    }
  }
}

/**
 * POST /login: CSRF token, then the request checked again, then the sign-in (limits and password).
 * Success goes back to GET /authorize (303, same origin), which asks for consent or answers the
 * client.
 */
export function loginEndpoint(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, clock },
    base,
  } = pages;
  app.post('/login', async (request, reply) => {
    const form = formParamsOf(request.body);
    const session = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const check = await loadAuthorizationRequest(pages.context, form.get('request') ?? '');
    if (check.kind !== 'valid') return answerRefusal(pages, reply, check, 303);
    const attempt = await attemptSignIn(pages, request, reply, session, form, check.request.client.id);
    if (!attempt.ok) return sendLoginPage(pages, reply, check.request, session, attempt.status, attempt.page);
    // prompt=login and max_age are met by this sign-in; GET /authorize, a second later, might ask again.
    if (asksForFreshSignIn(check.request)) return answerSignedIn(pages, reply, check.request, attempt.session, 303);
    return reply
      .code(303)
      .header('cache-control', 'no-store')
      .header('location', `${base}/authorize?${check.request.query}`)
      .send();
  });
}

export const signInPage: BrowserPage = {
  name: 'sign-in',
  routes: [{ path: '/login', methods: ['POST'] }],
  serve: loginEndpoint,
};
