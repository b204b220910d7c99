import { ProblemError, type OAuthError } from '@gatehouse/contract';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../context.js';
import { checkAuthorizationRequest, clientIdOf, type AuthorizationRequestCheck } from './authorization-request.js';
import type { BasePath } from '../html/layout.js';
import { answerClient, type ResponseDestination } from '../html/authorization-response.js';
import type { CookiePolicy } from './sessions.js';
import type { UpstreamChoice } from './login-page.js';

/** What the routes of the authorization pages share, passed to each explicitly. */
export interface AuthorizePages {
  readonly context: ServerContext;
  readonly base: BasePath;
  readonly cookies: CookiePolicy;
  /** Federation: the upstream providers the sign-in page offers (passed in by app.ts; none when absent). */
  readonly upstreams?: UpstreamDirectory;
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

/** Looks the client up and checks the request: on GET /authorize and again on every POST. */
export async function loadAuthorizationRequest(
  { store, accessTokens, clientIdMetadataDocuments }: ServerContext,
  query: string,
): Promise<AuthorizationRequestCheck> {
  const clientId = clientIdOf(query);
  // An https URL client_id is resolved through its metadata document (oauth/client-id-metadata.ts),
  // which throws a catalog problem shown as a page: never redirected, as for an unknown client.
  const client =
    clientId === undefined
      ? undefined
      : clientIdMetadataDocuments.handles(clientId)
        ? (await clientIdMetadataDocuments.resolve(clientId)).client
        : await store.findClient(clientId);
  return checkAuthorizationRequest(query, client, accessTokens.audiences);
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
  if (check.kind === 'untrusted') throw new ProblemError('invalid_authorization_request', check.detail);
  return answerWithError(pages, reply, check, check.error, status);
}

/**
 * Sends an error back to the client's (verified) redirect URI in the request's response mode, with
 * `iss` (RFC 9207 §2) so the client can tell which server answered.
 */
export function answerWithError(
  { base, context: { issuer } }: AuthorizePages,
  reply: FastifyReply,
  to: ResponseDestination & { readonly state: string | undefined },
  error: OAuthError,
  status: 302 | 303,
): FastifyReply {
  reply.server.metrics?.countOAuthError(error.reason);
  const { error: code, error_description, error_uri } = error.toBody(issuer);
  return answerClient(
    reply,
    base,
    to,
    { error: code, error_description, error_uri, state: to.state, iss: issuer },
    status,
  );
}

/** The query string of a request URL, as sent. */
export function rawQuery(url: string): string {
  const mark = url.indexOf('?');
  return mark < 0 ? '' : url.slice(mark + 1);
}
