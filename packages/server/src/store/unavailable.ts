import { isConnectionFailure } from './postgres/connection-errors.js';
import { StoreBusyError } from './store.js';

/**
 * Whether an error means the store cannot be reached or used for now (an outage: answered 503 with
 * Retry-After while serving) rather than a fault of the request, the data or the configuration: a
 * StoreBusyError (a lock not taken in time, a database that dropped or refused the connection), or
 * a driver's own connection failure where nothing mapped it yet, as while the store opens.
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Object && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof StoreBusyError) return true;
  return isConnectionFailure(error);
}
