import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, HTTPMethods } from 'fastify';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Answers 405 with `Allow` for the methods a path does not serve (RFC 9110 §15.5.6). */
export function allowOnly(app: FastifyInstance, url: string, allowed: readonly HTTPMethods[]): void {
  const others = METHODS.filter((m) => !allowed.includes(m));
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
  app.route({
    method: others,
    url,
    handler: async (request, reply) => {
      reply.header('allow', allow);
      throw new ProblemError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`);
    },
  });
}
