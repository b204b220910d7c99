import { ServerResponse, type IncomingMessage } from 'node:http';
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

/** Whether a response may keep its connection open, as Node's server decided it (see drainAware). */
const keptAlive = Symbol('keptAlive');

/**
 * Counts the requests in flight and, once the drain began, answers each with Connection: close (a
 * kept-alive connection would otherwise hold the close up for the keep-alive timeout), the answers
 * already in flight when it began included.
 *
 * Made before the app: its `ServerResponse` goes into Fastify's `http` options (Node's
 * `http.createServer` takes the class its responses are made of), and `work` first among the shared
 * hooks (shared-hooks.ts), so that every request is counted. Counted, not kept: holding each request
 * until it ends, in a Set or by a 'close' listener on each response, doubled the garbage
 * collector's share of the REST path (bench rest-201 profile: 3% → 8% of the CPU).
 */
export class RequestDrain implements Drain {
  #inFlight = 0;
  #draining = false;
  /** The class of the server's responses: none keeps its connection once the drain began. */
  readonly ServerResponse: typeof ServerResponse = drainAware(() => this.#draining);
  readonly work: SharedRequestWork = {
    onRequest: () => {
      this.#inFlight++;
      return undefined;
    },
    // Fastify runs onResponse once the answer is written or has failed, an abandoned request's included.
    onResponse: () => {
      this.#inFlight--;
    },
  };

  get inFlight(): number {
    return this.#inFlight;
  }

  begin(): void {
    this.#draining = true;
  }
}

/**
 * A ServerResponse whose `shouldKeepAlive` is false once `draining()` is: Node reads it when it
 * writes the head (Connection: keep-alive or close) and closes the connection after a response that
 * said close. This replaces an onSend hook that set it on each answer: a Fastify hook costs every
 * request some 3,700 instructions (callgrind), this a getter Node calls when it writes the head.
 *
 * An accessor on the prototype, so that Node's own writes (the constructor's default, the server's
 * decision for each request) go through the setter.
 */
function drainAware(draining: () => boolean): typeof ServerResponse {
  class DrainAwareResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
    declare [keptAlive]: boolean;
  }
  Object.defineProperty(DrainAwareResponse.prototype, 'shouldKeepAlive', {
    get(this: DrainAwareResponse): boolean {
      return this[keptAlive] && !draining();
    },
    set(this: DrainAwareResponse, value: boolean) {
      this[keptAlive] = value;
    },
    configurable: true,
  });
  return DrainAwareResponse;
}
