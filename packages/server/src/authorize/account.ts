import type { FastifyInstance } from 'fastify';
import { ProblemError } from '@gatehouse/contract';
import { formParamsOf } from '../http/form.js';
import { describeScope } from './consent.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import { viewOf, type AuthorizePages } from './flow.js';
import type { BrowserPage } from './page.js';
import { renderAccountPage, noticeOf, type EmailView, type Notice } from './account-pages.js';
import type { UserRecord } from '../store/identity-repository.js';
import { localeClaimOf } from '../users/claims.js';
import { accountLanguageEndpoint } from './account-language.js';
import { accountSignInEndpoint, accountTarget, backToAccount, SECOND_FACTOR_CHANGES } from './account-security.js';
import { listFactors } from '../factors/factors.js';
import { sendSignInForm } from './sign-in-forms.js';
import { isFreshSignIn } from './sign-in-freshness.js';
import { secondFactorDueFor } from './step-up.js';
import { sendPageUnder } from '../html/responses.js';
import { passkeySection } from './passkey.js';
import { passkeySignInOptions } from './passkey-options.js';
import { renderPasskeySection } from './passkey-page.js';
import { renderSecuritySection } from './account-security-page.js';
import { currentSession, signedInSubject, startSession } from './sessions.js';
import { signedInSession } from './sign-in/state.js';
import { applicationsOf, removeApplication } from './account-applications.js';
import { clientLabel } from './client-label.js';
import { renderOwnDataSection } from './account-data-page.js';

/** The account page's e-mail section: shown when the user has an address and EMAIL_VERIFICATION is not off. */
function emailViewOf(pages: AuthorizePages, user: UserRecord | undefined, fresh: boolean): EmailView | undefined {
  const verification = pages.accountLinks?.emailVerification;
  const address = user?.claims.email;
  if (verification === undefined || pages.context.accounts.emailVerification === 'off' || address === undefined)
    return undefined;
  const change = pages.accountLinks?.emailChange;
  return { address, verified: user?.claims.email_verified === true, verification, change, fresh };
}

/**
 * GET /account: the applications holding a live grant of the signed-in user, one per client however
 * many times the user signed in to it (name, scopes in plain words, since when, last used). POST
 * /account/revoke removes one: every grant of the user that client holds is revoked, so their
 * refresh tokens are refused and their access tokens too (the API and userinfo read the grant on
 * every request).
 */
export function accountEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, audit, clock },
    base,
  } = pages;
  app.get('/account', async (request, reply) => {
    const now = clock.now();
    const current =
      (await currentSession(store, request, now)) ?? (await startSession(store, reply, pages.cookies, now));
    const session = signedInSession(current);
    const subject = session && (await signedInSubject(store, session));
    if (!session || subject === undefined) {
      // Not signed in: the same sign-in as the applications' (a pending one goes on at its factor).
      const target = accountTarget(pages.context);
      const due = await secondFactorDueFor(pages.context, current, target.policy);
      const form = due.kind === 'none' ? ({ kind: 'password' } as const) : ({ kind: 'factor', due } as const);
      return sendSignInForm(pages, reply, target, current, 200, form);
    }
    const applications = applicationsOf(await store.listAccountGrants(subject, now));
    const notice = await noticeFor(pages, new URL(request.url, 'http://x').searchParams, applications);
    // passkey: the user's passkeys, and "Add a passkey" after a fresh sign-in (passkey.ts).
    const passkeys = await passkeySection(pages, session, subject);
    const fresh = isFreshSignIn(session, now);
    // A stale sign-in of a user with a passkey may confirm it's them with it (the sign-in's own challenge).
    const confirmPasskeyOptions =
      fresh || passkeys.passkeys.length === 0 ? undefined : await passkeySignInOptions(pages, session);
    const user = await store.findUser(session.username);
    const locale = user && localeClaimOf(user);
    const view = viewOf(pages, reply, { user: locale, here: '/account' });
    const security = renderSecuritySection(view, {
      username: session.username,
      csrfToken: session.csrfToken,
      factors: await listFactors(store, subject),
      fresh,
      confirmPasskeyOptions,
    });
    const page = renderAccountPage(view, {
      username: session.username,
      csrfToken: session.csrfToken,
      applications: applications.map((a) => ({
        ...a,
        client: clientLabel({ id: a.clientId, name: a.clientName }),
        scopes: a.scopes.map((scope) => describeScope(view.text, scope)),
      })),
      linked: await linkedProviders(pages, session.username),
      email: emailViewOf(pages, user, fresh),
      ownData:
        pages.accountLinks?.ownData &&
        renderOwnDataSection(view, {
          paths: pages.accountLinks.ownData,
          csrfToken: session.csrfToken,
          username: session.username,
          fresh,
        }),
      passkeys: renderPasskeySection(view, session.csrfToken, passkeys, now),
      security,
      notice,
      locale,
      now,
    });
    reply.header('cache-control', 'no-store');
    const scripts = passkeys.creationOptions === undefined && confirmPasskeyOptions === undefined ? [] : ["'self'"];
    return sendPageUnder(reply, 200, page, { formAction: ["'self'"], scripts });
  });
  accountSignInEndpoint(app, pages);
  accountLanguageEndpoint(app, pages);
  app.post('/account/revoke', async (request, reply) => {
    const now = clock.now();
    const form = formParamsOf(request.body);
    const session = signedInSession(checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD)));
    const subject = session && (await signedInSubject(store, session));
    if (subject === undefined) throw new ProblemError('csrf_token_invalid');
    // A page served before applications were grouped names one grant: its client is removed.
    const grantId = form.get('grant_id');
    const clientId =
      form.get('client_id') ??
      (grantId === undefined
        ? undefined
        : (await store.listAccountGrants(subject, now)).find((g) => g.grant.id === grantId)?.grant.clientId);
    // Only the user's own grants are revoked: another's client or grant is answered as if unknown.
    if (clientId === undefined) return backToAccount(reply, base);
    await removeApplication(audit, { subject, clientId, now });
    const query = new URLSearchParams({ done: 'access_removed', client_id: clientId });
    return reply.code(303).header('location', `${base}/account?${query}`).header('cache-control', 'no-store').send();
  });
}

/** Federation: the upstream identities linked to the user, by their provider's name. */
async function linkedProviders({ context: { store }, upstreams }: AuthorizePages, username: string) {
  const names = new Map((await (upstreams?.list() ?? Promise.resolve([]))).map((u) => [u.id, u.displayName]));
  return (await store.listFederatedIdentitiesOf(username)).map((l) => ({
    issuer: l.issuer,
    subject: l.subject,
    providerName: names.get(l.providerId) ?? l.issuer,
    since: l.linkedAt,
  }));
}

/**
 * The notice of what the account page's last form did (`?done=`, account-pages.ts). A removal is
 * said, naming the application, only when the user holds none of its grants any more, so that a
 * link cannot make the page claim a removal that did not happen.
 */
async function noticeFor(
  { context: { store } }: AuthorizePages,
  query: URLSearchParams,
  applications: readonly { readonly clientId: string }[],
): Promise<Notice | undefined> {
  const done = query.get('done');
  if (done !== 'access_removed') return noticeOf(done ?? undefined);
  const clientId = query.get('client_id');
  const client = clientId === null ? undefined : await store.findClient(clientId);
  if (client === undefined || applications.some((a) => a.clientId === client.id)) return undefined;
  return noticeOf(done, clientLabel(client));
}

export const accountPage: BrowserPage = {
  name: 'account',
  routes: [
    { path: '/account', methods: ['GET'] },
    { path: '/account/revoke', methods: ['POST'] },
    { path: '/account/login', methods: ['POST'] },
    { path: '/account/language', methods: ['POST'] },
  ],
  serve: accountEndpoints,
  signInChanges: SECOND_FACTOR_CHANGES,
};
