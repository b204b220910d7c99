import { PROBLEMS, ProblemError, type ProblemCode } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addressKey, usernameKey, type Charge } from '../abuse/rate-limiter.js';
import { answerSignedIn } from '../authorize/consent.js';
import type { AuthorizationRequest } from '../oauth/authorization-requests/index.js';
import {
  answerRefusal,
  loadAuthorizationRequest,
  rawQuery,
  requestHints,
  viewOf,
  type AuthorizePages,
} from '../authorize/flow.js';
import { waitInWords } from '../authorize/sign-in-forms.js';
import type { BrowserPage } from '../authorize/page.js';
import type { SignInChange } from '../authorize/sign-in-changes.js';
import { currentSession, signIn } from '../authorize/sessions.js';
import { asksForFreshSignIn } from '../authorize/sign-in-freshness.js';
import { signedInSession } from '../authorize/sign-in/state.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import { renderErrorPage, type Alert } from '../html/layout.js';
import { redirectToClient, sendPage } from '../html/responses.js';
import { renderSignedOutPage } from '../authorize/account-pages.js';
import { formParamsOf } from '../http/form.js';
import type { KeyEncryption } from '../oauth/keys/index.js';
import { digestOf } from '../primitives/secrets.js';
import { isMultiFactorUpstreamAcr } from '../primitives/acr.js';
import type { AuthenticationMethodRecord, BrowserSessionRecord, UserRecord } from '../store/identity-repository.js';
import { renderContinuePage, renderLinkPage } from './federation-pages.js';
import { ICONS_PATH, serveUpstreamIcons } from './icon-route.js';
import { passkeyProofOptions, proveAccount } from './link-proof.js';
import { linkIdentity, mayUnlink, resolveLocalUser } from './linking.js';
import { listProviders, providerForEmail, type UpstreamProvider } from './providers.js';
import { upstreamOfEmail } from '../organizations/index.js';
import type { Repository } from '../store/repository.js';
import { completeUpstreamSignIn, upstreamAuthorizationUrl, type UpstreamIdentity } from './relying-party.js';
import { UpstreamFailure } from './upstream-failures.js';
import { finishTestSignIn, isTestSignInState } from './test-sign-in.js';
import type { FederationStateRecord } from '../store/federation-repository.js';

/** Where upstreams send the browser back; registered as the redirect URI at each upstream. */
export const CALLBACK_PATH = '/federation/callback';
/** An upstream sign-in must come back within this many seconds. */
const STATE_TTL = 10 * 60;
/** How long the upstream's ID token is kept for an upstream logout: a session's absolute lifetime. */
const UPSTREAM_SESSION_TTL = 12 * 60 * 60;

export interface FederationPages extends AuthorizePages {
  readonly encryption: KeyEncryption | undefined;
}

/** What a sign-in in flight keeps (the `state` itself is only its digest, the row's id). */
interface PendingUpstreamSignIn {
  readonly nonce: string;
  readonly verifier: string;
  readonly request: string;
  /** The request's ui_locales (OIDC Core §3.1.2.1): the pages after the upstream speak it too. */
  readonly uiLocales?: string;
}

/** A link awaiting the proof of the local account, its password or a passkey (id `link:<session id>`). */
interface PendingLink {
  readonly issuer: string;
  readonly subject: string;
  readonly username: string;
  readonly amr: readonly string[];
  /** The upstream's `acr`, when it sent one (absent in links pending before it was kept). */
  readonly acr?: string;
  readonly idToken: string;
  readonly request: string;
  readonly uiLocales?: string;
}

/** Where an upstream's logout returns the browser (RP-Initiated Logout 1.0 §3). */
export const SIGNED_OUT_PATH = '/federation/signed-out';
/** The session id a pending upstream logout's state row carries: it belongs to no browser session. */
export const LOGOUT_SESSION = 'logout';

/** A federated sign-in that answered prompt=login or max_age, until its continue page moves on (id `continue:<session id>`). */
interface PendingContinuation {
  readonly request: string;
  readonly authenticatedAt: number;
}

/** Where the continue page of a sign-in answering prompt=login or max_age goes (see continueFreshSignIn). */
const CONTINUE_PATH = '/federation/continue';

const linkStateId = (sessionId: string): string => `link:${sessionId}`;
const continuationId = (sessionId: string): string => `continue:${sessionId}`;
export const upstreamSessionId = (sessionId: string): string => `session:${sessionId}`;

/** A catalog page for a refusal of this flow, with "Try again" back to the sign-in page when useful. */
function sendFailurePage(
  pages: AuthorizePages,
  reply: FastifyReply,
  code: ProblemCode,
  detail: string | undefined,
  retryQuery: string | undefined,
  uiLocales?: string,
): FastifyReply {
  const { base } = pages;
  const p = PROBLEMS[code];
  reply.server.metrics?.countProblem(code);
  if (p.transient) reply.header('retry-after', '5');
  const hints =
    retryQuery === undefined ? {} : { requested: uiLocales, flow: retryQuery, here: `/authorize?${retryQuery}` };
  const page = renderErrorPage(viewOf(pages, reply, hints), {
    status: p.status,
    code: p.code,
    slug: p.slug,
    detail,
    retry: retryQuery === undefined ? undefined : `${base}/authorize?${retryQuery}`,
  });
  return sendPage(reply, p.status, page);
}

/** RFC 8176 values the upstream reported, kept when they look like registry tokens. */
function upstreamAmr(amr: readonly string[]): string[] {
  return amr.filter((v) => /^[a-z0-9_-]{1,32}$/i.test(v)).slice(0, 8);
}

/** The upstream's `acr` (OIDC Core §2, a string, usually a URI), kept when it is short printable text. */
function upstreamAcr(acr: string | undefined): string | undefined {
  return acr !== undefined && /^[\x21-\x7e]{1,255}$/.test(acr) ? acr : undefined;
}

/**
 * The methods a federated sign-in records: `fed` carrying the upstream's `acr`, the upstream's
 * `amr` values, and `mfa` when the provider's operator maps that `acr` as multi-factor
 * (`isMultiFactorUpstreamAcr`) and the upstream did not already say `mfa`.
 */
function federatedMethods(
  provider: UpstreamProvider,
  upstream: { readonly amr: readonly string[]; readonly acr?: string | undefined },
  now: number,
): AuthenticationMethodRecord[] {
  const acr = upstreamAcr(upstream.acr);
  const amr = upstreamAmr(upstream.amr);
  if (isMultiFactorUpstreamAcr(acr, provider.mfaAcrValues ?? []) && !amr.includes('mfa')) amr.push('mfa');
  return [
    { method: 'fed', at: now, upstream: provider.id, ...(acr === undefined ? {} : { acr }) },
    ...amr.map((method) => ({ method, at: now })),
  ];
}

/** The upstream of the organization whose verified domain the e-mail is at (docs/organizations.md), if any. */
async function organizationProvider(
  store: Repository,
  providers: readonly UpstreamProvider[],
  email: string,
): Promise<UpstreamProvider | undefined> {
  const id = await upstreamOfEmail(store, email);
  return id === undefined ? undefined : providers.find((p) => p.id === id);
}

/**
 * POST /federation/start: the sign-in page's federation form (CSRF token, the authorization request)
 * names a provider, or an e-mail whose domain picks one (home-realm discovery). The upstream
 * request's `state` is stored as a digest, bound to this browser session, single use, ten minutes.
 */
async function startUpstreamSignIn(pages: FederationPages, request: FastifyRequest, reply: FastifyReply) {
  const { store, clock, issuer } = pages.context;
  const now = clock.now();
  const form = formParamsOf(request.body);
  const session = checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD));
  const check = await loadAuthorizationRequest(pages.context, form.get('request') ?? '', request.ip);
  if (check.kind !== 'valid') return answerRefusal(pages, reply, check, 303);
  const providers = await listProviders(store, pages.encryption);
  const chosen = form.get('provider');
  const email = form.get('email')?.trim() || undefined;
  const provider =
    chosen !== undefined
      ? providers.find((p) => p.id === chosen)
      : email === undefined
        ? undefined
        : (providerForEmail(providers, email) ?? (await organizationProvider(store, providers, email)));
  if (!provider) throw new ProblemError('federation_no_provider');
  let started: Awaited<ReturnType<typeof upstreamAuthorizationUrl>>;
  try {
    started = await upstreamAuthorizationUrl(provider, `${issuer}${CALLBACK_PATH}`, email);
  } catch (error) {
    if (!(error instanceof UpstreamFailure)) throw error;
    request.log.warn({ upstream: provider.id, reason: error.reason }, 'upstream sign-in could not start');
    // The operator's own rule broken is said in full; an outage's network detail stays in the log.
    const detail = error.code === 'upstream_misconfigured' ? `${provider.id}: ${error.reason}` : undefined;
    return sendFailurePage(pages, reply, error.code, detail, check.request.query, check.request.oidc.uiLocales);
  }
  await store.deleteExpiredFederationStates(now);
  const pending: PendingUpstreamSignIn = {
    nonce: started.checks.nonce,
    verifier: started.checks.verifier,
    request: check.request.query,
    ...(check.request.oidc.uiLocales === undefined ? {} : { uiLocales: check.request.oidc.uiLocales }),
  };
  await store.insertFederationState({
    id: digestOf(started.checks.state),
    sessionId: session.id,
    providerId: provider.id,
    data: JSON.stringify(pending),
    expiresAt: now + STATE_TTL,
  });
  return reply.code(303).header('cache-control', 'no-store').header('location', started.url.href).send();
}

/**
 * GET /federation/callback (RFC 6749 §4.1.2): the state is taken (deleted as it is read: a replay
 * finds nothing) and must belong to this browser's session (RFC 6749 §10.12: the callback is bound
 * to the user-agent that started it), then openid-client checks the response and the ID token.
 * Every refusal is audited (`federation_refused`) and answered with its catalog page.
 */
async function finishUpstreamSignIn(pages: FederationPages, request: FastifyRequest, reply: FastifyReply) {
  const { store, clock, issuer, audit } = pages.context;
  const now = clock.now();
  const query = rawQuery(request.url);
  const state = new URLSearchParams(query).get('state');
  const session = await currentSession(store, request, now);
  const row = state ? await store.takeFederationState(digestOf(state), now) : undefined;
  const refuse = async (code: ProblemCode, reason: string, retry?: PendingUpstreamSignIn) => {
    await audit.record({ event: 'federation_refused', at: now, address: request.ip, reason: reason.slice(0, 200) });
    return sendFailurePage(pages, reply, code, reason, retry?.request, retry?.uiLocales);
  };
  // An operator's test sign-in signs nobody in: no browser session is needed or made (test-sign-in.ts).
  if (row && isTestSignInState(row)) return finishTest(pages, reply, row, query, state ?? '');
  if (!row || !session || row.sessionId !== session.id)
    return refuse(
      'federation_state_invalid',
      row ? 'state from another browser session' : 'unknown, used or expired state',
    );
  const pending = JSON.parse(row.data) as PendingUpstreamSignIn;
  const provider = (await listProviders(store, pages.encryption)).find((p) => p.id === row.providerId);
  if (!provider) return refuse('federation_no_provider', `provider ${row.providerId} removed`);
  let identity: UpstreamIdentity;
  try {
    identity = await completeUpstreamSignIn(provider, new URL(`${issuer}${CALLBACK_PATH}?${query}`), {
      state: state ?? '',
      nonce: pending.nonce,
      verifier: pending.verifier,
    });
  } catch (error) {
    if (!(error instanceof UpstreamFailure)) throw error;
    return refuse(error.code, `${provider.id}: ${error.reason}`, pending);
  }
  const resolution = await resolveLocalUser(store, audit, provider, identity, now);
  if (resolution.kind === 'no_account') return refuse('federation_no_account', `${provider.id}: ${resolution.reason}`);
  if (resolution.kind === 'prove') {
    const link: PendingLink = {
      issuer: identity.issuer,
      subject: identity.subject,
      username: resolution.candidate.username,
      amr: upstreamAmr(identity.amr),
      ...(upstreamAcr(identity.acr) === undefined ? {} : { acr: upstreamAcr(identity.acr) }),
      idToken: identity.idToken,
      request: pending.request,
      ...(pending.uiLocales === undefined ? {} : { uiLocales: pending.uiLocales }),
    };
    await store.insertFederationState({
      id: linkStateId(session.id),
      sessionId: session.id,
      providerId: provider.id,
      data: JSON.stringify(link),
      expiresAt: now + STATE_TTL,
    });
    return sendLinkPage(pages, reply, 200, session, link, provider);
  }
  const methods = federatedMethods(provider, identity, now);
  return completeSignIn(pages, reply, session, resolution.user, methods, {
    provider,
    idToken: identity.idToken,
    request: pending.request,
  });
}

/**
 * The callback of an operator's test sign-in: its result is stored for the operator (read through
 * the admin API), then a page moves on to the upstream's console page, where the console that
 * opened this window shows the result.
 */
async function finishTest(
  pages: FederationPages,
  reply: FastifyReply,
  row: FederationStateRecord,
  query: string,
  state: string,
): Promise<FastifyReply> {
  const { store, audit, clock, issuer } = pages.context;
  const provider = (await listProviders(store, pages.encryption)).find((p) => p.id === row.providerId);
  const callback = new URL(`${issuer}${CALLBACK_PATH}?${query}`);
  const done = await finishTestSignIn(store, audit, row, provider, callback, state, clock.now());
  const view = viewOf(pages, reply, { here: '/' });
  return sendPage(reply, 200, renderContinuePage(view, `${pages.base}/console/upstreams/${done.upstream}`));
}

/**
 * The session made from a federated sign-in: `amr` `fed` (RFC 8176 §2) with the upstream's own
 * `amr` values and its `acr` (with `mfa` when the provider maps that `acr` as multi-factor,
 * `federatedMethods`), so a client asking for `mfa` sees whether the upstream did it. Then on to the
 * authorization request, as after the password, where the sign-in pipeline's second-factor policy
 * applies (consent.ts `answerSignedIn`, step-up.ts): a client or server requiring a second factor,
 * or `acr_values=mfa`, asks the user's local second factor (or its enrolment) unless the upstream's
 * `amr` counts two factors (`isMultiFactorAmr`: `mfa`, or two values of its own). The upstream is
 * not a FIRST_FACTORS entry: its sign-in comes back on a redirect, not a form of the pipeline.
 */
async function completeSignIn(
  pages: FederationPages,
  reply: FastifyReply,
  session: BrowserSessionRecord,
  user: UserRecord,
  methods: readonly AuthenticationMethodRecord[],
  upstream: { readonly provider: UpstreamProvider; readonly idToken: string; readonly request: string },
): Promise<FastifyReply> {
  const { store, clock } = pages.context;
  const now = clock.now();
  const signed = await signIn(
    store,
    reply,
    pages.cookies,
    session,
    {
      status: 'signed_in',
      username: user.username,
      methods,
      authTime: now,
    },
    now,
  );
  if (upstream.provider.endSession)
    await store.insertFederationState({
      id: upstreamSessionId(signed.id),
      sessionId: signed.id,
      providerId: upstream.provider.id,
      data: JSON.stringify({ idToken: upstream.idToken }),
      expiresAt: now + UPSTREAM_SESSION_TTL,
    });
  const check = await loadAuthorizationRequest(pages.context, upstream.request, reply.request.ip);
  if (check.kind !== 'valid') return answerRefusal(pages, reply, check, 303);
  const signedIn = signedInSession(signed);
  if (signedIn && asksForFreshSignIn(check.request)) {
    // prompt=login / max_age: GET /authorize would ask for a sign-in again (OIDC Core §3.1.2.1), so
    // the page goes on to GET /federation/continue, which answers the request with this sign-in, once.
    const fresh: PendingContinuation = { request: check.request.query, authenticatedAt: signedIn.authenticatedAt };
    await store.insertFederationState({
      id: continuationId(signed.id),
      sessionId: signed.id,
      providerId: upstream.provider.id,
      data: JSON.stringify(fresh),
      expiresAt: now + STATE_TTL,
    });
    return continueTo(pages, reply, CONTINUE_PATH, check.request);
  }
  return continueTo(pages, reply, '/authorize', check.request);
}

/**
 * On to GET /authorize (or, for prompt=login and max_age, GET /federation/continue), by a page
 * rather than a redirect. The browser came here through the upstream's form (its sign-in or
 * consent), or our link form, and Chrome checks every redirect after a form against that form's
 * page's CSP `form-action` (CSP3 §6.3.1.1): an upstream that allows only itself and us would block
 * our redirect on to the client. A page that moves on (meta refresh, and a link) starts a new
 * navigation.
 */
function continueTo(pages: AuthorizePages, reply: FastifyReply, path: string, request: AuthorizationRequest) {
  const view = viewOf(pages, reply, requestHints(request));
  return sendPage(reply, 200, renderContinuePage(view, `${pages.base}${path}?${request.query}`));
}

/**
 * GET /federation/continue, where the continue page of a federated sign-in answering prompt=login
 * or max_age goes: that sign-in satisfies them once (OIDC Core §3.1.2.1), so the row completeSignIn
 * kept for this session and this sign-in is taken and its request answered (a code, the consent
 * page or a factor page, as after a password). Without it (used already, expired, or another
 * sign-in since), on to GET /authorize with the query, which decides (and asks for a sign-in).
 */
async function continueFreshSignIn(pages: FederationPages, request: FastifyRequest, reply: FastifyReply) {
  const { store, clock } = pages.context;
  const now = clock.now();
  const signedIn = signedInSession(await currentSession(store, request, now));
  const row = signedIn && (await store.takeFederationState(continuationId(signedIn.id), now));
  const fresh = row ? (JSON.parse(row.data) as PendingContinuation) : undefined;
  if (signedIn && fresh && fresh.authenticatedAt === signedIn.authenticatedAt) {
    const check = await loadAuthorizationRequest(pages.context, fresh.request, request.ip);
    if (check.kind !== 'valid') return answerRefusal(pages, reply, check, 302);
    return answerSignedIn(pages, reply, check.request, signedIn, 302);
  }
  return reply
    .code(302)
    .header('cache-control', 'no-store')
    .header('location', `${pages.base}/authorize?${rawQuery(request.url)}`)
    .send();
}

/** The page asking the owner of the account to prove it (its password, or a passkey when it has one). */
async function sendLinkPage(
  pages: FederationPages,
  reply: FastifyReply,
  status: number,
  session: BrowserSessionRecord,
  link: PendingLink,
  provider: UpstreamProvider,
  alert?: Alert,
): Promise<FastifyReply> {
  const { store, issuer, clock } = pages.context;
  const view = viewOf(pages, reply, { requested: link.uiLocales, flow: link.request, here: '/' });
  const page = renderLinkPage(view, {
    csrfToken: session.csrfToken,
    query: link.request,
    providerName: provider.displayName,
    passkeyOptions: await passkeyProofOptions(store, issuer, link.username, session.id, clock.now()),
    ...(alert === undefined ? {} : { alert }),
  });
  return sendPage(reply, status, page);
}

/**
 * POST /federation/link: the owner of the existing account proves it before the upstream identity
 * is linked to it, with its password or a passkey of its own with user verification (link-proof.ts).
 * Failures count against the same limits as the sign-in form and are audited as its failures are.
 */
async function proveAndLink(pages: FederationPages, request: FastifyRequest, reply: FastifyReply) {
  const { store, clock, audit, rateLimits, issuer } = pages.context;
  const now = clock.now();
  const form = formParamsOf(request.body);
  const session = checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD));
  const row = await store.takeFederationState(linkStateId(session.id), now);
  if (!row) throw new ProblemError('federation_state_invalid');
  const link = JSON.parse(row.data) as PendingLink;
  const provider = (await listProviders(store, pages.encryption)).find((p) => p.id === row.providerId);
  if (!provider) throw new ProblemError('federation_no_provider');
  const failureBuckets: Charge[] = [
    ['login_failure_user', usernameKey(link.username)],
    ['login_failure_address', addressKey(request.ip)],
  ];
  const again = async (status: 401 | 429, alert: Alert) => {
    await store.insertFederationState(row);
    return sendLinkPage(pages, reply, status, session, link, provider, alert);
  };
  const wait = await rateLimits.peek(failureBuckets);
  if (wait > 0) return again(429, { slug: PROBLEMS.too_many_login_attempts.slug, text: waitInWords(wait) });
  const proof = await proveAccount(store, issuer, {
    username: link.username,
    sessionId: session.id,
    field: (name) => form.get(name),
    now,
  });
  if (!proof.ok) {
    await rateLimits.consume(failureBuckets);
    await audit.record({
      event: 'login_failed',
      at: now,
      address: request.ip,
      reason: proof.failure,
      subject: link.username,
    });
    return proof.by === 'passkey'
      ? again(401, { slug: PROBLEMS.passkey_sign_in_failed.slug, text: { id: 'link.alert.passkey' } })
      : again(401, {
          slug: PROBLEMS.login_failed.slug,
          heading: { id: 'link.alert.wrong-password' },
          text: { id: 'link.alert.check' },
        });
  }
  await linkIdentity(store, audit, provider, link, proof.user, now, proof.how);
  const methods = [...proof.methods.map((method) => ({ method, at: now })), ...federatedMethods(provider, link, now)];
  return completeSignIn(pages, reply, session, proof.user, methods, {
    provider,
    idToken: link.idToken,
    request: link.request,
  });
}

/**
 * POST /account/unlink: removes one linked provider, unless it is the account's last way to sign in.
 * A change to how the user signs in, so behind the freshness rule (authorize/sign-in-changes.ts).
 */
const unlinkChange: SignInChange = {
  method: 'POST',
  path: '/account/unlink',
  change: 'federated_identity_unlink',
  async handle({ context: { store, audit }, base }, { reply, form, session, subject: userSubject, now }) {
    const user = await store.findUser(session.username);
    if (!user) throw new ProblemError('csrf_token_invalid');
    const issuer = form.get('issuer') ?? '';
    const subject = form.get('subject') ?? '';
    if (!(await mayUnlink(store, user, issuer, subject))) throw new ProblemError('federation_unlink_refused');
    if (await store.removeFederatedIdentity(user.username, issuer, subject))
      await audit.record({ event: 'federated_identity_unlinked', at: now, subject: userSubject, reason: issuer });
    return reply.code(303).header('location', `${base}/account`).header('cache-control', 'no-store').send();
  },
};

/**
 * GET /federation/signed-out: back from the upstream's logout. With the state Gatehouse sent, on to
 * the client's post-logout URI (checked when the logout was asked); otherwise the signed-out page.
 */
async function backFromUpstreamLogout(pages: FederationPages, request: FastifyRequest, reply: FastifyReply) {
  const { store, clock } = pages.context;
  const state = new URLSearchParams(rawQuery(request.url)).get('state');
  const row = state ? await store.takeFederationState(digestOf(state), clock.now()) : undefined;
  const returnTo =
    row?.sessionId === LOGOUT_SESSION
      ? (JSON.parse(row.data) as { returnTo?: { uri: string; state: string | undefined } }).returnTo
      : undefined;
  if (returnTo) return redirectToClient(reply, returnTo.uri, { state: returnTo.state }, 302);
  return sendPage(reply, 200, renderSignedOutPage(viewOf(pages, reply, { here: '/' })));
}

export function federationEndpoints(app: FastifyInstance, pages: FederationPages): void {
  serveUpstreamIcons(app, pages.context.store);
  app.get(SIGNED_OUT_PATH, async (request, reply) => backFromUpstreamLogout(pages, request, reply));
  app.post('/federation/start', async (request, reply) => startUpstreamSignIn(pages, request, reply));
  app.get(CALLBACK_PATH, async (request, reply) => finishUpstreamSignIn(pages, request, reply));
  app.post('/federation/link', async (request, reply) => proveAndLink(pages, request, reply));
  app.get(CONTINUE_PATH, async (request, reply) => continueFreshSignIn(pages, request, reply));
}

/** The pages table entry of federation (served on a context of its own, see federation/plugin.ts). */
export function federationPage(encryption: KeyEncryption | undefined): BrowserPage {
  return {
    name: 'federation',
    routes: [
      { path: '/federation/start', methods: ['POST'] },
      { path: CALLBACK_PATH, methods: ['GET'] },
      { path: '/federation/link', methods: ['POST'] },
      { path: CONTINUE_PATH, methods: ['GET'] },
      { path: SIGNED_OUT_PATH, methods: ['GET'] },
      { path: `${ICONS_PATH}/:id`, methods: ['GET'] },
    ],
    serve: (app, pages) => federationEndpoints(app, { ...pages, encryption }),
    signInChanges: [unlinkChange],
  };
}
