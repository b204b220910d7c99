import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Node's socket of an HTTP connection: the response it is writing now, if any. */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Where a connection stands once every answer to a request read in full has been written: either
 * the request that could not be read already has an answer of its own (one begun before it went
 * wrong), or it has none yet, and `response` is Node's response for it when its head was read.
 */
export type AfterEarlierAnswers =
  { readonly answered: true } | { readonly answered: false; readonly response: ServerResponse | undefined };

/**
 * Calls `then` once the answers to the requests before the one the connection cannot go on from
 * (pipelined requests, RFC 9112 §9.3.2) are written, in order. Node queues one response per request
 * it has read and writes them one after the other; writing or closing the socket while some are still
 * pending would drop them. The one being written is the socket's `_httpMessage`; when it is done,
 * Node moves the next one there before the response emits 'close'. Never called if the socket closes.
 */
export function afterEarlierAnswers(socket: Socket, then: (state: AfterEarlierAnswers) => void): void {
  let begunOwnAnswer = false;
  const step = (): void => {
    if (socket.destroyed) return;
    const current = (socket as HttpSocket)._httpMessage ?? undefined;
    if (current === undefined) {
      then(begunOwnAnswer ? { answered: true } : { answered: false, response: undefined });
      return;
    }
    const complete = current.req.complete;
    if (!complete && !current.headersSent) {
      then({ answered: false, response: current });
      return;
    }
    // A request read in full, or the unreadable one whose answer had begun: let it be written.
    if (!complete) begunOwnAnswer = true;
    current.once('close', step);
  };
  step();
}
