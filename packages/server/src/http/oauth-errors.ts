import { OAuthError } from '@gatehouse/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { StoreBusyError } from '../store/store.js';
import { UnsupportedContentCoding, UnsupportedHttpVersion } from './unsupported-requests.js';

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

/** The catalog error for anything thrown on an OAuth route. */
function toOAuthError(error: unknown): OAuthError {
  if (error instanceof OAuthError) return error;
  if (error instanceof StoreBusyError) return new OAuthError('store_busy');
  if (error instanceof UnsupportedContentCoding) return new OAuthError('body_content_coding');
  if (error instanceof UnsupportedHttpVersion) return new OAuthError('request_unreadable');
  switch ((error as Partial<FastifyError>).code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new OAuthError('body_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new OAuthError('body_not_form');
  }
  const status = (error as Partial<FastifyError>).statusCode;
  // Any other request Fastify could not read (bad Content-Length, aborted body…) is the client's.
  if (status !== undefined && status >= 400 && status < 500) return new OAuthError('request_unreadable');
  return new OAuthError('internal_error');
}

/** The error handler of the OAuth routes: every answer is a catalog entry (RFC 6749 §5.2). */
export function oauthErrorHandler(issuer: string) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const oauthError = toOAuthError(error);
    request.server.metrics?.countOAuthError(oauthError.reason);
    if (oauthError.error === 'server_error') request.log.error({ err: error }, 'unexpected error on an OAuth route');
    noStore(reply);
    // RFC 6749 §5.2: a client that tried the Authorization header gets a challenge for its scheme.
    if (oauthError.error === 'invalid_client' && /^basic\b/i.test(request.headers.authorization ?? '')) {
      reply.header('www-authenticate', 'Basic realm="gatehouse", charset="UTF-8"');
    }
    if (oauthError.error === 'temporarily_unavailable') {
      reply.header('retry-after', String(oauthError instanceof OAuthRateLimited ? oauthError.retryAfter : 1));
    }
    return reply.code(oauthError.status).send(oauthError.toBody(issuer));
  };
}
