import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { pino, type DestinationStream, type LoggerOptions } from 'pino';

/**
 * The server's logger, made from the options Fastify would take (`true`, or pino's options with a
 * `stream`) before the app exists, so that the audit trail, built with the context, logs on it
 * too (http/audit-log.ts). Fastify logs its requests on the same logger, through a child with its
 * serializers (ours win). Undefined when the server logs nothing.
 */
export function serverLog(options: FastifyServerOptions['logger']): FastifyBaseLogger | undefined {
  if (options === undefined || options === false) return undefined;
  const { stream, ...pinoOptions } = (options === true ? {} : options) as LoggerOptions & {
    readonly stream?: DestinationStream;
  };
  // Fastify's default level, when the options name none.
  return pino({ level: 'info', ...pinoOptions }, stream);
}
