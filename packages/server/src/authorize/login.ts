import { PROBLEMS } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUDIT_USERNAME_MAX, recordAudit, truncated } from '../audit/audit.js';
import { addressKey, usernameKey, type Charge } from '../abuse/rate-limiter.js';
import { auditLogOf } from '../http/audit-log.js';
import { formParamsOf, type FormParams } from '../http/form.js';
import type { SignInFailure } from '../http/metrics.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import { checkPassword, normalizeUsername } from '../users/users.js';
import type { AuthorizationRequest } from './authorization-request.js';
import { CSRF_FIELD, checkCsrfToken } from './csrf.js';
import { answerRefusal, loadAuthorizationRequest, type AuthorizePages } from './flow.js';
import { renderLoginPage, type LoginPage } from './pages.js';
import { formActionSource, sendPage } from './responses.js';
import { currentSession, signIn } from './sessions.js';
import { answerSignedIn, type SignedInSession } from './consent.js';
import { asksForFreshSignIn } from './sign-in-freshness.js';

/** Sends the sign-in page of a request; its form may lead (by redirects) to the client. */
export function sendLoginPage(
  { base }: AuthorizePages,
  reply: FastifyReply,
  request: AuthorizationRequest,
  session: BrowserSessionRecord,
  status: number,
  extra: Pick<LoginPage, 'username' | 'alert'> = {},
): FastifyReply {
  const page = renderLoginPage(base, {
    clientName: request.client.name,
    query: request.query,
    csrfToken: session.csrfToken,
    ...extra,
  });
  return sendPage(reply, status, page, [formActionSource(request.redirectUri)]);
}

/** A refused sign-in, in the metrics: by its reason, and as the catalog problem its page shows. */
function countSignInFailure(reply: FastifyReply, reason: SignInFailure): void {
  reply.server.metrics?.countSignInFailure(reason);
  reply.server.metrics?.countProblem(reason === 'rate_limited' ? 'too_many_login_attempts' : 'login_failed');
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
 * Checks a sign-in form for an OAuth client (`clientId`): the rate limits, then the password. Every
 * attempt counts per address and per OAuth client, and every failure per username and per address;
 * past a failure limit, the form is refused before any password is checked, the right one included
 * (NIST SP 800-63B §5.2.2). Success starts a new signed-in session. An unknown user and a wrong
 * password get the same 401. Shared by the authorization code flow and the device page.
 */
export async function attemptSignIn(
  { context: { store, clock, rateLimits }, cookies }: AuthorizePages,
  request: FastifyRequest,
  reply: FastifyReply,
  session: BrowserSessionRecord,
  form: FormParams,
  clientId: string,
): Promise<SignInAttempt> {
  const now = clock.now();
  const username = normalizeUsername(form.get('username') ?? '');
  const address = addressKey(request.ip);
  const failureBuckets: Charge[] = [
    ['login_failure_user', usernameKey(username)],
    ['login_failure_address', address],
  ];
  const wait =
    (await rateLimits.consume([
      ['login_address', address],
      ['login_client', clientId],
    ])) || (await rateLimits.peek(failureBuckets));
  if (wait > 0) {
    countSignInFailure(reply, 'rate_limited');
    const { title } = PROBLEMS.too_many_login_attempts;
    reply.header('retry-after', String(wait));
    return { ok: false, status: 429, page: { username, alert: { title, text: `Try again in ${waitInWords(wait)}.` } } };
  }
  const attempt = await checkPassword(store, username, form.get('password') ?? '');
  if ('failure' in attempt) {
    await rateLimits.consume(failureBuckets);
    // The name typed is recorded only when it is an account's: an unknown one may be a password
    // typed into the wrong field.
    await recordAudit(
      store,
      {
        event: 'login_failed',
        at: now,
        clientId,
        address: request.ip,
        reason: attempt.failure,
        subject: attempt.failure === 'wrong_password' ? truncated(username, AUDIT_USERNAME_MAX) : null,
      },
      auditLogOf(request),
    );
    countSignInFailure(reply, attempt.failure);
    const { title } = PROBLEMS.login_failed;
    return { ok: false, status: 401, page: { username, alert: { title, text: 'Check them and try again.' } } };
  }
  const signedIn = await signIn(store, reply, cookies, session, attempt.user.username, now);
  return { ok: true, session: { ...signedIn, username: attempt.user.username } };
}

/**
 * POST /login: CSRF token, then the request checked again, then the sign-in (limits and password).
 * Success goes back to GET /authorize (303, same origin), which asks for consent or answers the
 * client.
 */
export function loginEndpoint(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, clock, issuer },
    base,
  } = pages;
  app.post('/login', async (request, reply) => {
    const form = formParamsOf(request.body);
    const session = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const check = await loadAuthorizationRequest(pages.context, form.get('request') ?? '');
    if (check.kind !== 'valid') return answerRefusal(reply, check, issuer, 303);
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
