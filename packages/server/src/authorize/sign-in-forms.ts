import { PROBLEMS, ProblemError } from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FormParams } from '../http/form.js';
import type { SignInFailure } from './sign-in/steps/index.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { SecondFactorPolicy } from '../primitives/records.js';
import type { AuthorizationRequest } from '../oauth/authorization-requests/index.js';
import { requestHints, viewOf, type AuthorizePages } from './flow.js';
import { withPresentation } from './client-presentation.js';
import type { Alert, AlertText } from '../html/layout.js';
import type { LanguageHints } from '../html/page-view.js';
import type { MessageId, PageLocale } from '../i18n/index.js';
import { renderLoginPage, type LoginPage } from './login-page.js';
import { EMAIL_CODE_RESEND, renderFactorPage, renderRecoveryCodesPage, type StepForm } from './factor-pages.js';
import { formActionSource, sendPageUnder } from '../html/responses.js';
import { passkeySecondFactorOptions, passkeySignInOptions } from './passkey-options.js';
import { relyingPartyOf } from '../webauthn/index.js';
import { signIn, startSession } from './sessions.js';
import { runSignInStep } from './sign-in/sign-in.js';
import type { SecondFactorDue } from './sign-in/second-factor-policy.js';
import { signedInSession, signInStateOf, type SignedInSession } from './sign-in/state.js';
import { beginOtpEnrolment, reopenOtpEnrolment } from '../factors/factors.js';
import { policyFor, requiredActionsOf, secondFactorDueFor } from './step-up.js';
import { TERMS_METHOD } from './sign-in/steps/index.js';
import { clientLabel, type ClientLabel } from './client-label.js';
import { allowedSignInWords, parsePolicy, type OrganizationPolicy, type SignInMethod } from '../organizations/index.js';
import type { PasskeySignInTarget } from './passkey-page.js';

/*
 * The sign-in forms of every page that signs a user in (POST /login, the passkey sign-in, the consent
 * step-up, the device page, the account page): what a sign-in is for, how its form is shown, how a
 * posted form is tried. Below those pages, so that consent.ts (a step-up shows a factor form) and the
 * routes that end in consent (login.ts, passkey.ts) do not import one another in a circle.
 */

/**
 * What a sign-in is for, as its forms need it: the client (its label and id, for the page and the
 * limits), where the forms post and what they carry, the CSP's extra `form-action` sources, and
 * the second-factor policy. The authorization code flow, the device page and the account page
 * each make one; the pipeline and the pages are the same.
 */
export interface SignInTarget {
  /** The client as the pages name it (client-label.ts); undefined: the account page's own sign-in. */
  readonly client: ClientLabel | undefined;
  readonly clientId: string;
  readonly form: StepForm;
  readonly formActions: readonly string[];
  readonly policy: SecondFactorPolicy;
  /** The sign-in page's last line; what comes after an authorization request's by default. */
  readonly finePrint?: MessageId;
  /** What the pages of this sign-in know of their language (the request's ui_locales, html/page-view.ts). */
  readonly language?: LanguageHints;
  /**
   * Whether the sign-in page offers the upstream identity providers beside the password
   * (federation/): only the authorization code flow's, as their routes load the authorization request.
   */
  readonly alternatives?: boolean;
  /** Where the sign-in page's passkey form posts (passkey.ts); none: no passkey sign-in offered. */
  readonly passkeySignIn?: PasskeySignInTarget;
  /**
   * The organization the request names (`organization`, by id or slug), known before the sign-in:
   * the sign-in page offers only the ways its policy allows (`sign_in_methods`, `upstream`).
   */
  readonly organization?: string;
}

/** The sign-in target of an authorization request (POST /login). */
export function authorizationTarget(pages: AuthorizePages, request: AuthorizationRequest): SignInTarget {
  return {
    client: clientLabel(request.client),
    clientId: request.client.id,
    form: { action: '/login', hidden: { request: request.query } },
    formActions: [formActionSource(request.redirectUri)].filter((s) => s !== undefined),
    policy: policyFor(pages.context, request.client, request.oidc.acrValues),
    alternatives: true,
    passkeySignIn: { action: '/login/passkey', hidden: { request: request.query } },
    language: requestHints(request),
    ...(request.organization === undefined ? {} : { organization: request.organization }),
  };
}

/**
 * The ways of signing in the sign-in page offers for `target`: every one, unless the request names an
 * organization whose policy limits them (docs/organizations.md). An organization the store does not
 * know limits nothing here: the consent step refuses it (organization_not_member) after the sign-in,
 * as it refuses a way the policy does not allow (organization_sign_in_method), whatever the page showed.
 */
async function offeredWays(
  pages: AuthorizePages,
  target: SignInTarget,
): Promise<{ readonly policy: OrganizationPolicy; readonly name: string } | undefined> {
  if (target.organization === undefined) return undefined;
  const organization = await pages.context.store.findOrganization(target.organization);
  return organization === undefined ? undefined : { policy: parsePolicy(organization.policy), name: organization.name };
}

/** The form a sign-in shows: the first factor's (the password), or a second factor's. */
export type SignInForm =
  | ({ readonly kind: 'password' } & Pick<LoginPage, 'username' | 'alert'>)
  | {
      readonly kind: 'factor';
      readonly due: Exclude<SecondFactorDue, { kind: 'none' }>;
      readonly alert?: LoginPage['alert'];
      /** An enrolment's sealed secret posted back: the same QR code again after a wrong code. */
      readonly enrolment?: string;
      /** The e-mail verification's "Send a new code" was answered: a new code is on its way. */
      readonly resent?: boolean;
    };

/** Sends a sign-in form of `target` for `session` (the first factor's, or a second factor's). */
export async function sendSignInForm(
  pages: AuthorizePages,
  reply: FastifyReply,
  target: SignInTarget,
  session: BrowserSessionRecord,
  status: number,
  form: SignInForm,
): Promise<FastifyReply> {
  const { context, upstreams } = pages;
  const view = viewOf(pages, reply, target.language);
  const client =
    target.client && (await withPresentation(context.store, target.clientId, target.client, view.text.locale));
  if (form.kind === 'password') {
    const limits = await offeredWays(pages, target);
    const allows = (method: SignInMethod) => limits === undefined || limits.policy.sign_in_methods.includes(method);
    // passkey: the page offers a passwordless sign-in with a challenge of its own (passkey-options.ts).
    const passkeySignIn = allows('passkey') ? target.passkeySignIn : undefined;
    // Federation: the upstream providers offered beside the password, the organization's own alone when it names one.
    const upstreamOffer =
      target.alternatives && upstreams && allows('federation')
        ? (await upstreams.list()).filter((u) => limits?.policy.upstream == null || u.id === limits.policy.upstream)
        : [];
    const passkeyOptions = passkeySignIn ? await passkeySignInOptions(pages, session) : undefined;
    // A page with no way of signing in is never shown: the organization's refusal at once.
    if (limits !== undefined && !allows('password') && passkeyOptions === undefined && upstreamOffer.length === 0)
      throw new ProblemError(
        'organization_sign_in_method',
        `${limits.name} allows signing in with ${allowedSignInWords(limits.policy)} only, ` +
          'and none of them is offered here.',
      );
    const page = renderLoginPage(view, {
      client,
      query: target.form.hidden.request ?? '',
      csrfToken: session.csrfToken,
      action: target.form.action,
      username: form.username,
      alert: form.alert,
      finePrint: target.finePrint,
      passwordReset: pages.accountLinks?.passwordReset,
      signUp: pages.accountLinks?.signUp,
      passwordForm: allows('password'),
      upstreams: upstreamOffer,
      passkey:
        passkeySignIn && passkeyOptions !== undefined ? { ...passkeySignIn, options: passkeyOptions } : undefined,
    });
    // The upstream providers' redirects' origins, for the page's CSP form-action.
    const upstreamOrigins = upstreamOffer.length > 0 && upstreams ? await upstreams.formTargets() : [];
    const formAction = ["'self'", ...target.formActions, ...upstreamOrigins];
    return sendPageUnder(reply, status, page, { formAction, scripts: passkeyOptions ? ["'self'"] : [] });
  }
  const username = session.username ?? '';
  const factors = context.signIn.factors;
  const enrolment =
    form.due.kind !== 'enrol'
      ? undefined
      : ((form.enrolment === undefined
          ? undefined
          : reopenOtpEnrolment(factors, session.id, form.enrolment, username)) ??
        beginOtpEnrolment(factors, session.id, username));
  // passkey: a second factor the user may choose, with a challenge for this session and user.
  const passkeyOptions =
    form.due.kind === 'choose' && form.due.factors.includes('passkey')
      ? await passkeySecondFactorOptions(pages, session)
      : undefined;
  // A user with no address cannot pass a required verification (the catalog's email_address_missing).
  const shownStatus = form.due.kind === 'verify_email' && form.due.email === undefined ? 403 : status;
  const page = renderFactorPage(view, {
    client,
    username,
    csrfToken: session.csrfToken,
    form: target.form,
    due: form.due,
    alert: form.alert,
    resent: form.resent,
    enrolment,
    passkeyOptions,
  });
  // The page shows a secret (enrolment) or asks one: never cached.
  reply.header('cache-control', 'no-store');
  return sendPageUnder(reply, shownStatus, page, {
    formAction: ["'self'", ...target.formActions],
    scripts: passkeyOptions ? ["'self'"] : [],
  });
}

/** A refused sign-in, in the metrics: by its reason, and as the catalog problem its page shows. */
function countSignInFailure(reply: FastifyReply, reason: SignInFailure, secondStep: boolean): void {
  reply.server.metrics?.countSignInFailure(reason);
  const problem =
    reason === 'rate_limited'
      ? 'too_many_login_attempts'
      : PASSWORD_REFUSALS.has(reason)
        ? 'password_not_accepted'
        : reason.startsWith('passkey_') && !secondStep
          ? 'passkey_sign_in_failed'
          : secondStep
            ? 'second_factor_failed'
            : 'login_failed';
  reply.server.metrics?.countProblem(problem);
}

/** A Retry-After wait as a page says it: "Try again in 30 seconds", or in minutes past a minute and a half. */
export function waitInWords(seconds: number): AlertText {
  return seconds < 90
    ? { id: 'sign-in.alert.wait-seconds', values: { seconds } }
    : { id: 'sign-in.alert.wait-minutes', values: { minutes: Math.ceil(seconds / 60) } };
}

/** The refusals of a temporary password's replacement: the password policy's, and the temporary one again. */
const PASSWORD_REFUSALS: ReadonlyMap<SignInFailure, AlertText> = new Map([
  ['password_too_short', { id: 'reset.alert.too-short' }],
  ['password_too_long', { id: 'reset.alert.too-long' }],
  ['password_too_common', { id: 'reset.alert.too-common' }],
  ['password_unchanged', { id: 'change-password.alert.unchanged' }],
] as const);

/** The status of a refused second step's page: a refused new password 422, terms changed meanwhile 409, else 401. */
function refusalStatus(failure: SignInFailure): 401 | 409 | 422 {
  if (PASSWORD_REFUSALS.has(failure)) return 422;
  return failure === 'terms_changed' ? 409 : 401;
}

/** What the factor page says about a refused second step (none for terms changed: the page shows the new version). */
function factorAlert(failure: SignInFailure): Alert | undefined {
  const password = PASSWORD_REFUSALS.get(failure);
  if (password) return { slug: PROBLEMS.password_not_accepted.slug, text: password };
  if (failure === 'terms_changed') return undefined;
  const slug = PROBLEMS.second_factor_failed.slug;
  if (failure === 'code_replayed') return { slug, text: { id: 'factor.alert.replayed' } };
  if (failure === 'wrong_recovery_code') return { slug, text: { id: 'factor.alert.wrong-recovery-code' } };
  if (failure === 'enrolment_refused') return { slug, text: { id: 'factor.alert.enrolment-refused' } };
  return { slug, text: { id: 'factor.alert.check' } };
}

/**
 * A sign-in form's outcome: signed in (with recovery codes to show once, after an enrolment), the
 * form to show, with the session to show it in (a new one when a step passed; recovery codes to
 * show first when an enrolment passed and a step is still due), or the terms declined: the sign-in
 * ended, and the page answers the request with `access_denied` where it has one.
 */
export type SignInAttempt =
  | { readonly ok: true; readonly session: SignedInSession; readonly reveal?: readonly string[] }
  | {
      readonly ok: false;
      readonly status: 200 | 401 | 409 | 422 | 429;
      readonly session: BrowserSessionRecord;
      readonly form: SignInForm;
      readonly reveal?: readonly string[];
    }
  | {
      readonly ok: false;
      readonly declined: true;
      /** The new, anonymous session. */
      readonly session: BrowserSessionRecord;
      /** The subject of the user who declined (a device authorization is denied for it). */
      readonly subject: string | undefined;
    };

/**
 * The HTTP side of a sign-in form for a target: the form handed to the sign-in pipeline
 * (sign-in/sign-in.ts) as plain data, then its result made a session (a new cookie at each step
 * passed), or a refusal counted in the metrics (by its reason, and as the catalog problem its page
 * shows) with its Retry-After. An unknown user and a wrong password get the same 401. Shared by the
 * authorization code flow, the device page and the account page.
 */
export async function attemptSignIn(
  pages: AuthorizePages,
  request: FastifyRequest,
  reply: FastifyReply,
  session: BrowserSessionRecord,
  form: Pick<FormParams, 'get'>,
  target: SignInTarget,
): Promise<SignInAttempt> {
  const { store, audit, clock, rateLimits, signIn: settings } = pages.context;
  const now = clock.now();
  const method = form.get('method') ?? 'password';
  const locale = viewOf(pages, reply, target.language).text.locale;
  if (method === EMAIL_CODE_RESEND) return resendEmailCode(pages, request, reply, session, target, locale, now);
  if (method === TERMS_METHOD && form.get('decision') !== 'accept')
    return declineTerms(pages, request, reply, session, target, now);
  const result = await runSignInStep(
    {
      store,
      rateLimits,
      audit,
      factors: settings.factors,
      relyingParty: relyingPartyOf(pages.context.issuer),
      actions: requiredActionsOf(pages.context.accounts),
      emailCodes: pages.emailCodes,
    },
    {
      state: signInStateOf(session),
      sessionId: session.id,
      field: (name) => form.get(name),
      address: request.ip,
      clientId: target.clientId,
      policy: target.policy,
      now,
    },
  );
  const secondStep = method !== 'password';
  switch (result.kind) {
    case 'stale':
      throw new ProblemError('csrf_token_invalid');
    case 'rate_limited': {
      countSignInFailure(reply, 'rate_limited', secondStep);
      reply.header('retry-after', String(result.retryAfter));
      const alert = { slug: PROBLEMS.too_many_login_attempts.slug, text: waitInWords(result.retryAfter) };
      const due = secondStep ? await pendingDue(pages, session, target) : undefined;
      const shown: SignInForm = due
        ? { kind: 'factor', due, alert }
        : { kind: 'password', username: result.username, alert };
      return { ok: false, status: 429, session, form: shown };
    }
    case 'refused': {
      countSignInFailure(reply, result.failure, secondStep);
      if (secondStep && result.due)
        return {
          ok: false,
          status: refusalStatus(result.failure),
          session,
          form: {
            kind: 'factor',
            due: result.due,
            alert: factorAlert(result.failure),
            enrolment: form.get('enrolment'),
          },
        };
      // A refused passkey has its own message; it does not reveal whose it is.
      const passkey = result.failure.startsWith('passkey_');
      const { slug } = PROBLEMS[passkey ? 'passkey_sign_in_failed' : 'login_failed'];
      const alert: Alert = { slug, text: { id: passkey ? 'sign-in.alert.passkey' : 'sign-in.alert.check' } };
      return { ok: false, status: 401, session, form: { kind: 'password', username: result.username, alert } };
    }
    case 'pending': {
      const pending = await signIn(store, reply, pages.cookies, session, result.state, now);
      // Arriving at the e-mail verification: a code is mailed now (from the outbox).
      const alert =
        result.due.kind === 'verify_email' && result.due.email !== undefined
          ? await mailEmailCode(pages, request, result.state.username, locale, now)
          : undefined;
      const shown: SignInForm = { kind: 'factor', due: result.due, alert };
      return {
        ok: false,
        status: 200,
        session: pending,
        form: shown,
        ...(result.reveal ? { reveal: result.reveal } : {}),
      };
    }
    case 'signed_in': {
      const signedIn = signedInSession(await signIn(store, reply, pages.cookies, session, result.state, now));
      if (!signedIn) throw new Error('a completed sign-in made no signed-in session');
      return { ok: true, session: signedIn, ...(result.reveal ? { reveal: result.reveal } : {}) };
    }
  }
}

/**
 * Mails a pending user the code of its e-mail verification (rate limited per account, as the
 * account page's mail): nothing to say when sent, the wait when too many were asked for.
 */
async function mailEmailCode(
  pages: AuthorizePages,
  request: FastifyRequest,
  username: string,
  locale: PageLocale,
  now: number,
): Promise<Alert | undefined> {
  const user = await pages.context.store.findUser(username);
  if (!user || !pages.emailCodes) return undefined;
  const sent = await pages.emailCodes.send(user, { locale, address: request.ip, now });
  if (sent.kind !== 'rate_limited') return undefined;
  return { slug: PROBLEMS.too_many_login_attempts.slug, text: waitInWords(sent.retryAfter) };
}

/** "Send a new code" on the e-mail verification page: only for a session stopped at it. */
async function resendEmailCode(
  pages: AuthorizePages,
  request: FastifyRequest,
  reply: FastifyReply,
  session: BrowserSessionRecord,
  target: SignInTarget,
  locale: PageLocale,
  now: number,
): Promise<SignInAttempt> {
  const due = await pendingDue(pages, session, target);
  if (due?.kind !== 'verify_email' || due.email === undefined || session.username === null)
    throw new ProblemError('csrf_token_invalid');
  const refused = await mailEmailCode(pages, request, session.username, locale, now);
  if (refused === undefined) return { ok: false, status: 200, session, form: { kind: 'factor', due, resent: true } };
  reply.server.metrics?.countProblem('too_many_login_attempts');
  return { ok: false, status: 429, session, form: { kind: 'factor', due, alert: refused } };
}

/**
 * "Decline" on the terms page: only for a session stopped at it. The sign-in ends: audited
 * `terms_declined`, the pending session dropped and an anonymous one begun (a new cookie), so
 * that nothing of the sign-in is left; the page answers the request as declined.
 */
async function declineTerms(
  pages: AuthorizePages,
  request: FastifyRequest,
  reply: FastifyReply,
  session: BrowserSessionRecord,
  target: SignInTarget,
  now: number,
): Promise<SignInAttempt> {
  const { store, audit } = pages.context;
  const due = await pendingDue(pages, session, target);
  if (due?.kind !== 'accept_terms' || session.username === null) throw new ProblemError('csrf_token_invalid');
  const user = await store.findUser(session.username);
  await audit.record({
    event: 'terms_declined',
    at: now,
    subject: user?.subject ?? null,
    clientId: target.clientId,
    address: request.ip,
    reason: `version ${due.version}`,
  });
  await store.deleteBrowserSession(session.id);
  const fresh = await startSession(store, reply, pages.cookies, now);
  return { ok: false, declined: true, session: fresh, subject: user?.subject };
}

/** The factor a session was asked for, when a second step is under way. */
async function pendingDue(
  pages: AuthorizePages,
  session: BrowserSessionRecord,
  target: SignInTarget,
): Promise<Exclude<SecondFactorDue, { kind: 'none' }> | undefined> {
  const due = await secondFactorDueFor(pages.context, session, target.policy);
  return due.kind === 'none' ? undefined : due;
}

/** The recovery codes made by an enrolment, shown once; the button goes on to `next`. */
export function sendRecoveryCodes(
  pages: AuthorizePages,
  reply: FastifyReply,
  codes: readonly string[],
  next: { readonly href: string } | { readonly form: StepForm; readonly csrfToken: string },
  formActions: readonly string[] = [],
  language: LanguageHints = {},
): FastifyReply {
  reply.header('cache-control', 'no-store');
  // The codes are shown once: the switcher comes back to the page after them, not to them.
  const view = viewOf(pages, reply, { ...language, here: 'href' in next ? next.href.slice(pages.base.length) : '/' });
  const page =
    'href' in next
      ? renderRecoveryCodesPage(view, { codes, next: next.href })
      : renderRecoveryCodesPage(view, { codes, next: '', form: next.form, csrfToken: next.csrfToken });
  return sendPageUnder(reply, 200, page, { formAction: ["'self'", ...formActions] });
}

/** Sends the sign-in page of a request; its form may lead (by redirects) to the client. */
export function sendLoginPage(
  pages: AuthorizePages,
  reply: FastifyReply,
  request: AuthorizationRequest,
  session: BrowserSessionRecord,
  status: number,
  extra: Pick<LoginPage, 'username' | 'alert'> = {},
): Promise<FastifyReply> {
  return sendSignInForm(pages, reply, authorizationTarget(pages, request), session, status, {
    kind: 'password',
    ...extra,
  });
}
