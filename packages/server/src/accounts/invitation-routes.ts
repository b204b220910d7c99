import { PROBLEMS, ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { viewOf, type AuthorizePages } from '../authorize/flow.js';
import type { BrowserPage } from '../authorize/page.js';
import { currentSession, signedInSubject, startSession } from '../authorize/sessions.js';
import { signedInSession } from '../authorize/sign-in/state.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import type { Alert, AlertText } from '../html/layout.js';
import { sendPage } from '../html/responses.js';
import { formParamsOf } from '../http/form.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { PasswordRefusal } from '../users/password-policy.js';
import { relyingPartyOf } from '../webauthn/index.js';
import {
  acceptAsMember,
  acceptNewAccount,
  acceptWithPasskey,
  passkeyOwnerOf,
  type AcceptanceOutcome,
} from './invitation-acceptance.js';
import { newAccountPasskeyOptions, recordPasskeyRefusal, sendNewAccountPage } from './new-account-passkey.js';
import { INVITATION_PATH, openInvitation, type OpenInvitation } from './invitation.js';
import { renderAccountMadePage, renderJoinedPage, renderMemberPage, renderNewAccountPage } from './invitation-pages.js';

const INVITATION_ACCEPT_PATH = `${INVITATION_PATH}/accept`;

const REFUSAL_TEXT: { readonly [R in PasswordRefusal]: AlertText } = {
  too_short: { id: 'reset.alert.too-short' },
  too_long: { id: 'reset.alert.too-long' },
  too_common: { id: 'reset.alert.too-common' },
};

/** A username the account may start with: the address when it is one a username can be. */
function suggestedUsername(email: string): string {
  const lower = email.toLowerCase();
  return /^[a-z0-9][a-z0-9._@-]{0,63}$/.test(lower) ? lower : '';
}

/** Where the person is invited: the organization's name, else this server's address. */
const whereOf = (pages: AuthorizePages, invitation: OpenInvitation): string =>
  invitation.organization?.name ?? pages.context.issuer;

/**
 * The invitation (docs/accounts.md, "Invitations"). GET /invitation?token=… opens the link
 * without using it: for an address no account has, the form of a username and a password (POST
 * makes the account, invitation-acceptance.ts); for an existing account, "sign in first", then
 * "Accept" once this browser is signed in as it (POST /invitation/accept).
 */
function invitationEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const { store, clock, audit } = pages.context;

  app.get(INVITATION_PATH, async (request, reply) => {
    const token = new URL(request.url, 'http://x').searchParams.get('token') ?? '';
    const now = clock.now();
    const invitation = await openInvitation(store, token, now);
    if (!invitation) throw new ProblemError('invitation_link_invalid');
    const current =
      (await currentSession(store, request, now)) ?? (await startSession(store, reply, pages.cookies, now));
    if (invitation.kind === 'new')
      return sendNewAccountForm(
        pages,
        reply,
        current,
        token,
        invitation,
        suggestedUsername(invitation.link.email),
        200,
      );
    const session = signedInSession(current);
    const subject = session && (await signedInSubject(store, session));
    const here = `${INVITATION_PATH}?${new URLSearchParams({ token })}`;
    const view = viewOf(pages, reply, { here, user: invitation.user?.claims.locale });
    const page = renderMemberPage(view, {
      csrfToken: current.csrfToken,
      token,
      where: whereOf(pages, invitation),
      username: invitation.user?.username ?? '',
      signedIn: subject === invitation.link.subject,
    });
    return sendPage(reply, 200, page);
  });

  app.post(INVITATION_PATH, async (request, reply) => {
    const form = formParamsOf(request.body);
    const current = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const token = form.get('token') ?? '';
    const username = (form.get('username') ?? '').slice(0, 256);
    const credential = form.get('credential') ?? '';
    const rp = relyingPartyOf(pages.context.issuer);
    const common = { secret: token, username, address: request.ip, now: clock.now() };
    // The passkey form posts a credential (webauthn/script.ts); the password form, a password.
    const outcome: AcceptanceOutcome =
      credential !== '' && rp !== undefined
        ? await acceptWithPasskey(audit, store, rp, { ...common, credential, sessionId: current.id })
        : await acceptNewAccount(audit, store, { ...common, password: form.get('password') ?? '' });
    switch (outcome.kind) {
      case 'invalid_link':
        throw new ProblemError('invitation_link_invalid');
      case 'password_refused': {
        const alert = { slug: PROBLEMS.password_not_accepted.slug, text: REFUSAL_TEXT[outcome.refusal] };
        return sendNewAccountForm(pages, reply, current, token, outcome.invitation, username, 422, alert);
      }
      case 'username_refused': {
        const alert: Alert =
          outcome.why === 'taken'
            ? { slug: PROBLEMS.conflict.slug, text: { id: 'invite.alert.username-taken' } }
            : { slug: PROBLEMS.invalid_field_value.slug, text: { id: 'invite.username-hint' } };
        const status = outcome.why === 'taken' ? PROBLEMS.conflict.status : PROBLEMS.invalid_field_value.status;
        return sendNewAccountForm(pages, reply, current, token, outcome.invitation, username, status, alert);
      }
      case 'passkey_refused':
        await recordPasskeyRefusal(audit, outcome.reason, request.ip, clock.now());
        throw new ProblemError('passkey_enrolment_failed');
      case 'done': {
        const view = viewOf(pages, reply, { here: '/account' });
        return sendPage(reply, 200, renderAccountMadePage(view, outcome.username, credential !== ''));
      }
    }
  });

  app.post(INVITATION_ACCEPT_PATH, async (request, reply) => {
    const form = formParamsOf(request.body);
    const now = clock.now();
    const current = checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD));
    const session = signedInSession(current);
    const subject = session && (await signedInSubject(store, session));
    const accepted =
      subject === undefined
        ? undefined
        : await acceptAsMember(audit, store, form.get('token') ?? '', subject, request.ip, now);
    if (!accepted) throw new ProblemError('invitation_link_invalid');
    const view = viewOf(pages, reply, { here: '/account', user: accepted.user?.claims.locale });
    return sendPage(reply, 200, renderJoinedPage(view, whereOf(pages, accepted)));
  });
}

async function sendNewAccountForm(
  pages: AuthorizePages,
  reply: FastifyReply,
  session: BrowserSessionRecord,
  token: string,
  invitation: OpenInvitation,
  username: string,
  status: number,
  alert?: Alert,
): Promise<FastifyReply> {
  const { issuer, store, clock } = pages.context;
  // The page's own URL holds the link's secret: the language switcher comes back to it.
  const here = `${INVITATION_PATH}?${new URLSearchParams({ token })}`;
  const view = viewOf(pages, reply, { here });
  // A passkey instead of a password (none where the issuer is an IP address): its challenge kept for this session.
  const passkeyOptions = await newAccountPasskeyOptions({
    store,
    issuer,
    owner: passkeyOwnerOf(invitation),
    sessionId: session.id,
    now: clock.now(),
    purpose: 'register',
  });
  const page = renderNewAccountPage(view, {
    csrfToken: session.csrfToken,
    token,
    where: whereOf(pages, invitation),
    email: invitation.link.email,
    username,
    alert,
    passkeyOptions,
  });
  return sendNewAccountPage(reply, status, page, passkeyOptions);
}

/** The invitation's entry in the pages table. */
export const invitationPage: BrowserPage = {
  name: 'invitation',
  routes: [
    { path: INVITATION_PATH, methods: ['GET', 'POST'] },
    { path: INVITATION_ACCEPT_PATH, methods: ['POST'] },
  ],
  serve: invitationEndpoints,
};
