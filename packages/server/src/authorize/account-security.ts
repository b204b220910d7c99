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
import { viewOf, type AuthorizePages } from './flow.js';
import type { Alert, BasePath } from '../html/layout.js';
import type { AccountNotice } from './account-pages.js';
import type { SignInChange } from './sign-in-changes.js';
import { renderFactorPage } from './factor-pages.js';
import { attemptSignIn, sendRecoveryCodes, sendSignInForm, type SignInTarget } from './sign-in-forms.js';
import { currentSession } from './sessions.js';
import type { SignedInSession } from './sign-in/state.js';
import { policyFor } from './step-up.js';
import { passkeySignInFields } from './passkey-options.js';
import type { ServerContext } from '../context.js';

/**
 * The account page's sign-in and its security section: the same sign-in pipeline as
 * the authorization and device pages (POST /account/login, under the server's SECOND_FACTOR), and
 * the user's own second factors: set up one-time codes (a QR code and a confirmation code), make
 * new recovery codes, turn two-step verification off. Each change is a SignInChange: it needs a
 * fresh sign-in (sign-in-changes.ts) and is audited.
 */
export const ACCOUNT_CLIENT_ID = '(account)';

export function accountTarget(context: Pick<ServerContext, 'signIn'>): SignInTarget {
  return {
    client: undefined,
    clientId: ACCOUNT_CLIENT_ID,
    form: { action: '/account/login', hidden: {} },
    formActions: [],
    policy: policyFor(context, undefined),
    passkeySignIn: { action: '/account/login', hidden: { method: 'passkey_sign_in' } },
    finePrint: 'sign-in.next.account',
    language: { here: '/account' },
  };
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
  const alert: Alert | undefined =
    status === 200 ? undefined : { slug: PROBLEMS.second_factor_failed.slug, text: { id: 'factor.alert.check' } };
  const view = viewOf(pages, reply, { here: '/account/two-step' });
  const page = renderFactorPage(view, {
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

/** POST /account/login: the account page's sign-in (and its "Confirm it's you"), the pipeline's steps. */
export function accountSignInEndpoint(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, clock },
    base,
  } = pages;
  app.post('/account/login', async (request, reply) => {
    const form = formParamsOf(request.body);
    const session = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const target = accountTarget(pages.context);
    // A passkey form's user is the credential's owner (passkey.ts), as at /login/passkey.
    const passkey = form.get('method') === 'passkey_sign_in';
    const fields = passkey ? await passkeySignInFields(store, form) : form;
    const attempt = await attemptSignIn(pages, request, reply, session, fields, target);
    // The terms declined: the sign-in ended; the account page shows the sign-in again.
    if ('declined' in attempt) return backToAccount(reply, base);
    if (!attempt.ok && attempt.reveal === undefined) {
      // A refused passkey does not reveal whose it is: the username field stays empty.
      const shown =
        passkey && attempt.form.kind === 'password' ? { ...attempt.form, username: undefined } : attempt.form;
      return sendSignInForm(pages, reply, target, attempt.session, attempt.status, shown);
    }
    if (attempt.reveal) return sendRecoveryCodes(pages, reply, attempt.reveal, { href: `${base}/account` });
    return backToAccount(reply, base);
  });
}

/** Back to the account page (303), with a notice of what was done when there is one (account-pages.ts). */
export function backToAccount(reply: FastifyReply, base: BasePath, done?: AccountNotice): FastifyReply {
  const location = done === undefined ? `${base}/account` : `${base}/account?${new URLSearchParams({ done })}`;
  return reply.code(303).header('location', location).header('cache-control', 'no-store').send();
}

/**
 * The account page's changes to the second factors, each behind the freshness rule
 * (sign-in-changes.ts): the set-up page of the authenticator app and its confirmation, new
 * recovery codes, turning two-step verification off.
 */
export const SECOND_FACTOR_CHANGES: readonly SignInChange[] = [
  {
    method: 'GET',
    path: '/account/two-step',
    change: 'otp_enrolment',
    async handle(pages, { reply, session, subject }) {
      if ((await listFactors(pages.context.store, subject)).some((f) => f.kind === 'otp'))
        return backToAccount(reply, pages.base);
      return sendEnrolment(pages, reply, session, 200);
    },
  },
  {
    method: 'POST',
    path: '/account/two-step',
    change: 'otp_enrolment',
    async handle(pages, { reply, form, session, subject, now }) {
      const sealed = form.get('enrolment') ?? '';
      const enrolment = reopenOtpEnrolment(pages.context.signIn.factors, session.id, sealed, session.username);
      if (!enrolment) throw new ProblemError('csrf_token_invalid');
      const confirmed = await confirmOtpEnrolment(pages.context.audit, pages.context.signIn.factors, {
        subject,
        secret: enrolment.secret,
        code: form.get('code') ?? '',
        now,
      });
      if (!confirmed.ok) {
        if (confirmed.reason === 'already_enrolled') return backToAccount(reply, pages.base);
        reply.server.metrics?.countProblem('second_factor_failed');
        return sendEnrolment(pages, reply, session, 401, sealed);
      }
      const next = `${pages.base}/account?${new URLSearchParams({ done: 'two_step_on' })}`;
      return sendRecoveryCodes(pages, reply, confirmed.recoveryCodes, { href: next });
    },
  },
  {
    method: 'POST',
    path: '/account/recovery-codes',
    change: 'recovery_codes',
    async handle(pages, { reply, subject, now }) {
      if (!(await listFactors(pages.context.store, subject)).some((f) => f.kind === 'otp'))
        return backToAccount(reply, pages.base);
      const codes = await regenerateRecoveryCodes(pages.context.audit, subject, now);
      const next = `${pages.base}/account?${new URLSearchParams({ done: 'recovery_codes' })}`;
      return sendRecoveryCodes(pages, reply, codes, { href: next });
    },
  },
  {
    method: 'POST',
    path: '/account/two-step/remove',
    change: 'otp_removal',
    async handle(pages, { reply, session, subject, now }) {
      const owner = { username: session.username, subject };
      await resetFactors(pages.context.audit, owner, { now, actor: null, requireEnrolment: false });
      return backToAccount(reply, pages.base, 'two_step_off');
    },
  },
];
