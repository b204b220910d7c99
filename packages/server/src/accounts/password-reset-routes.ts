import { PROBLEMS, ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { viewOf, type AuthorizePages } from '../authorize/flow.js';
import type { BrowserPage } from '../authorize/page.js';
import { currentSession, startSession } from '../authorize/sessions.js';
import { waitInWords } from '../authorize/sign-in-forms.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import type { Alert, AlertText } from '../html/layout.js';
import { sendPage } from '../html/responses.js';
import { formParamsOf } from '../http/form.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { PasswordRefusal } from '../users/password-policy.js';
import { AfterAnswer } from './after-answer.js';
import {
  chargePasswordResetRequest,
  completePasswordReset,
  mailPasswordResetLinks,
  openPasswordReset,
  PASSWORD_RESET_CONFIRM_PATH,
  PASSWORD_RESET_PATH,
  PASSWORD_RESET_TTL,
  typedAccount,
  type OpenReset,
  type PasswordResetServices,
} from './password-reset.js';
import {
  renderNewPasswordPage,
  renderResetDonePage,
  renderResetRequestPage,
  renderResetSentPage,
} from './password-reset-pages.js';

/** What each refusal of a new password says under its catalog title. */
const REFUSAL_TEXT: { readonly [R in PasswordRefusal]: AlertText } = {
  too_short: { id: 'reset.alert.too-short' },
  too_long: { id: 'reset.alert.too-long' },
  too_common: { id: 'reset.alert.too-common' },
};

function servicesOf(pages: AuthorizePages): PasswordResetServices {
  const { context } = pages;
  return {
    store: context.store,
    audit: context.audit,
    mail: context.mail,
    languages: context.languages,
    rateLimits: context.rateLimits,
    factors: context.signIn.factors,
    issuer: context.issuer,
    revokesGrants: context.accounts.passwordResetRevokesGrants,
  };
}

/**
 * The password reset (docs/accounts.md, "Forgotten passwords"). GET /password-reset asks for a
 * username or an e-mail address; POST answers the same page, at once, whether an account has it,
 * has no address, or the mail server is down (the mails are made after the answer and sent from
 * the outbox), unless the rate limits refuse first. The mail's link opens GET
 * /password-reset/confirm, which shows the new password's form (and asks a code of a user with
 * two-step verification); POST sets the password (password-reset.ts, `completePasswordReset`).
 */
function passwordResetEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const { store, clock } = pages.context;
  const services = servicesOf(pages);
  const afterAnswer = new AfterAnswer(app.log);
  app.addHook('onClose', () => afterAnswer.settled());

  const session = async (request: Parameters<typeof currentSession>[1], reply: FastifyReply) => {
    const now = clock.now();
    return (await currentSession(store, request, now)) ?? (await startSession(store, reply, pages.cookies, now));
  };

  app.get(PASSWORD_RESET_PATH, async (request, reply) => {
    const continuation = new URL(request.url, 'http://x').searchParams.get('request') ?? '';
    const current = await session(request, reply);
    const view = viewOf(pages, reply);
    return sendPage(reply, 200, renderResetRequestPage(view, { csrfToken: current.csrfToken, continuation }));
  });

  app.post(PASSWORD_RESET_PATH, async (request, reply) => {
    const form = formParamsOf(request.body);
    const current = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const continuation = form.get('request') ?? '';
    const typed = typedAccount(form.get('identifier') ?? '');
    const wait = await chargePasswordResetRequest(services.rateLimits, typed, request.ip);
    const view = viewOf(pages, reply, {
      here: `${PASSWORD_RESET_PATH}?${new URLSearchParams({ request: continuation })}`,
    });
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      const alert: Alert = { slug: PROBLEMS.too_many_password_resets.slug, text: waitInWords(wait) };
      const page = renderResetRequestPage(view, { csrfToken: current.csrfToken, continuation, alert });
      return sendPage(reply, PROBLEMS.too_many_password_resets.status, page);
    }
    const resetRequest = { typed, continuation, locale: view.text.locale, address: request.ip, now: clock.now() };
    // Once the answer has left (or the client has gone): the store's work, synchronous on SQLite,
    // must not delay the answer of an account that exists.
    reply.raw.once('close', () =>
      afterAnswer.run('a password reset request', () => mailPasswordResetLinks(services, resetRequest)),
    );
    return sendPage(reply, 200, renderResetSentPage(view, continuation, PASSWORD_RESET_TTL / 60));
  });

  app.get(PASSWORD_RESET_CONFIRM_PATH, async (request, reply) => {
    const token = new URL(request.url, 'http://x').searchParams.get('token') ?? '';
    const reset = await openPasswordReset(store, token, clock.now());
    if (!reset) throw new ProblemError('password_reset_link_invalid');
    const current = await session(request, reply);
    return sendNewPasswordForm(pages, reply, current, token, reset, 200);
  });

  app.post(PASSWORD_RESET_CONFIRM_PATH, async (request, reply) => {
    const form = formParamsOf(request.body);
    const current = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const token = form.get('token') ?? '';
    const outcome = await completePasswordReset(services, {
      secret: token,
      password: form.get('password') ?? '',
      code: form.get('code') ?? '',
      address: request.ip,
      now: clock.now(),
    });
    switch (outcome.kind) {
      case 'invalid_link':
        throw new ProblemError('password_reset_link_invalid');
      case 'password_refused': {
        const alert = { slug: PROBLEMS.password_not_accepted.slug, text: REFUSAL_TEXT[outcome.refusal] };
        return sendNewPasswordForm(pages, reply, current, token, outcome.reset, 422, alert);
      }
      case 'code_refused': {
        const alert: Alert = { slug: PROBLEMS.second_factor_failed.slug, text: { id: 'factor.alert.check' } };
        return sendNewPasswordForm(pages, reply, current, token, outcome.reset, 401, alert);
      }
      case 'rate_limited': {
        reply.header('retry-after', String(outcome.retryAfter));
        const alert = { slug: PROBLEMS.too_many_login_attempts.slug, text: waitInWords(outcome.retryAfter) };
        return sendNewPasswordForm(pages, reply, current, token, outcome.reset, 429, alert);
      }
      case 'done': {
        // This browser's session was the user's or anonymous: it ended with every other one.
        const view = viewOf(pages, reply, { here: '/account' });
        return sendPage(reply, 200, renderResetDonePage(view, outcome));
      }
    }
  });
}

function sendNewPasswordForm(
  pages: AuthorizePages,
  reply: FastifyReply,
  session: BrowserSessionRecord,
  token: string,
  reset: OpenReset,
  status: number,
  alert?: Alert,
): FastifyReply {
  // The page's own URL holds the link's secret: the language switcher comes back to it.
  const here = `${PASSWORD_RESET_CONFIRM_PATH}?${new URLSearchParams({ token })}`;
  const view = viewOf(pages, reply, { here, user: reset.user.claims.locale });
  const page = renderNewPasswordPage(view, {
    csrfToken: session.csrfToken,
    token,
    username: reset.user.username,
    secondFactor: reset.secondFactor,
    alert,
  });
  return sendPage(reply, status, page);
}

/** The password reset's entry in the pages table. */
export const passwordResetPage: BrowserPage = {
  name: 'password-reset',
  routes: [
    { path: PASSWORD_RESET_PATH, methods: ['GET', 'POST'] },
    { path: PASSWORD_RESET_CONFIRM_PATH, methods: ['GET', 'POST'] },
  ],
  serve: passwordResetEndpoints,
};
