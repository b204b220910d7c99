import { ProblemError, PROBLEMS } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { formParamsOf } from '../http/form.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import { sendPage } from '../html/responses.js';
import {
  beginOtpEnrolment,
  confirmOtpEnrolment,
  listFactors,
  regenerateRecoveryCodes,
  reopenOtpEnrolment,
  resetFactors,
} from '../factors/factors.js';
import type { AuthorizePages } from './flow.js';
import { renderFactorPage } from './factor-pages.js';
import { attemptSignIn, sendRecoveryCodes, sendSignInForm, type SignInTarget } from './sign-in-forms.js';
import { currentSession } from './sessions.js';
import { isFreshSignIn } from './sign-in-freshness.js';
import { signedInSession, type SignedInSession } from './sign-in/state.js';
import { policyFor } from './step-up.js';
import type { ServerContext } from '../context.js';

/**
 * The account page's sign-in and its security section (issue 26): the same sign-in pipeline as
 * the authorization and device pages (POST /account/login, under the server's SECOND_FACTOR), and
 * the user's own second factors: set up one-time codes (a QR code and a confirmation code), make
 * new recovery codes, turn two-step verification off. Each change needs a sign-in of the last 10
 * minutes (`fresh_sign_in_required`) and is audited.
 */
export const ACCOUNT_CLIENT_ID = '(account)';

export function accountTarget(context: Pick<ServerContext, 'signIn'>): SignInTarget {
  return {
    client: undefined,
    clientId: ACCOUNT_CLIENT_ID,
    form: { action: '/account/login', hidden: {} },
    formActions: [],
    policy: policyFor(context, undefined),
    finePrint: 'You will see the applications that can use your account, and how you sign in.',
  };
}

/** The signed-in session when its sign-in is recent enough to change factors; refused otherwise. */
async function freshSession(pages: AuthorizePages, session: SignedInSession | undefined): Promise<SignedInSession> {
  if (!session) throw new ProblemError('csrf_token_invalid');
  if (!isFreshSignIn(session, pages.context.clock.now())) throw new ProblemError('fresh_sign_in_required');
  return session;
}

async function subjectOf(pages: AuthorizePages, session: SignedInSession): Promise<string> {
  const user = await pages.context.store.findUser(session.username);
  if (!user) throw new ProblemError('csrf_token_invalid');
  return user.subject;
}

function sendEnrolment(
  pages: AuthorizePages,
  reply: FastifyReply,
  session: SignedInSession,
  status: number,
  sealed?: string,
): FastifyReply {
  const factors = pages.context.signIn.factors;
  const enrolment =
    (sealed === undefined ? undefined : reopenOtpEnrolment(factors, session.id, sealed, session.username)) ??
    beginOtpEnrolment(factors, session.id, session.username);
  const alert =
    status === 200 ? undefined : { title: PROBLEMS.second_factor_failed.title, text: 'Check the code and try again.' };
  const page = renderFactorPage(pages.base, {
    client: undefined,
    username: session.username,
    csrfToken: session.csrfToken,
    form: { action: '/account/two-step', hidden: {} },
    due: { kind: 'enrol' },
    enrolment,
    alert,
  });
  reply.header('cache-control', 'no-store');
  return sendPage(reply, status, page);
}

export function accountSecurityEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, clock, audit },
    base,
  } = pages;
  const back = (reply: FastifyReply) =>
    reply.code(303).header('location', `${base}/account`).header('cache-control', 'no-store').send();

  app.post('/account/login', async (request, reply) => {
    const form = formParamsOf(request.body);
    const session = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const target = accountTarget(pages.context);
    const attempt = await attemptSignIn(pages, request, reply, session, form, target);
    if (!attempt.ok) return sendSignInForm(pages, reply, target, attempt.session, attempt.status, attempt.form);
    if (attempt.reveal) return sendRecoveryCodes(pages, reply, attempt.reveal, { href: `${base}/account` });
    return back(reply);
  });

  app.get('/account/two-step', async (request, reply) => {
    const session = signedInSession(await currentSession(store, request, clock.now()));
    if (!session) return back(reply);
    const fresh = await freshSession(pages, session);
    if ((await listFactors(store, await subjectOf(pages, fresh))).some((f) => f.kind === 'otp')) return back(reply);
    return sendEnrolment(pages, reply, fresh, 200);
  });

  app.post('/account/two-step', async (request, reply) => {
    const now = clock.now();
    const form = formParamsOf(request.body);
    const session = signedInSession(checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD)));
    const fresh = await freshSession(pages, session);
    const sealed = form.get('enrolment') ?? '';
    const enrolment = reopenOtpEnrolment(pages.context.signIn.factors, fresh.id, sealed, fresh.username);
    if (!enrolment) throw new ProblemError('csrf_token_invalid');
    const subject = await subjectOf(pages, fresh);
    const confirmed = await confirmOtpEnrolment(audit, pages.context.signIn.factors, {
      subject,
      secret: enrolment.secret,
      code: form.get('code') ?? '',
      now,
    });
    if (!confirmed.ok) {
      if (confirmed.reason === 'already_enrolled') return back(reply);
      reply.server.metrics?.countProblem('second_factor_failed');
      return sendEnrolment(pages, reply, fresh, 401, sealed);
    }
    return sendRecoveryCodes(pages, reply, confirmed.recoveryCodes, { href: `${base}/account` });
  });

  app.post('/account/recovery-codes', async (request, reply) => {
    const now = clock.now();
    const form = formParamsOf(request.body);
    const session = signedInSession(checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD)));
    const fresh = await freshSession(pages, session);
    const subject = await subjectOf(pages, fresh);
    if (!(await listFactors(store, subject)).some((f) => f.kind === 'otp')) return back(reply);
    const codes = await regenerateRecoveryCodes(audit, subject, now);
    return sendRecoveryCodes(pages, reply, codes, { href: `${base}/account` });
  });

  app.post('/account/two-step/remove', async (request, reply) => {
    const now = clock.now();
    const form = formParamsOf(request.body);
    const session = signedInSession(checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD)));
    const fresh = await freshSession(pages, session);
    const subject = await subjectOf(pages, fresh);
    await resetFactors(audit, { username: fresh.username, subject }, { now, actor: null, requireEnrolment: false });
    return back(reply);
  });
}
