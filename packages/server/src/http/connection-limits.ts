import type { Server } from 'node:http';

/** Limits against slow and greedy clients, per connection. */
export interface ConnectionLimits {
  /** The request line and headers must arrive within this (slowloris). */
  readonly headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this; then 408. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; keep it above a load balancer's idle timeout. */
  readonly keepAliveTimeoutMs: number;
  /** The request line and headers together; more is 431. */
  readonly maxHeaderBytes: number;
  /** Open connections of this process; past it, new ones are closed at once. */
  readonly maxConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
  maxHeaderBytes: 16 * 1024,
  maxConnections: 10_000,
};

/**
 * A client may half-close (send FIN) right after its request and still read the answer: a request
 * is framed by its length, never by the connection's close (RFC 9112 §6.3). Node's HTTP server ends the socket on
 * that FIN unless `httpAllowHalfOpen` is set, so an answer that waits on the store (PostgreSQL) was
 * never written. With it, Node marks the last pending answer as the connection's last and ends the
 * socket once it is written (or at once when nothing is pending). An undocumented Node property,
 * long kept for userland servers; test/connection-edges.test.ts fails if it stops working.
 */
export function answerHalfClosedClients(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
}
