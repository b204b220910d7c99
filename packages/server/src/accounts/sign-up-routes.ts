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
import { newId } from '../primitives/ids.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { PasswordRefusal } from '../users/password-policy.js';
import { AfterAnswer } from './after-answer.js';
import type { EmailVerificationServices } from './email-verification.js';
import { newAccountPasskeyOptions, recordPasskeyRefusal, sendNewAccountPage } from './new-account-passkey.js';
import {
  chargeSignUp,
  checkSignUp,
  completeSignUp,
  SIGN_UP_PATH,
  signUpAllowed,
  type SignUpArrival,
  type SignUpCredential,
  type SignUpRefusal,
} from './sign-up.js';
import { checkSignUpPasskey, signUpMethodsOffered, signUpPasskeyOwner } from './sign-up-passkey.js';
import { domainList, renderSignUpPage, renderSignUpSentPage, type SignUpFormPage } from './sign-up-pages.js';

const PASSWORD_TEXT: { readonly [R in PasswordRefusal]: AlertText } = {
  too_short: { id: 'reset.alert.too-short' },
  too_long: { id: 'reset.alert.too-long' },
  too_common: { id: 'reset.alert.too-common' },
};

/** The alert of each refusal of the form: its catalog page and what to change. */
function refusalAlert(refusal: SignUpRefusal, domains: readonly string[]): { status: number; alert: Alert } {
  switch (refusal.kind) {
    case 'address':
      return {
        status: 422,
        alert: { slug: PROBLEMS.sign_up_address_not_accepted.slug, text: { id: 'sign-up.alert.address' } },
      };
    case 'domain': {
      const text: AlertText = { id: 'sign-up.alert.domain', values: { domains: domainList(domains) } };
      return { status: 422, alert: { slug: PROBLEMS.sign_up_address_not_accepted.slug, text } };
    }
    case 'name':
      return {
        status: 422,
        alert: { slug: PROBLEMS.sign_up_name_not_accepted.slug, text: { id: 'sign-up.alert.name' } },
      };
    case 'password':
      return {
        status: 422,
        alert: { slug: PROBLEMS.password_not_accepted.slug, text: PASSWORD_TEXT[refusal.refusal] },
      };
  }
}

/**
 * How the person arrived at the form: never invited. An invited person makes the account on the
 * invitation's own page (invitation-routes.ts), so SIGN_UP=invite refuses every form with its page.
 */
function arrivalOf(): SignUpArrival {
  return { invited: false };
}

/**
 * The sign-up (docs/accounts.md, "Signing up"), when SIGN_UP is not `off`. GET /sign-up shows the
 * form (linked from the sign-in page with its authorization request); POST checks it (the address,
 * its domain, the name, the password policy) and the rate limits, and a passkey made instead of a
 * password (sign-up-passkey.ts), then answers "Check your e-mail" at once, the same page whether the
 * address has an account or not; the account and its verification mail, or the owner's warning
 * mail, are made after the answer (sign-up.ts).
 */
function signUpEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const { context } = pages;
  const { store, clock } = context;
  const settings = context.accounts.signUp;
  const offered = signUpMethodsOffered(settings, context.issuer);
  const services: EmailVerificationServices = {
    store,
    audit: context.audit,
    mail: context.mail,
    languages: context.languages,
    rateLimits: context.rateLimits,
    issuer: context.issuer,
  };
  const afterAnswer = new AfterAnswer(app.log);
  app.addHook('onClose', () => afterAnswer.settled());

  /** SIGN_UP=off: no such page. `invite` without an invitation: the page that says so. */
  const refuseUnlessAllowed = (): void => {
    if (settings.mode === 'off') throw new ProblemError('not_found');
    if (!signUpAllowed(settings, arrivalOf())) throw new ProblemError('sign_up_needs_invitation');
  };

  type ShownForm = Omit<SignUpFormPage, 'domains' | 'password' | 'passkey'>;
  /** The form, with a passkey's options for a new subject (its challenge kept for this session) when it offers one. */
  const sendForm = async (
    reply: FastifyReply,
    session: BrowserSessionRecord,
    status: number,
    page: ShownForm,
  ): Promise<FastifyReply> => {
    const here = `${SIGN_UP_PATH}?${new URLSearchParams({ request: page.continuation })}`;
    const view = viewOf(pages, reply, { here });
    const subject = newId();
    const options =
      offered.passkey &&
      (await newAccountPasskeyOptions({
        store,
        issuer: context.issuer,
        owner: signUpPasskeyOwner(subject, page.email),
        sessionId: session.id,
        now: clock.now(),
        purpose: 'sign_up',
      }));
    const passkey = options ? { options, subject } : undefined;
    const html = renderSignUpPage(view, { ...page, domains: settings.domains, password: offered.password, passkey });
    return sendNewAccountPage(reply, status, html, options || undefined);
  };

  app.get(SIGN_UP_PATH, async (request, reply) => {
    refuseUnlessAllowed();
    const continuation = new URL(request.url, 'http://x').searchParams.get('request') ?? '';
    const now = clock.now();
    const session =
      (await currentSession(store, request, now)) ?? (await startSession(store, reply, pages.cookies, now));
    return sendForm(reply, session, 200, { csrfToken: session.csrfToken, continuation });
  });

  app.post(SIGN_UP_PATH, async (request, reply) => {
    refuseUnlessAllowed();
    const form = formParamsOf(request.body);
    const session = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const continuation = form.get('request') ?? '';
    // The passkey form posts a credential (webauthn/script.ts); the password form, a password.
    const credential = form.get('credential') ?? '';
    const rp = offered.passkey !== undefined && (credential !== '' || !offered.password) ? offered.passkey : undefined;
    const password = form.get('password') ?? '';
    const typed = {
      email: form.get('email') ?? '',
      name: form.get('name') ?? '',
      password: rp === undefined ? password : undefined,
    };
    const shown = { csrfToken: session.csrfToken, continuation, email: typed.email, name: typed.name };
    const checked = await checkSignUp(settings, typed);
    if (!('email' in checked)) {
      const { status, alert } = refusalAlert(checked, settings.domains);
      return sendForm(reply, session, status, { ...shown, alert });
    }
    const wait = await chargeSignUp(context.rateLimits, checked.domain, request.ip);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      return sendForm(reply, session, 429, {
        ...shown,
        alert: { slug: PROBLEMS.too_many_sign_ups.slug, text: waitInWords(wait) },
      });
    }
    let made: SignUpCredential = { kind: 'password', password };
    if (rp !== undefined) {
      const submission = { subject: form.get('subject') ?? '', credential, sessionId: session.id, now: clock.now() };
      const passkey = await checkSignUpPasskey(store, rp, submission);
      if (!passkey.ok) {
        // Nothing made, whether the address has an account or not; the form asks again with a new challenge.
        await recordPasskeyRefusal(context.audit, passkey.reason, request.ip, clock.now());
        const alert = { slug: PROBLEMS.passkey_enrolment_failed.slug, text: { id: 'sign-up.alert.passkey' } } as const;
        return sendForm(reply, session, PROBLEMS.passkey_enrolment_failed.status, { ...shown, alert });
      }
      made = { kind: 'passkey', passkey: passkey.passkey };
    }
    const view = viewOf(pages, reply, { here: `${SIGN_UP_PATH}?${new URLSearchParams({ request: continuation })}` });
    const signUp = {
      form: checked,
      credential: made,
      continuation,
      locale: view.text.locale,
      address: request.ip,
      now: clock.now(),
    };
    // Once the answer has left: whether the address has an account shows neither in the page nor in its timing.
    reply.raw.once('close', () => afterAnswer.run('a sign-up', () => completeSignUp(services, signUp)));
    return sendPage(reply, 200, renderSignUpSentPage(view, continuation));
  });
}

/** The sign-up's entry in the pages table. */
export const signUpPage: BrowserPage = {
  name: 'sign-up',
  routes: [{ path: SIGN_UP_PATH, methods: ['GET', 'POST'] }],
  serve: signUpEndpoints,
};
