import { ProblemError, type OAuthError } from '@gatehouse/contract';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../context.js';
import { checkAuthorizationRequest, clientIdOf, type AuthorizationRequestCheck } from '../oauth/authorization-request.js';
import type { BasePath } from '../html/layout.js';
import { answerClient, type ResponseDestination } from '../html/authorization-response.js';
import type { CookiePolicy } from './sessions.js';

/** What the routes of the authorization pages share, passed to each explicitly. */
export interface AuthorizePages {
  readonly context: ServerContext;
  readonly base: BasePath;
  readonly cookies: CookiePolicy;
}

/** Looks the client up and checks the request: on GET /authorize and again on every POST. */
export async function loadAuthorizationRequest(
  { store, accessTokens }: ServerContext,
  query: string,
): Promise<AuthorizationRequestCheck> {
  const clientId = clientIdOf(query);
  const client = clientId === undefined ? undefined : await store.findClient(clientId);
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
