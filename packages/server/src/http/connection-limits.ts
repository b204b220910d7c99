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
