import type { FastifyInstance } from 'fastify';
import type { SharedRequestWork } from './shared-hooks.js';

/**
 * How long a stopping server still reads its open connections before closing the idle ones. A
 * keep-alive connection whose next request is sent but not yet read looks idle; closed at once, it
 * would be reset under a request its client sent before the stop (RFC 9112 §9.6 lets a server close
 * an idle connection, but the client cannot tell whether the request was acted on).
 */
export const IDLE_CONNECTION_GRACE_MS = 100;

/** The requests a closing server finishes: how many, and that their answers close their connections. */
export interface Drain {
  /** Requests received and not yet answered. */
  readonly inFlight: number;
  /** From now on, every answer says Connection: close. */
  begin(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The requests in flight, for the shutdown (http/drain.ts). */
    drain: Drain;
  }
}

/**
 * Counts the requests in flight and, once the drain began, answers each with Connection: close (a
 * kept-alive connection would otherwise hold the close up for the keep-alive timeout). Call on the
 * root app before any route, and add the count it returns first among the shared hooks
 * (shared-hooks.ts), so that every request is counted. Counted, not kept: holding each request until
 * it ends, in a Set or by a 'close' listener on each response, doubled the garbage collector's share
 * of the REST path (bench rest-201 profile: 3% → 8% of the CPU).
 */
export function trackRequestsInFlight(app: FastifyInstance): SharedRequestWork {
  let inFlight = 0;
  let draining = false;
  app.decorate('drain', {
    get inFlight() {
      return inFlight;
    },
    begin() {
      draining = true;
    },
  } satisfies Drain);
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.raw.shouldKeepAlive = false;
    done(null, payload);
  });
  return {
    onRequest() {
      inFlight++;
      return undefined;
    },
    // Fastify runs onResponse once the answer is written or has failed, an abandoned request's included.
    onResponse() {
      inFlight--;
    },
  };
}
