import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Work every request of the app shares at one stage of its life: the count of requests in flight
 * (drain.ts), the HTTP version check (unsupported-requests.ts), the request metrics (metrics.ts).
 * Fastify runs each hook it holds through its hook runner, about 3,700 instructions a request per
 * hook (callgrind, `bench/instructions.mjs --kind rest-400`: the root app's six hooks were 22,000 of
 * a 371,000-instruction 400), so the parts are plain functions here and each stage is one hook that
 * calls them in the order given.
 */
export interface SharedRequestWork {
  /** Runs as the request arrives, before any route's own hooks; an error ends the request there. */
  readonly onRequest?: (request: FastifyRequest, reply: FastifyReply) => Error | undefined;
  /** Runs once the answer is written or has failed, an abandoned request's included. */
  readonly onResponse?: (request: FastifyRequest, reply: FastifyReply) => void;
}

/** Adds one onRequest and one onResponse hook to the root app that run `works`' parts in order. */
export function addSharedHooks(app: FastifyInstance, works: readonly SharedRequestWork[]): void {
  const onRequest = works.flatMap(({ onRequest }) => (onRequest ? [onRequest] : []));
  const onResponse = works.flatMap(({ onResponse }) => (onResponse ? [onResponse] : []));
  // Callback style: an async hook costs every request a promise.
  if (onRequest.length > 0)
    app.addHook('onRequest', (request, reply, done) => {
      for (const part of onRequest) {
        const error = part(request, reply);
        if (error !== undefined) {
          done(error);
          return;
        }
      }
      done();
    });
  if (onResponse.length > 0)
    app.addHook('onResponse', (request, reply, done) => {
      for (const part of onResponse) part(request, reply);
      done();
    });
}
