import type { FastifyInstance, FastifyReply } from 'fastify';
import { OAuthError, ProblemError } from '@gatehouse/contract';
import { formParamsOf } from '../http/form.js';
import { createAuthorizationCode } from '../oauth/tokens/index.js';
import { isScopeSubset } from '../oauth/tokens/index.js';
import type { AuthorizationRequest } from '../oauth/authorization-requests/index.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import {
  answerRefusal,
  answerWithError,
  loadAuthorizationRequest,
  requestHints,
  viewOf,
  type AuthorizePages,
} from './flow.js';
import { renderConsentPage } from './consent-page.js';
import { presentedClient } from './client-presentation.js';
import { clientLabel } from './client-label.js';
import type { BrowserPage } from './page.js';
import type { MessageId, PageText } from '../i18n/index.js';
import { escapeHtml } from '../html/layout.js';
import { answerClient } from '../html/authorization-response.js';
import { formActionSource, sendPage } from '../html/responses.js';
import { currentSession } from './sessions.js';
import { localeClaimOf } from '../users/claims.js';
import { authorizationTarget, sendSignInForm } from './sign-in-forms.js';
import { secondFactorDueFor } from './step-up.js';
import { amrOf, signedInSession, type SignedInSession } from './sign-in/state.js';
import {
  allowedSignInWords,
  allowsSignIn,
  chooseOrganization,
  joinByVerifiedDomain,
  type OrganizationChoice,
} from '../organizations/index.js';
import type { UserRecord } from '../store/identity-repository.js';
import type { SecondFactorPolicy } from '../primitives/records.js';
import { renderOrganizationChooserPage } from './organization-chooser-page.js';

/** The scopes of OpenID Connect (OIDC Core §5.4, §11) in plain words. */
const SCOPE_WORDS: Readonly<Record<string, MessageId>> = {
  openid: 'scope.openid',
  profile: 'scope.profile',
  email: 'scope.email',
  offline_access: 'scope.offline-access',
};

/**
 * A scope in plain words for the consent and account pages, as HTML. The REST API's scopes are
 * `{collection}:read|write`, so every collection the OpenAPI document declares reads well (its name
 * as the document has it); anything else is shown as its name.
 */
export function describeScope(text: PageText, scope: string): string {
  const known = SCOPE_WORDS[scope];
  if (known !== undefined) return text.t(known);
  const match = /^([a-z][a-z0-9_-]*):(read|write)$/.exec(scope);
  if (!match) return escapeHtml(scope);
  const things = (match[1] as string).replace(/[_-]+/g, ' ');
  return text.t(match[2] === 'read' ? 'scope.read' : 'scope.write', { things });
}

/**
 * Consent is remembered per grant: a user who holds a live (not revoked, not expired) grant of this
 * client covering the requested scope is not asked again. Once that grant is revoked, they are.
 */
async function hasRememberedConsent(
  { context: { store, clock } }: AuthorizePages,
  request: AuthorizationRequest,
  subject: string,
  organizationId: string | undefined,
): Promise<boolean> {
  const grants = await store.listLiveGrants(request.client.id, subject, clock.now());
  // Consent given for one organization is not consent for another (or for none).
  return grants.some(
    (grant) => isScopeSubset(request.scope, grant.scope) && (grant.organizationId ?? undefined) === organizationId,
  );
}

/**
 * Answers the client with a new authorization code (RFC 6749 §4.1.2): single use, living
 * AUTHORIZATION_CODE_TTL (60 s by default; at most 60 s for a fapi2 client), bound to the client, the
 * redirect URI and the PKCE challenge; the grant is made when it is exchanged, for the user's `subject`.
 */
async function issueCode(
  pages: AuthorizePages,
  reply: FastifyReply,
  request: AuthorizationRequest,
  { session, subject }: SignedInUser,
  status: 302 | 303,
  organizationId: string | undefined,
): Promise<FastifyReply> {
  const { store, clock, issuer, authorizationCodeTtl } = pages.context;
  const code = await createAuthorizationCode(store, {
    client: request.client,
    subject,
    scope: request.scope,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    now: clock.now(),
    lifetime: authorizationCodeTtl,
    nonce: request.oidc.nonce,
    authTime: session.authenticatedAt,
    amr: amrOf(session),
    dpopJkt: request.dpopJkt,
    organizationId,
  });
  const view = () => viewOf(pages, reply, requestHints(request));
  return answerClient(reply, view, request, { code, state: request.state, iss: issuer }, status);
}

/** A signed-in session with its user's subject and `locale` claim. */
interface SignedInUser {
  readonly session: SignedInSession;
  readonly subject: string;
  readonly locale: string | undefined;
  readonly record: UserRecord;
}

/** The session's user, or, when it was removed meanwhile, the flow again from its start (the sign-in page). */
async function signedInUser(
  pages: AuthorizePages,
  reply: FastifyReply,
  request: AuthorizationRequest,
  session: SignedInSession,
): Promise<SignedInUser | { readonly sent: FastifyReply }> {
  const user = await pages.context.store.findUser(session.username);
  if (user !== undefined) return { session, subject: user.subject, locale: localeClaimOf(user), record: user };
  return { sent: reply.code(303).header('location', `${pages.base}/authorize?${request.query}`).send() };
}

/**
 * The organization of a request for a signed-in user (docs/organizations.md): first the user joins
 * the organization of its verified e-mail domain, if any (JIT membership); then the one the request
 * names, the user's only one, or a choice. A request naming an organization the user is not a member
 * of (or none that exists) is refused on a page, never sent to the client with the reason; so is
 * a sign-in made in a way the chosen organization's policy does not allow (`sign_in_methods`).
 */
async function organizationOf(pages: AuthorizePages, request: AuthorizationRequest, user: SignedInUser) {
  const { store, audit, clock } = pages.context;
  await joinByVerifiedDomain(store, audit, user.record, clock.now());
  const choice = await chooseOrganization(store, user.subject, {
    requested: request.organization,
    scope: request.scope,
  });
  if (choice.kind === 'not_member') throw new ProblemError('organization_not_member');
  if (choice.kind === 'chosen' && !allowsSignIn(choice.policy, user.session.methods ?? []))
    throw new ProblemError(
      'organization_sign_in_method',
      `${choice.organization.name} allows signing in with ${allowedSignInWords(choice.policy)} only; ` +
        'sign out and sign in again with one of them.',
    );
  return choice;
}

/** The second-factor policy of the request, raised to `required` by its organization's policy. */
function withOrganizationPolicy(policy: SecondFactorPolicy, choice: OrganizationChoice): SecondFactorPolicy {
  return choice.kind === 'chosen' && choice.policy.second_factor === 'required' ? 'required' : policy;
}

/** The chooser: each organization of the user, as the request again with its `organization`. */
function sendOrganizationChooser(
  pages: AuthorizePages,
  reply: FastifyReply,
  request: AuthorizationRequest,
  user: SignedInUser,
  choice: Extract<OrganizationChoice, { kind: 'choose' }>,
): FastifyReply {
  const view = viewOf(pages, reply, requestHints(request, user.locale));
  const page = renderOrganizationChooserPage(view, {
    client: clientLabel(request.client),
    username: user.session.username,
    organizations: choice.organizations.map((o) => ({
      name: o.name,
      href: `${pages.base}/authorize?${request.query}&${new URLSearchParams({ organization: o.slug })}`,
    })),
  });
  return sendPage(reply, 200, page);
}

/** /authorize for a signed-in browser: a code at once if consent is remembered, else the consent page. */
export async function answerSignedIn(
  pages: AuthorizePages,
  reply: FastifyReply,
  request: AuthorizationRequest,
  session: SignedInSession,
  status: 302 | 303 = 302,
): Promise<FastifyReply> {
  const { prompt } = request.oidc;
  const user = await signedInUser(pages, reply, request, session);
  if ('sent' in user) return user.sent;
  const choice = await organizationOf(pages, request, user);
  if (choice.kind === 'choose') {
    // OIDC Core §3.1.2.6: choosing is an interaction, which prompt=none cannot have.
    if (prompt.has('none'))
      return answerWithError(pages, reply, request, new OAuthError('interaction_required'), status);
    return sendOrganizationChooser(pages, reply, request, user, choice);
  }
  const organization = choice.kind === 'chosen' ? choice.organization : undefined;
  // Step-up (OIDC Core §3.1.2.1 acr_values, a client or an organization requiring a second factor):
  // the factor page, not the password again. prompt=none cannot show it (§3.1.2.6 interaction_required).
  const target = authorizationTarget(pages, request);
  const due = await secondFactorDueFor(pages.context, session, withOrganizationPolicy(target.policy, choice));
  if (due.kind !== 'none') {
    if (prompt.has('none'))
      return answerWithError(pages, reply, request, new OAuthError('interaction_required'), status);
    return sendSignInForm(pages, reply, target, session, 200, { kind: 'factor', due });
  }
  // OIDC Core §3.1.2.1: prompt=consent asks again even when consent is remembered.
  if (!prompt.has('consent') && (await hasRememberedConsent(pages, request, user.subject, organization?.id)))
    return issueCode(pages, reply, request, user, status, organization?.id);
  // prompt=none never shows a page: the consent it would need goes back as an error (§3.1.2.6).
  if (prompt.has('none')) return answerWithError(pages, reply, request, new OAuthError('consent_required'), status);
  const view = viewOf(pages, reply, requestHints(request, user.locale));
  const page = renderConsentPage(view, {
    client: await presentedClient(pages.context.store, request.client, view.text.locale),
    destination: destinationOf(request.redirectUri),
    username: session.username,
    organization: organization?.name,
    scopes: request.scope.map((name) => ({ name, words: describeScope(view.text, name) })),
    query: request.query,
    csrfToken: session.csrfToken,
    // RFC 7591 §5: a dynamically registered client was vetted by nobody; the user is told so.
    selfRegistered: (await pages.context.store.findClientRegistration(request.client.id)) !== undefined,
  });
  return sendPage(reply, 200, page, [formActionSource(request.redirectUri)]);
}

function destinationOf(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.host === '' ? `${url.protocol}${url.pathname}` : url.host;
}

/**
 * POST /consent: CSRF token, the request checked again, then the user's decision. Allow answers the
 * client with a code, anything else with `access_denied` (RFC 6749 §4.1.2.1); 303 either way.
 */
export function consentEndpoint(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, clock },
    base,
  } = pages;
  app.post('/consent', async (request, reply) => {
    const form = formParamsOf(request.body);
    const session = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const check = await loadAuthorizationRequest(pages.context, form.get('request') ?? '', request.ip);
    if (check.kind !== 'valid') return answerRefusal(pages, reply, check, 303);
    const authorization = check.request;
    // Not signed in (any more): back to the start of the flow, which shows the sign-in page.
    const signedIn = signedInSession(session);
    if (!signedIn) return reply.code(303).header('location', `${base}/authorize?${authorization.query}`).send();
    if (form.get('decision') !== 'allow')
      return answerWithError(pages, reply, authorization, new OAuthError('consent_denied'), 303);
    const user = await signedInUser(pages, reply, authorization, signedIn);
    if ('sent' in user) return user.sent;
    const choice = await organizationOf(pages, authorization, user);
    // A consent form posted by a session that still owes a second factor (or a choice of organization,
    // one joined since the page was shown): back to /authorize, which asks it.
    const policy = withOrganizationPolicy(authorizationTarget(pages, authorization).policy, choice);
    if (choice.kind === 'choose' || (await secondFactorDueFor(pages.context, signedIn, policy)).kind !== 'none')
      return reply.code(303).header('location', `${base}/authorize?${authorization.query}`).send();
    return issueCode(
      pages,
      reply,
      authorization,
      user,
      303,
      choice.kind === 'chosen' ? choice.organization.id : undefined,
    );
  });
}

export const consentPage: BrowserPage = {
  name: 'consent',
  routes: [{ path: '/consent', methods: ['POST'] }],
  serve: consentEndpoint,
};
