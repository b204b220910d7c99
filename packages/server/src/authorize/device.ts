import { PROBLEMS } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addressKey } from '../abuse/rate-limiter.js';
import { formParamsOf } from '../http/form.js';
import { DEVICE_VERIFICATION_PATH } from '../oauth/endpoints/device-authorization.js';
import { pendingDeviceAuthorization } from '../oauth/device/index.js';
import type { ClientRecord } from '../primitives/records.js';
import type { DeviceAuthorizationRecord } from '../store/device-repository.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import { clientLabel } from './client-label.js';
import { describeScope } from './consent.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import { renderDeviceConsentPage, renderDeviceDonePage, renderUserCodePage } from './device-pages.js';
import { viewOf, type AuthorizePages } from './flow.js';
import type { Alert } from '../html/layout.js';
import type { BrowserPage } from './page.js';
import { attemptSignIn, sendRecoveryCodes, sendSignInForm, waitInWords, type SignInTarget } from './sign-in-forms.js';
import { policyFor, secondFactorDueFor } from './step-up.js';
import { sendPage } from '../html/responses.js';
import { currentSession, signedInSubject, startSession } from './sessions.js';
import { amrOf, signedInSession, type SignedInSession } from './sign-in/state.js';

/** A user code the page accepted: its pending authorization and client. */
interface EnteredCode {
  readonly authorization: DeviceAuthorizationRecord;
  readonly client: ClientRecord;
  readonly userCode: string;
}

/**
 * The device page (RFC 8628 §3.3): the user types the code the device shows (or arrives with it in
 * `verification_uri_complete`, §3.3.1), signs in with the same form, limits and session as the
 * authorization code flow, and allows or denies on a consent page that repeats the code (§5.4).
 *
 * - GET /device: the code form, filled in from `?user_code=`; nothing is looked up.
 * - POST /device: the code checked; then the sign-in form, or the consent page when signed in.
 * - POST /device/login: the sign-in, then the consent page.
 * - POST /device/consent: the decision, recorded for the device's next poll.
 *
 * Every POST checks the code again (the forms carry it), within the `user_code_*` limits: every
 * attempt counts per address, and every wrong code too, audited; past the failure limit no code is
 * checked at all (§5.1).
 */
export function deviceEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, clock },
    cookies,
  } = pages;

  app.get(DEVICE_VERIFICATION_PATH, async (request, reply) => {
    const now = clock.now();
    const session = (await currentSession(store, request, now)) ?? (await startSession(store, reply, cookies, now));
    const query = request.query as Record<string, unknown>;
    const typed = typeof query.user_code === 'string' ? query.user_code.slice(0, 32) : '';
    const view = viewOf(pages, reply);
    return sendPage(reply, 200, renderUserCodePage(view, { csrfToken: session.csrfToken, userCode: typed }));
  });

  app.post(DEVICE_VERIFICATION_PATH, async (request, reply) => {
    const form = formParamsOf(request.body);
    const session = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const entered = await enterCode(pages, request, reply, session, form.get('user_code') ?? '');
    if ('sent' in entered) return entered.sent;
    return answerEnteredCode(pages, reply, entered, session);
  });

  app.post(`${DEVICE_VERIFICATION_PATH}/login`, async (request, reply) => {
    const form = formParamsOf(request.body);
    const session = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const entered = await enterCode(pages, request, reply, session, form.get('request') ?? '');
    if ('sent' in entered) return entered.sent;
    const target = deviceTarget(pages, entered);
    const attempt = await attemptSignIn(pages, request, reply, session, form, target);
    // The terms declined: the device's authorization is denied (RFC 8628 §3.5 access_denied).
    if ('declined' in attempt) {
      const denied = { status: 'denied', subject: attempt.subject ?? '' } as const;
      if (attempt.subject !== undefined)
        await store.decideDeviceAuthorization(entered.authorization.id, denied, clock.now());
      const view = viewOf(pages, reply, { here: DEVICE_VERIFICATION_PATH });
      return sendPage(reply, 200, renderDeviceDonePage(view, { client: clientLabel(entered.client), approved: false }));
    }
    // Recovery codes of an enrolment are shown once, whether the sign-in completed or a step is still due.
    if (attempt.reveal)
      return sendRecoveryCodes(pages, reply, attempt.reveal, {
        form: { action: DEVICE_VERIFICATION_PATH, hidden: { user_code: entered.userCode } },
        csrfToken: attempt.session.csrfToken,
      });
    if (!attempt.ok) return sendSignInForm(pages, reply, target, attempt.session, attempt.status, attempt.form);
    return sendDeviceConsentPage(pages, reply, entered, attempt.session);
  });

  app.post(`${DEVICE_VERIFICATION_PATH}/consent`, async (request, reply) => {
    const form = formParamsOf(request.body);
    const now = clock.now();
    const session = checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD));
    const entered = await enterCode(pages, request, reply, session, form.get('request') ?? '');
    if ('sent' in entered) return entered.sent;
    // Not signed in (any more): the sign-in form first, the code kept.
    const signedIn = signedInSession(session);
    // The grant the device code redeems names the user by its subject (OIDC Core §2).
    const subject = signedIn && (await signedInSubject(store, signedIn));
    if (!signedIn || subject === undefined) return sendDeviceLoginPage(pages, reply, entered, session, 200);
    // A session that owes the client's second factor answers nothing: the factor page first.
    const due = await secondFactorDueFor(pages.context, signedIn, deviceTarget(pages, entered).policy);
    if (due.kind !== 'none')
      return sendSignInForm(pages, reply, deviceTarget(pages, entered), session, 200, { kind: 'factor', due });
    const approved = form.get('decision') === 'allow';
    const decision = approved
      ? ({ status: 'approved', subject, authTime: signedIn.authenticatedAt, amr: amrOf(signedIn) } as const)
      : ({ status: 'denied', subject } as const);
    // A decision that lost a race with another (or with expiry) is a code no longer pending.
    if (!(await store.decideDeviceAuthorization(entered.authorization.id, decision, now)))
      return sendCodeRefused(pages, reply, session, entered.userCode);
    const view = viewOf(pages, reply, { here: DEVICE_VERIFICATION_PATH });
    return sendPage(reply, 200, renderDeviceDonePage(view, { client: clientLabel(entered.client), approved }));
  });
}

/**
 * Checks a typed user code within the limits. Answers the code form itself (400, or 429 with
 * Retry-After) when the code is refused; the caller then returns `sent`.
 */
async function enterCode(
  pages: AuthorizePages,
  request: FastifyRequest,
  reply: FastifyReply,
  session: BrowserSessionRecord,
  typed: string,
): Promise<EnteredCode | { readonly sent: FastifyReply }> {
  const { store, audit, clock, rateLimits } = pages.context;
  const now = clock.now();
  const address = addressKey(request.ip);
  const wait =
    (await rateLimits.consume([['user_code_address', address]])) ||
    (await rateLimits.peek([['user_code_failure_address', address]]));
  if (wait > 0) {
    reply.header('retry-after', String(wait));
    const alert: Alert = { slug: PROBLEMS.too_many_user_code_attempts.slug, text: waitInWords(wait) };
    const view = viewOf(pages, reply, { here: DEVICE_VERIFICATION_PATH });
    const page = renderUserCodePage(view, { csrfToken: session.csrfToken, userCode: typed.slice(0, 32), alert });
    return { sent: sendPage(reply, 429, page) };
  }
  const found = await pendingDeviceAuthorization(store, typed, now);
  const client = found.ok ? await store.findClient(found.authorization.clientId) : undefined;
  if (!found.ok || client === undefined) {
    await rateLimits.consume([['user_code_failure_address', address]]);
    const reason = found.ok ? 'unknown' : found.refusal;
    await audit.record({ event: 'user_code_failed', at: now, address: request.ip, reason });
    return { sent: sendCodeRefused(pages, reply, session, typed.slice(0, 32)) };
  }
  return { authorization: found.authorization, client, userCode: found.userCode };
}

function sendCodeRefused(
  pages: AuthorizePages,
  reply: FastifyReply,
  session: BrowserSessionRecord,
  typed: string,
): FastifyReply {
  const alert: Alert = { slug: PROBLEMS.user_code_invalid.slug, text: { id: 'device.alert.check' } };
  const view = viewOf(pages, reply, { here: DEVICE_VERIFICATION_PATH });
  return sendPage(reply, 400, renderUserCodePage(view, { csrfToken: session.csrfToken, userCode: typed, alert }));
}

/** Where the device page's switcher comes back to: the code form, filled in (RFC 8628 §3.3.1). */
const deviceHere = (userCode: string): string =>
  `${DEVICE_VERIFICATION_PATH}?${new URLSearchParams({ user_code: userCode })}`;

/** The device page's sign-in: its forms post to /device/login with the user code (RFC 8628 §3.3). */
function deviceTarget(pages: AuthorizePages, entered: EnteredCode): SignInTarget {
  return {
    client: clientLabel(entered.client),
    clientId: entered.client.id,
    form: { action: `${DEVICE_VERIFICATION_PATH}/login`, hidden: { request: entered.userCode } },
    formActions: [],
    policy: policyFor(pages.context, entered.client),
    language: { here: deviceHere(entered.userCode) },
  };
}

function sendDeviceLoginPage(
  pages: AuthorizePages,
  reply: FastifyReply,
  entered: EnteredCode,
  session: BrowserSessionRecord,
  status: number,
): Promise<FastifyReply> {
  return sendSignInForm(pages, reply, deviceTarget(pages, entered), session, status, { kind: 'password' });
}

/**
 * A code entered by a browser: the sign-in form when it is anonymous, the factor page when its
 * sign-in is pending or the client requires a second factor it did not do, else the consent page.
 */
async function answerEnteredCode(
  pages: AuthorizePages,
  reply: FastifyReply,
  entered: EnteredCode,
  session: BrowserSessionRecord,
): Promise<FastifyReply> {
  const target = deviceTarget(pages, entered);
  const due = await secondFactorDueFor(pages.context, session, target.policy);
  if (due.kind !== 'none') return sendSignInForm(pages, reply, target, session, 200, { kind: 'factor', due });
  const signedIn = signedInSession(session);
  if (!signedIn) return sendDeviceLoginPage(pages, reply, entered, session, 200);
  return sendDeviceConsentPage(pages, reply, entered, signedIn);
}

function sendDeviceConsentPage(
  pages: AuthorizePages,
  reply: FastifyReply,
  entered: EnteredCode,
  session: SignedInSession,
): FastifyReply {
  const view = viewOf(pages, reply, { here: deviceHere(entered.userCode) });
  const page = renderDeviceConsentPage(view, {
    client: clientLabel(entered.client),
    username: session.username,
    userCode: entered.userCode,
    scopes: entered.authorization.scope.map((name) => ({ name, words: describeScope(view.text, name) })),
    csrfToken: session.csrfToken,
  });
  return sendPage(reply, 200, page);
}

export const devicePage: BrowserPage = {
  name: 'device',
  routes: [
    { path: DEVICE_VERIFICATION_PATH, methods: ['GET', 'POST'] },
    { path: `${DEVICE_VERIFICATION_PATH}/login`, methods: ['POST'] },
    { path: `${DEVICE_VERIFICATION_PATH}/consent`, methods: ['POST'] },
  ],
  serve: deviceEndpoints,
};
