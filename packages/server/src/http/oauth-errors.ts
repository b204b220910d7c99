import { basicChallenge, isBasicAuthorization, OAuthError } from '@gatehouse/contract';
import type { FastifyReply } from 'fastify';
import { errorHandler, type ErrorRenderer } from './error-classifier.js';

/** RFC 6749 §5.1 and §5.2: token responses, success or error, are never cached. */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

/** A request over its rate limit: 429, and how many whole seconds to wait (Retry-After). */
export class OAuthRateLimited extends OAuthError {
  readonly retryAfter: number;
  constructor(retryAfter: number) {
    super('rate_limited');
    this.retryAfter = retryAfter;
  }
}

const BASIC_CHALLENGE = basicChallenge('gatehouse');

/**
 * Writes an OAuth error as an RFC 6749 §5.2 body, never cached; with a Basic challenge for a client
 * that tried Basic authentication, and Retry-After when the answer is temporarily_unavailable.
 */
function oauthRenderer(issuer: string, catalog: 'oauth_form' | 'oauth_json'): ErrorRenderer<typeof catalog> {
  return {
    catalog,
    unexpected: 'unexpected error on an OAuth route',
    render(oauthError, request, reply) {
      noStore(reply);
      // RFC 6749 §5.2: a client that tried the Authorization header gets a challenge for its scheme.
      if (oauthError.error === 'invalid_client' && isBasicAuthorization(request.headers.authorization)) {
        reply.header('www-authenticate', BASIC_CHALLENGE);
      }
      if (oauthError.error === 'temporarily_unavailable') {
        reply.header('retry-after', String(oauthError instanceof OAuthRateLimited ? oauthError.retryAfter : 1));
      }
      return reply.code(oauthError.status).send(oauthError.toBody(issuer));
    },
  };
}

/**
 * The error handler of the OAuth routes: every answer is a catalog entry (RFC 6749 §5.2). `catalog`:
 * the form endpoints', or the JSON context's (RFC 7591), where a body of another type is body_not_json.
 */
export function oauthErrorHandler(issuer: string, catalog: 'oauth_form' | 'oauth_json' = 'oauth_form') {
  return errorHandler(oauthRenderer(issuer, catalog));
}
