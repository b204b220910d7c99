import { StoreBusyError } from '../store.js';
import { isConnectionFailure } from './connection-errors.js';

/** How often a transaction that lost a serialization race or a deadlock is tried again. */
const ATTEMPTS = 5;
/** How often a transaction whose connection dropped before its COMMIT is tried again (on a new one). */
const RECONNECTS = 2;
// serialization_failure, deadlock_detected.
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Runs a transaction, again on a serialization failure or deadlock, and again on a fresh connection
 * when the connection failed before the COMMIT was sent (nothing was written, so running the work
 * again is safe). A connection lost during the COMMIT leaves the outcome unknown: that, and a
 * database still unreachable, is a StoreBusyError (503 with Retry-After), never a 500 or a crash.
 */
export async function runTransaction<T>(run: (committing: () => void) => Promise<T>): Promise<T> {
  let reconnects = 0;
  for (let attempt = 1; ; attempt++) {
    let inCommit = false;
    try {
      return await run(() => (inCommit = true));
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (RETRYABLE.has(code) && attempt < ATTEMPTS) continue;
      if (isConnectionFailure(error) && !inCommit && reconnects++ < RECONNECTS) continue;
      if (RETRYABLE.has(code) || isConnectionFailure(error)) throw new StoreBusyError({ cause: error });
      throw error;
    }
  }
}

/**
 * Every method of a repository outside a transaction, with an unreachable database answered as
 * StoreBusyError (503). A single statement is not run again after a connection failure: it may have
 * been applied.
 */
export function withUnavailableMapped<R extends object>(repository: R): R {
  const mapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(repository)) {
    mapped[name] = async (...args: unknown[]) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await (method as (...a: unknown[]) => Promise<unknown>)(...args);
        } catch (error) {
          const code = (error as { code?: string }).code ?? '';
          // A statement that lost a serialization race or a deadlock was rolled back: run it again.
          if (RETRYABLE.has(code) && attempt < ATTEMPTS) continue;
          if (RETRYABLE.has(code) || isConnectionFailure(error)) throw new StoreBusyError({ cause: error });
          throw error;
        }
      }
    };
  }
  return mapped as R;
}
