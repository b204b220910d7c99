import { PROBLEMS, ProblemError } from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { classifyError, errorHandler, type ErrorRenderer } from './error-classifier.js';

/** Sends an RFC 9457 problem from the catalog. */
export function sendProblem(reply: FastifyReply, request: FastifyRequest, problem: ProblemError): FastifyReply {
  request.server.metrics?.countProblem(problem.code);
  return replyWithProblem(reply, request, problem);
}

/** Sends a problem without counting it in the metrics (the health probes' answers). */
export function replyWithProblem(reply: FastifyReply, request: FastifyRequest, problem: ProblemError): FastifyReply {
  if (PROBLEMS[problem.code].transient) reply.header('retry-after', '1');
  // A string body is sent as it is, without Fastify's serialiser (no route here has a response
  // schema); the type is what Fastify makes of `application/problem+json` for an object.
  return reply
    .code(problem.status)
    .type('application/problem+json; charset=utf-8')
    .send(problem.toJson(pathOf(request)));
}

function pathOf(request: FastifyRequest): string {
  const url = request.url;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The catalog problem for anything thrown on a non-OAuth route. */
export function toProblem(error: unknown): ProblemError {
  return classifyError(error, 'problem');
}

/**
 * Writes a problem as RFC 9457 `application/problem+json`; a problem that carries a bearer challenge
 * (api/bearer.ts) adds it as WWW-Authenticate (RFC 6750 §3).
 */
export const problemRenderer: ErrorRenderer<'problem'> = {
  catalog: 'problem',
  unexpected: 'unexpected error',
  render(problem, request, reply) {
    const { challenge, nonce } = problem as { readonly challenge?: unknown; readonly nonce?: unknown };
    if (typeof challenge === 'string') reply.header('www-authenticate', challenge);
    // RFC 9449 §9: a use_dpop_nonce refusal carries the nonce to use.
    if (typeof nonce === 'string') reply.header('dpop-nonce', nonce);
    return replyWithProblem(reply, request, problem);
  },
};

/** The error handler of every route that is not an OAuth endpoint nor a page. */
export const problemErrorHandler = errorHandler(problemRenderer);

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendProblem(
    reply,
    request,
    new ProblemError('not_found', `There is no resource at ${request.method} ${pathOf(request)}.`),
  );
}
