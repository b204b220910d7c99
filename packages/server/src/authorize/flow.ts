import { OAuthError, ProblemError } from '@gatehouse/contract';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../context.js';
import { authorizationSource } from '../oauth/authorization-requests/index.js';
import {
  checkAuthorizationRequest,
  clientIdOf,
  type AuthorizationRequestCheck,
} from '../oauth/authorization-requests/index.js';
import type { BasePath } from '../html/layout.js';
import { answerClient, type ResponseDestination } from '../html/authorization-response.js';
import { pageView, type LanguageHints, type PageView } from '../html/page-view.js';
import type { ErrorPageHints } from '../html/responses.js';
import { formParamsOf } from '../http/form.js';
import type { AuthorizationRequest } from '../oauth/authorization-requests/index.js';
import type { CookiePolicy } from '../http/cookies.js';
import type { UpstreamChoice } from './login-page.js';
import type { OwnDataPaths } from './account-data-page.js';
import { ORGANIZATION_SCOPE } from '../organizations/index.js';
import type { EmailCodes } from './sign-in/steps/index.js';

/** What the routes of the authorization pages share, passed to each explicitly. */
export interface AuthorizePages {
  readonly context: ServerContext;
  readonly base: BasePath;
  readonly cookies: CookiePolicy;
  /** Federation: the upstream providers the sign-in page offers (passed in by app.ts; none when absent). */
  readonly upstreams?: UpstreamDirectory;
  /** Self-service accounts: the paths the sign-in page links to (passed in by app.ts; none when absent). */
  readonly accountLinks?: AccountLinks;
  /** The mailed code of EMAIL_VERIFICATION=required's sign-in step (accounts/, passed in by app.ts). */
  readonly emailCodes?: EmailCodes;
}

/** The pages of accounts/ (above this folder) that the sign-in page links to. */
export interface AccountLinks {
  /** "Forgot your password?": it takes the authorization request's handle as `request`. */
  readonly passwordReset: string;
  /**
   * E-mail verification: the account page's form asks a mail at `${emailVerification}/send`, and
   * links the code's form, `${emailVerification}/code`.
   */
  readonly emailVerification: string;
  /** The account page's address change: its form posts the new address here; none: not offered. */
  readonly emailChange?: string;
  /** "Create an account" (SIGN_UP=open): it takes the authorization request's handle as `request`; none when off. */
  readonly signUp?: string;
  /** The account page's "Your data": where its download and deletion forms post; none: not shown. */
  readonly ownData?: OwnDataPaths;
}

/** What the sign-in page needs of federation/, which sits above this folder. */
export interface UpstreamDirectory {
  list(): Promise<readonly UpstreamChoice[]>;
  /** The origins the federation form's redirect leads to (CSP form-action, CSP3 §6.3.1.1). */
  formTargets(): Promise<readonly string[]>;
  /**
   * For a session ending here: the upstream's end_session_endpoint URL when the session came from
   * an upstream that opted in (RP-Initiated Logout 1.0 §2), which returns the browser to `returnTo`
   * (the client's post-logout URI with its state) or to the signed-out page; undefined otherwise.
   */
  endUpstreamSession(
    sessionId: string,
    returnTo: { readonly uri: string; readonly state: string | undefined } | undefined,
  ): Promise<string | undefined>;
}

/** The view of a page of the flows, in the language `hints` and the request choose (html/page-view.ts). */
export function viewOf(pages: AuthorizePages, reply: FastifyReply, hints: LanguageHints = {}): PageView {
  return pageView(reply, pages.context, pages.base, hints);
}

/**
 * What a page of an authorization request knows of its language: the request's ui_locales (OIDC
 * Core §3.1.2.1, from the query, the pushed request or the request object alike), its handle, and
 * that /authorize with it shows the page again (the sign-in, the second step or the consent).
 */
export function requestHints(request: AuthorizationRequest, user?: string): LanguageHints {
  return { requested: request.oidc.uiLocales, flow: request.query, here: `/authorize?${request.query}`, user };
}

/**
 * Reads the request's parameters (the query, a pushed request, a request object), looks the client
 * up and checks the request: on GET /authorize and again on every POST. A request_uri of the PAR
 * endpoint is used once here, unless `peek` (POST /authorize, which only redirects to GET); the
 * request then carries on as the sign-in's handle (`request.query`). `address` is the requester's:
 * a client ID metadata document refused on the way is audited with it.
 */
export async function loadAuthorizationRequest(
  context: ServerContext,
  query: string,
  address: string,
  peek = false,
): Promise<AuthorizationRequestCheck> {
  const source = await authorizationSource(context, { query, address, peek });
  if (source.kind === 'untrusted') return source;
  const clientId = clientIdOf(source.parameters);
  // An https URL client_id is resolved through its metadata document (oauth/client-id-metadata/client-id-metadata.ts),
  // which throws a catalog problem shown as a page: never redirected, as for an unknown client.
  const client =
    source.client ??
    (clientId === undefined ? undefined : await context.clientIdMetadataDocuments.clientNamed(clientId, address));
  const check = checkAuthorizationRequest(source.parameters, client, context.accessTokens.audiences);
  if (check.kind !== 'valid') return check;
  const { request } = check;
  // RFC 9126 §5: a client (or a server) that requires PAR refuses every request not pushed; so does
  // a fapi2 client (FAPI 2.0 §5.3.2.2).
  if (
    !source.pushed &&
    (context.requirePushedAuthorizationRequests ||
      request.client.requirePushedAuthorizationRequests === true ||
      request.client.profile === 'fapi2')
  )
    return { kind: 'refused', ...request, error: new OAuthError('pushed_request_required') };
  if (source.continuation === undefined) return check;
  const chosen = chosenOrganization(query, request);
  if (chosen === undefined) return { kind: 'valid', request: { ...request, query: source.continuation } };
  // The choice travels on beside the handle, which carries only the client's parameters.
  const carried = source.pushed
    ? `${source.continuation}&${new URLSearchParams({ organization: chosen })}`
    : source.continuation;
  return { kind: 'valid', request: { ...request, organization: chosen, query: carried } };
}

/**
 * The organization the user chose on the chooser page for a pushed request or a request object,
 * whose handle carries only the client's parameters (RFC 9126 §4, RFC 9101 §6.3): the chooser
 * appends `organization` to that handle. It counts only where the chooser does, for a request with
 * the `organization` scope that names no organization itself: a parameter beside the handle never
 * replaces or adds to what the client asked for otherwise.
 */
function chosenOrganization(query: string, request: AuthorizationRequest): string | undefined {
  if (request.organization !== undefined || !request.scope.includes(ORGANIZATION_SCOPE)) return undefined;
  const chosen = new URLSearchParams(query).getAll('organization');
  return chosen.length === 1 ? chosen[0] : undefined;
}

/**
 * Answers a request that did not pass: an untrusted client or redirect URI is shown on a page
 * (400), every other error goes back to the client as RFC 6749 §4.1.2.1 says.
 */
export function answerRefusal(
  pages: AuthorizePages,
  reply: FastifyReply,
  check: Exclude<AuthorizationRequestCheck, { kind: 'valid' }>,
  status: 302 | 303,
): FastifyReply {
  if (check.kind === 'untrusted')
    throw new ProblemError(check.problem ?? 'invalid_authorization_request', check.detail);
  return answerWithError(pages, reply, check, check.error, status);
}

/**
 * Sends an error back to the client's (verified) redirect URI in the request's response mode, with
 * `iss` (RFC 9207 §2) so the client can tell which server answered.
 */
export function answerWithError(
  pages: AuthorizePages,
  reply: FastifyReply,
  to: ResponseDestination & { readonly state: string | undefined },
  error: OAuthError,
  status: 302 | 303,
): FastifyReply {
  const { issuer } = pages.context;
  reply.server.metrics?.countOAuthError(error.reason);
  const { error: code, error_description, error_uri } = error.toBody(issuer);
  // A form_post page speaks the request's language when the request was read that far.
  const hints = 'oidc' in to && 'query' in to ? requestHints(to as AuthorizationRequest) : {};
  return answerClient(
    reply,
    () => viewOf(pages, reply, hints),
    to,
    { error: code, error_description, error_uri, state: to.state, iss: issuer },
    status,
  );
}

/** The routes of the flows whose `request` field (or, for /authorize, query) is an authorization request. */
const REQUEST_ROUTES: ReadonlySet<string> = new Set(['/authorize', '/login', '/login/passkey', '/consent']);

/**
 * The language hints of an error page of an authorization request, when the error came before the
 * request was read (a CSRF token refused): its ui_locales, from the query itself, or from the pushed
 * request it names (looked at, not used up). A request object is not verified again for a language.
 */
export function errorPageHints(context: ServerContext): ErrorPageHints {
  return async (request) => {
    const path = request.url.split('?')[0] ?? '';
    if (!REQUEST_ROUTES.has(path)) return {};
    const query = request.method === 'GET' ? rawQuery(request.url) : (formParamsOf(request.body).get('request') ?? '');
    const params = new URLSearchParams(query);
    if (params.has('request')) return {};
    const source = params.has('request_uri')
      ? await authorizationSource(context, { query, address: request.ip, peek: true })
      : { kind: 'parameters' as const, parameters: query };
    if (source.kind !== 'parameters') return {};
    const requested = new URLSearchParams(source.parameters).get('ui_locales') ?? undefined;
    return { requested, flow: query, here: `/authorize?${query}` };
  };
}

/** The query string of a request URL, as sent. */
export function rawQuery(url: string): string {
  const mark = url.indexOf('?');
  return mark < 0 ? '' : url.slice(mark + 1);
}
