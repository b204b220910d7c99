import type { FastifyInstance } from 'fastify';
import { formParamsOf } from '../http/form.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import { answerRefusal, answerWithError, loadAuthorizationRequest, type AuthorizePages } from './flow.js';
import { OAuthError } from '@gatehouse/contract';
import type { BrowserPage } from './page.js';
import { currentSession } from './sessions.js';
import { answerSignedIn } from './consent.js';
import { attemptSignIn, authorizationTarget, sendRecoveryCodes, sendSignInForm } from './sign-in-forms.js';
import { signedInSession } from './sign-in/state.js';
import { asksForFreshSignIn, FRESH_CONTINUE_METHOD, openFreshSignIn, sealFreshSignIn } from './sign-in-freshness.js';

/**
 * POST /login: CSRF token, then the request checked again, then the sign-in step the form names
 * (the password, or a second factor). A completed sign-in goes back to GET /authorize (303, same
 * origin), which asks for consent or answers the client; a pending one shows the factor page.
 */
export function loginEndpoint(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, clock },
    base,
  } = pages;
  app.post('/login', async (request, reply) => {
    const form = formParamsOf(request.body);
    const session = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const check = await loadAuthorizationRequest(pages.context, form.get('request') ?? '', request.ip);
    if (check.kind !== 'valid') return answerRefusal(pages, reply, check, 303);
    const next = `${base}/authorize?${check.request.query}`;
    const { sealing } = pages.context.signIn.factors;
    const requestField = form.get('request') ?? '';
    if (form.get('method') === FRESH_CONTINUE_METHOD) {
      // After the recovery codes of a sign-in that answered prompt=login or max_age: that sign-in
      // satisfies them (OIDC Core §3.1.2.1); anything else goes to GET /authorize, which decides.
      const fresh = openFreshSignIn(sealing, session, requestField, form.get('fresh') ?? '', clock.now());
      if (fresh) return answerSignedIn(pages, reply, check.request, fresh, 303);
      return reply.code(303).header('cache-control', 'no-store').header('location', next).send();
    }
    const target = authorizationTarget(pages, check.request);
    const attempt = await attemptSignIn(pages, request, reply, session, form, target);
    // The terms declined: the client is told, as a denied consent is (RFC 6749 §4.1.2.1 access_denied).
    if ('declined' in attempt)
      return answerWithError(pages, reply, check.request, new OAuthError('terms_declined'), 303);
    // Recovery codes of an enrolment are shown once, whether the sign-in completed or a step is still due.
    if (attempt.reveal) {
      const signedIn = signedInSession(attempt.session);
      // prompt=login / max_age: "continue" carries this sign-in's freshness (sign-in-freshness.ts),
      // or GET /authorize would ask for the password again, in a loop.
      if (signedIn && asksForFreshSignIn(check.request)) {
        const hidden = {
          request: requestField,
          method: FRESH_CONTINUE_METHOD,
          fresh: sealFreshSignIn(sealing, signedIn, requestField),
        };
        const continuation = { form: { action: '/login', hidden }, csrfToken: attempt.session.csrfToken };
        return sendRecoveryCodes(pages, reply, attempt.reveal, continuation, target.formActions, target.language);
      }
      return sendRecoveryCodes(pages, reply, attempt.reveal, { href: next }, target.formActions, target.language);
    }
    if (!attempt.ok) return sendSignInForm(pages, reply, target, attempt.session, attempt.status, attempt.form);
    // prompt=login and max_age are met by this sign-in; GET /authorize, a second later, might ask again.
    if (asksForFreshSignIn(check.request)) return answerSignedIn(pages, reply, check.request, attempt.session, 303);
    return reply.code(303).header('cache-control', 'no-store').header('location', next).send();
  });
}

export const signInPage: BrowserPage = {
  name: 'sign-in',
  routes: [{ path: '/login', methods: ['POST'] }],
  serve: loginEndpoint,
};
