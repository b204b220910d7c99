import { OAuthError, ProblemError, type FixedOAuthReason, type ProblemCode } from '@gatehouse/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { StoreBusyError } from '../store/store.js';
import { UnsupportedContentCoding, UnsupportedHttpVersion } from './unsupported-requests.js';

/**
 * The catalog a route group answers in: RFC 6749 §5.2 reasons for the OAuth endpoints (their form
 * context, or the JSON one of RFC 7591 registration), RFC 9457 problems for the rest, and for the
 * pages either (an OAuth error a page meets is shown as such, anything else as a problem).
 */
export type ErrorCatalog = 'oauth_form' | 'oauth_json' | 'problem' | 'page';

/** The entry an error becomes in each catalog. */
export type CatalogEntry<C extends ErrorCatalog> = C extends 'oauth_form' | 'oauth_json'
  ? OAuthError
  : C extends 'problem'
    ? ProblemError
    : OAuthError | ProblemError;

/**
 * A failure Fastify reports by code (a body it could not read or parse, a URL its router refused),
 * by its name in each catalog: undefined where the catalog has none of its own (then the status
 * decides, below).
 */
interface FastifyFailure {
  readonly oauth?: FixedOAuthReason;
  /** The JSON context's name, where it differs from the form's. */
  readonly oauthJson?: FixedOAuthReason;
  readonly problem: readonly [ProblemCode, string?];
}

const UNSUPPORTED_TYPE: FastifyFailure = {
  oauth: 'body_not_form',
  oauthJson: 'body_not_json',
  problem: ['unsupported_media_type'],
};
const NOT_JSON = 'The request body is not valid JSON.';

const FASTIFY_FAILURES: ReadonlyMap<string, FastifyFailure> = new Map(
  Object.entries({
    FST_ERR_CTP_BODY_TOO_LARGE: { oauth: 'body_too_large', problem: ['payload_too_large'] },
    FST_ERR_CTP_INVALID_MEDIA_TYPE: UNSUPPORTED_TYPE,
    FST_ERR_CTP_INVALID_TYPE: UNSUPPORTED_TYPE,
    FST_ERR_CTP_EMPTY_JSON_BODY: { problem: ['malformed_json', 'The request body is empty; send a JSON object.'] },
    FST_ERR_CTP_INVALID_JSON_BODY: { problem: ['malformed_json', NOT_JSON] },
    // The router's (Fastify's `frameworkErrors`).
    FST_ERR_BAD_URL: { problem: ['malformed_request', 'The URL path is not valid percent-encoded UTF-8.'] },
    FST_ERR_MAX_PARAM_LENGTH: {
      problem: ['not_found', 'There is no resource at this URL: a path segment is longer than any identifier.'],
    },
  } satisfies Record<string, FastifyFailure>),
);

/**
 * Any thrown error as one entry of `catalog`: a catalog error as it is, a store outage as the
 * transient 503 (whose renderer adds Retry-After), what Fastify could not read as the client's
 * error, and anything else as the internal error. Allocates only the entry it returns.
 */
export function classifyError<C extends ErrorCatalog>(error: unknown, catalog: C): CatalogEntry<C>;
export function classifyError(error: unknown, catalog: ErrorCatalog): OAuthError | ProblemError {
  if (catalog === 'oauth_form' || catalog === 'oauth_json') return toOAuthError(error, catalog);
  if (catalog === 'page' && error instanceof OAuthError) return error;
  return toProblem(error);
}

function toOAuthError(error: unknown, catalog: 'oauth_form' | 'oauth_json'): OAuthError {
  if (error instanceof OAuthError) return error;
  if (error instanceof StoreBusyError) return new OAuthError('store_busy');
  if (error instanceof UnsupportedContentCoding) return new OAuthError('body_content_coding');
  if (error instanceof UnsupportedHttpVersion) return new OAuthError('request_unreadable');
  const fastifyError = error as Partial<FastifyError>;
  const failure = fastifyError.code === undefined ? undefined : FASTIFY_FAILURES.get(fastifyError.code);
  const reason = catalog === 'oauth_json' ? (failure?.oauthJson ?? failure?.oauth) : failure?.oauth;
  if (reason !== undefined) return new OAuthError(reason);
  // Any other request Fastify could not read (bad Content-Length, aborted body…) is the client's.
  if (isClientStatus(fastifyError.statusCode)) return new OAuthError('request_unreadable');
  return new OAuthError('internal_error');
}

function toProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof StoreBusyError) return new ProblemError('service_unavailable');
  const fastifyError = error as Partial<FastifyError>;
  const failure = fastifyError.code === undefined ? undefined : FASTIFY_FAILURES.get(fastifyError.code);
  if (failure !== undefined) return new ProblemError(...failure.problem);
  if (error instanceof SyntaxError) return new ProblemError('malformed_json', NOT_JSON);
  // Any other request Fastify could not read (bad Content-Length, aborted body…) is the client's.
  if (isClientStatus(fastifyError.statusCode))
    return new ProblemError('malformed_request', 'The request could not be read.');
  return new ProblemError('internal_error');
}

function isClientStatus(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500;
}

/** Writes a route group's catalog entries in its format (an OAuth body, a problem, a page). */
export interface ErrorRenderer<C extends ErrorCatalog> {
  readonly catalog: C;
  /** The log message of an unexpected error, naming the route group. */
  readonly unexpected: string;
  render(entry: CatalogEntry<C>, request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply>;
}

/**
 * The error handler of a route group: classifies, counts the entry in the metrics, logs what was
 * unexpected, and renders. Made once per group; nothing per request but the entry.
 */
export function errorHandler<C extends ErrorCatalog>(renderer: ErrorRenderer<C>) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> => {
    const entry = classifyError(error, renderer.catalog);
    const metrics = request.server.metrics;
    if (entry instanceof OAuthError) {
      metrics?.countOAuthError(entry.reason);
      if (entry.error === 'server_error') request.log.error({ err: error }, renderer.unexpected);
    } else {
      metrics?.countProblem(entry.code);
      if (entry.code === 'internal_error') request.log.error({ err: error }, renderer.unexpected);
    }
    return renderer.render(entry, request, reply);
  };
}
