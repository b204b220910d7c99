import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { viewOf, type AuthorizePages } from '../authorize/flow.js';
import type { BrowserPage } from '../authorize/page.js';
import { currentSession } from '../authorize/sessions.js';
import { isFreshSignIn } from '../authorize/sign-in-freshness.js';
import { signedInSession } from '../authorize/sign-in/state.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import { formParamsOf } from '../http/form.js';
import { AfterAnswer } from './after-answer.js';
import { checkEmailChange, completeEmailChange, EMAIL_CHANGE_PATH } from './email-change.js';
import type { EmailVerificationServices } from './email-verification.js';

const backToAccount = (pages: AuthorizePages, reply: FastifyReply, done: string): FastifyReply =>
  reply.code(303).header('cache-control', 'no-store').header('location', `${pages.base}/account?done=${done}`).send();

/**
 * The account page's address change (docs/accounts.md, "Changing the address"), when
 * EMAIL_VERIFICATION is not `off`: POST /account/email with the new address. It is a change to how
 * one signs in (a reset mails the address), so it needs a sign-in of the last 10 minutes (the
 * rule of sign-in-changes.ts: else `fresh_sign_in_required`, audited `sign_in_change_refused`). An
 * address that is not one is refused with its catalog page; otherwise the answer is the account
 * page saying a mail is on its way, whether another account has the address or not, and the
 * mails are made after it (email-change.ts). The new address is verified through the
 * e-mail verification's link and code page (email-verification-routes.ts).
 */
function emailChangeEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const { context } = pages;
  const { store, clock, audit } = context;
  const services: EmailVerificationServices = {
    store,
    audit,
    mail: context.mail,
    languages: context.languages,
    rateLimits: context.rateLimits,
    issuer: context.issuer,
  };
  const afterAnswer = new AfterAnswer(app.log);
  app.addHook('onClose', () => afterAnswer.settled());

  app.post(EMAIL_CHANGE_PATH, async (request, reply) => {
    if (context.accounts.emailVerification === 'off') throw new ProblemError('not_found');
    const form = formParamsOf(request.body);
    const now = clock.now();
    const session = signedInSession(checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD)));
    const user = session && (await store.findUser(session.username));
    if (!session || !user) throw new ProblemError('csrf_token_invalid');
    if (!isFreshSignIn(session, now)) {
      await audit.record({
        event: 'sign_in_change_refused',
        at: now,
        subject: user.subject,
        address: request.ip,
        reason: 'email_change',
      });
      throw new ProblemError('fresh_sign_in_required');
    }
    const checked = await checkEmailChange(services, user, form.get('email') ?? '');
    if (checked.kind === 'address_refused') throw new ProblemError('email_change_address_not_accepted');
    if (checked.kind === 'rate_limited') return backToAccount(pages, reply, 'email_change_wait');
    const locale = viewOf(pages, reply, { user: user.claims.locale }).text.locale;
    const change = { user, email: checked.email, locale, address: request.ip, now };
    // Once the answer has left: whether another account has the address shows neither in the page nor in its timing.
    reply.raw.once('close', () => afterAnswer.run('an address change', () => completeEmailChange(services, change)));
    return backToAccount(pages, reply, 'email_change_sent');
  });
}

/** The address change's entry in the pages table. */
export const emailChangePage: BrowserPage = {
  name: 'email-change',
  routes: [{ path: EMAIL_CHANGE_PATH, methods: ['POST'] }],
  serve: emailChangeEndpoints,
};
