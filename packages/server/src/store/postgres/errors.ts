import { StoreBusyError, type CommitInDoubtOutcome } from '../store.js';
import { isConnectionFailure } from './connection-errors.js';

/** How often a transaction that lost a serialization race or a deadlock is tried again. */
const ATTEMPTS = 5;
/** How often a transaction whose connection dropped before its COMMIT is tried again (on a new one). */
const RECONNECTS = 2;
// serialization_failure, deadlock_detected.
const RETRYABLE = new Set(['40001', '40P01']);
// query_canceled: during a COMMIT, its wait for a synchronous standby was cancelled.
const QUERY_CANCELED = '57014';

/** A transaction that reached its COMMIT: what it began as, and what its work answered. */
export interface Committing<B, T> {
  readonly begun: B;
  readonly result: T;
}

/**
 * Runs a transaction, again on a serialization failure or deadlock, and again on a fresh connection
 * when the connection failed before the COMMIT was sent (nothing was written, so running the work
 * again is safe). A connection lost during the COMMIT leaves the outcome in doubt: `outcomeOf` asks
 * the database (./in-doubt.ts). Committed, the work's result is the answer, as if the COMMIT had
 * been heard; aborted, the work runs again. Unknown — and a commit whose wait for a synchronous
 * standby was cancelled, applied on the primary alone — is a StoreBusyError (503 with Retry-After),
 * as is a database still unreachable; never a 500 or a crash.
 */
export async function runTransaction<B, T>(
  run: (committing: (reached: Committing<B, T>) => void) => Promise<T>,
  outcomeOf: (begun: B) => Promise<CommitInDoubtOutcome>,
): Promise<T> {
  let reconnects = 0;
  for (let attempt = 1; ; attempt++) {
    let reached: Committing<B, T> | undefined;
    try {
      return await run((r) => (reached = r));
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (RETRYABLE.has(code) && attempt < ATTEMPTS) continue;
      if (isConnectionFailure(error)) {
        if (reached === undefined) {
          if (reconnects++ < RECONNECTS) continue;
        } else if (code !== QUERY_CANCELED) {
          const outcome = await outcomeOf(reached.begun);
          if (outcome === 'committed') return reached.result;
          if (outcome === 'aborted' && reconnects++ < RECONNECTS) continue;
        }
      }
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
