/**
 * Which PostgreSQL failures mean "the store is unreachable for now" (answered 503 with Retry-After)
 * rather than a fault of the query. node-postgres reports a dropped socket as plain Errors without a
 * code, so their messages are matched too.
 */

/** No host of the DATABASE_URL accepted a connection (a read-write one, with target_session_attrs=read-write). */
export class NoWritableHostError extends Error {
  constructor(hosts: readonly string[], options?: ErrorOptions) {
    const last = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`no PostgreSQL host accepts connections of the kind asked for (tried ${hosts.join(', ')})${last}`, options);
    this.name = 'NoWritableHostError';
  }
}

const UNAVAILABLE_CODES = new Set([
  // The socket: refused, reset, unreachable, timed out.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // admin_shutdown (pg_terminate_backend, fast shutdown), crash_shutdown, cannot_connect_now (starting up, in recovery).
  '57P01',
  '57P02',
  '57P03',
  // query_canceled: statement_timeout, or a commit's wait for a synchronous standby cancelled.
  '57014',
  // too_many_connections.
  '53300',
  // read_only_sql_transaction: the host is a standby now (failover in progress).
  '25006',
]);

const UNAVAILABLE_MESSAGES =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|connection timeout|Query read timeout|Connection closed/i;

/** True when the error (or its cause) says the database could not be reached or dropped the connection. */
export function isConnectionFailure(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Object && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof NoWritableHostError) return true;
    const code = (e as { code?: unknown }).code;
    // Class 08: connection exceptions.
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (e instanceof Error && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}
