import { PROBLEMS, type ProblemBody, type ProblemCode, type ProblemFieldError } from '@gatehouse/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { StoreBusyError } from '../store/store.js';

/** Sends an RFC 9457 problem from the catalog. */
export function sendProblem(reply: FastifyReply, request: FastifyRequest, code: ProblemCode, detail?: string, errors?: readonly ProblemFieldError[]): FastifyReply {
  const entry = PROBLEMS[code];
  const body: ProblemBody = {
    type: `/problems/${entry.slug}`, title: entry.title, status: entry.status, detail: detail ?? entry.summary,
    instance: request.url.split('?')[0] ?? '/', ...(errors ? { errors } : {}),
  };
  if (entry.transient) reply.header('retry-after', '1');
  return reply.code(entry.status).type('application/problem+json').send(body);
}

/** The error handler of every route that is not an OAuth endpoint. */
export function problemErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof StoreBusyError) return sendProblem(reply, request, 'service_unavailable');
  switch ((error as Partial<FastifyError>).code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return sendProblem(reply, request, 'payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return sendProblem(reply, request, 'unsupported_media_type');
  }
  request.log.error({ err: error }, 'unexpected error');
  return sendProblem(reply, request, 'internal_error');
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendProblem(reply, request, 'not_found', `There is no resource at ${request.method} ${request.url.split('?')[0] ?? '/'}.`);
}
