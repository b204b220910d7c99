import { PROBLEMS, ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { viewOf, type AuthorizePages } from '../authorize/flow.js';
import type { BrowserPage } from '../authorize/page.js';
import { currentSession, startSession } from '../authorize/sessions.js';
import { waitInWords } from '../authorize/sign-in-forms.js';
import { signedInSession } from '../authorize/sign-in/state.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import type { Alert } from '../html/layout.js';
import { sendPage } from '../html/responses.js';
import { formParamsOf } from '../http/form.js';
import type { UserRecord } from '../store/identity-repository.js';
import {
  EMAIL_VERIFICATION_PATH,
  needsVerification,
  openVerification,
  sendVerificationMail,
  verifyByCode,
  verifyByLink,
  type EmailVerificationServices,
} from './email-verification.js';
import { renderVerifiedPage, renderVerifyCodePage, renderVerifyLinkPage } from './email-verification-pages.js';

const SEND_PATH = `${EMAIL_VERIFICATION_PATH}/send`;
const CODE_PATH = `${EMAIL_VERIFICATION_PATH}/code`;

function servicesOf(pages: AuthorizePages): EmailVerificationServices {
  const { context } = pages;
  return {
    store: context.store,
    audit: context.audit,
    mail: context.mail,
    languages: context.languages,
    rateLimits: context.rateLimits,
    issuer: context.issuer,
  };
}

const backToAccount = (pages: AuthorizePages, reply: FastifyReply, done: string): FastifyReply =>
  reply.code(303).header('cache-control', 'no-store').header('location', `${pages.base}/account?done=${done}`).send();

/**
 * E-mail verification (docs/accounts.md, "Verifying an address"), when EMAIL_VERIFICATION is not
 * `off`: the account page's button posts to /email-verification/send, which mails a link and a code;
 * the link opens GET /email-verification (a button) and POST verifies; a signed-in user may type the
 * code at /email-verification/code instead. Either marks `email_verified: true` on the user, which
 * ID tokens and userinfo then say (OIDC Core §5.1).
 */
function emailVerificationEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const { store, clock, accounts } = pages.context;
  const services = servicesOf(pages);

  const refuseWhenOff = (): void => {
    if (accounts.emailVerification === 'off') throw new ProblemError('not_found');
  };

  /** The signed-in user of a form's session (its CSRF token checked), or the account page's sign-in. */
  const signedInUser = async (request: FastifyRequest, csrf: string | undefined | null) => {
    const now = clock.now();
    const current = await currentSession(store, request, now);
    const session = csrf === null ? current : checkCsrfToken(current, csrf);
    const signedIn = signedInSession(session);
    const user = signedIn && (await store.findUser(signedIn.username));
    return user && session ? { user, session } : undefined;
  };

  app.post(SEND_PATH, async (request, reply) => {
    refuseWhenOff();
    const form = formParamsOf(request.body);
    const found = await signedInUser(request, form.get(CSRF_FIELD));
    if (!found) return reply.code(303).header('location', `${pages.base}/account`).send();
    const locale = viewOf(pages, reply, { user: found.user.claims.locale }).text.locale;
    const sent = await sendVerificationMail(services, found.user, { locale, address: request.ip, now: clock.now() });
    return backToAccount(pages, reply, sent.kind === 'rate_limited' ? 'verification_wait' : 'verification_sent');
  });

  app.get(CODE_PATH, async (request, reply) => {
    refuseWhenOff();
    const found = await signedInUser(request, null);
    // Shown to a verified user too: the code of an address change (email-change.ts) is typed here.
    if (!found) return reply.code(303).header('location', `${pages.base}/account`).send();
    return sendCodePage(pages, reply, found.user, found.session.csrfToken, 200);
  });

  app.post(CODE_PATH, async (request, reply) => {
    refuseWhenOff();
    const form = formParamsOf(request.body);
    const found = await signedInUser(request, form.get(CSRF_FIELD));
    if (!found) return backToAccount(pages, reply, 'email_verified');
    const checked = await verifyByCode(services, found.user, form.get('code') ?? '', request.ip, clock.now());
    if (checked.kind === 'verified')
      return backToAccount(pages, reply, checked.purpose === 'email_change' ? 'email_changed' : 'email_verified');
    if (checked.kind === 'rate_limited') {
      reply.header('retry-after', String(checked.retryAfter));
      const alert: Alert = { slug: PROBLEMS.verification_code_invalid.slug, text: waitInWords(checked.retryAfter) };
      return sendCodePage(pages, reply, found.user, found.session.csrfToken, 429, alert);
    }
    const alert: Alert = { slug: PROBLEMS.verification_code_invalid.slug, text: { id: 'verify.code.check' } };
    return sendCodePage(pages, reply, found.user, found.session.csrfToken, 401, alert);
  });

  app.get(EMAIL_VERIFICATION_PATH, async (request, reply) => {
    refuseWhenOff();
    const token = new URL(request.url, 'http://x').searchParams.get('token') ?? '';
    const opened = await openVerification(store, token, clock.now());
    if (!opened) throw new ProblemError('email_verification_link_invalid');
    const now = clock.now();
    const session =
      (await currentSession(store, request, now)) ?? (await startSession(store, reply, pages.cookies, now));
    const here = `${EMAIL_VERIFICATION_PATH}?${new URLSearchParams({ token })}`;
    const view = viewOf(pages, reply, { here, user: opened.user.claims.locale });
    const page = renderVerifyLinkPage(view, {
      csrfToken: session.csrfToken,
      token,
      email: opened.link.email,
      username: opened.user.username,
    });
    return sendPage(reply, 200, page);
  });

  app.post(EMAIL_VERIFICATION_PATH, async (request, reply) => {
    refuseWhenOff();
    const form = formParamsOf(request.body);
    checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const token = form.get('token') ?? '';
    const opened = await openVerification(store, token, clock.now());
    if (!opened || !(await verifyByLink(services, token, request.ip, clock.now())))
      throw new ProblemError('email_verification_link_invalid');
    const view = viewOf(pages, reply, { here: '/account', user: opened.user.claims.locale });
    return sendPage(reply, 200, renderVerifiedPage(view, opened.link.email, opened.link.data.request));
  });
}

function sendCodePage(
  pages: AuthorizePages,
  reply: FastifyReply,
  user: UserRecord,
  csrfToken: string,
  status: number,
  alert?: Alert,
): FastifyReply {
  const view = viewOf(pages, reply, { here: CODE_PATH, user: user.claims.locale });
  // The address to verify, when the user has one unverified; else the code is a change's, to an address not named here.
  const email = needsVerification(user) ? (user.claims.email as string) : undefined;
  return sendPage(reply, status, renderVerifyCodePage(view, { csrfToken, email, alert }));
}

/** E-mail verification's entry in the pages table. */
export const emailVerificationPage: BrowserPage = {
  name: 'email-verification',
  routes: [
    { path: EMAIL_VERIFICATION_PATH, methods: ['GET', 'POST'] },
    { path: SEND_PATH, methods: ['POST'] },
    { path: CODE_PATH, methods: ['GET', 'POST'] },
  ],
  serve: emailVerificationEndpoints,
};
