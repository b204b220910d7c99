import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request. Fastify's own controller writes two, "incoming request" as a request
 * arrives and "request completed" once it is answered, joined only by `reqId`: twice the volume a
 * log collector stores, and who asked for what on another line than what they got. Here the line
 * written at the end carries both, the request (method, redacted URL, host, address: the `req`
 * serializer of log-redaction.ts), the status and the time taken; the arrival is logged at debug
 * only (LOG_LEVEL=debug), for finding a request that never ends.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
