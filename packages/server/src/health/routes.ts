import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { replyWithProblem } from '../http/problems.js';
import type { ReadinessCheck } from './readiness.js';

/**
 * Probes are sent every second or so by every load balancer and orchestrator: they are kept out of
 * the request metrics and, below warn, out of the request log; no rate limit applies to them.
 */
const PROBE: RouteShorthandOptions = { logLevel: 'warn', config: { requestMetrics: false } };

/**
 * GET /health/live: the process answers (restart it when it does not). GET /health/ready: it can
 * serve (send it traffic only then), else 503 with the reason as a `not_ready` problem.
 */
export function healthRoutes(app: FastifyInstance, readiness: ReadinessCheck): void {
  app.get('/health/live', PROBE, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'live' }),
  );
  app.get('/health/ready', PROBE, async (request, reply) => {
    const answer = await readiness.check();
    if (!answer.ready)
      return replyWithProblem(reply, request, new ProblemError('not_ready', `Not ready: ${answer.reason}.`));
    return reply.header('cache-control', 'no-store').send({ status: 'ready' });
  });
}
