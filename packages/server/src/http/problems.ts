import { PROBLEMS, ProblemError } from '@gatehouse/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { StoreBusyError } from '../store/store.js';

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
  if (error instanceof ProblemError) return error;
  if (error instanceof StoreBusyError) return new ProblemError('service_unavailable');
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new ProblemError('unsupported_media_type');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ProblemError('malformed_json', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ProblemError('malformed_json', 'The request body is not valid JSON.');
  }
  if (error instanceof SyntaxError) return new ProblemError('malformed_json', 'The request body is not valid JSON.');
  const status = fastifyError.statusCode;
  // Any other request Fastify could not read (bad Content-Length, aborted body…) is the client's.
  if (status !== undefined && status >= 400 && status < 500)
    return new ProblemError('malformed_request', 'The request could not be read.');
  return new ProblemError('internal_error');
}

/** The error handler of every route that is not an OAuth endpoint. */
export function problemErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const problem = toProblem(error);
  if (problem.code === 'internal_error') request.log.error({ err: error }, 'unexpected error');
  return sendProblem(reply, request, problem);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendProblem(
    reply,
    request,
    new ProblemError('not_found', `There is no resource at ${request.method} ${pathOf(request)}.`),
  );
}
