import { setTimeout as sleep } from 'node:timers/promises';
import { isStoreUnavailable } from '../store/unavailable.js';

/** The first pause before a worker tries to start again, ms; each next one doubles, up to MAX_PAUSE_MS. */
const FIRST_PAUSE_MS = 250;
const MAX_PAUSE_MS = 5000;

/** Where a waiting worker says so (a pino logger fits). */
export interface WorkerStartLog {
  warn(fields: object, message: string): void;
}

/**
 * A worker's start under `serve --workers`, waiting out a store outage: the primary opened the
 * store just before it forked the worker, so a store that cannot be reached now (a database that
 * terminated its connections, restarts or fails over) is an outage, not a wrong DATABASE_URL. The
 * worker tries again after a growing pause (each try logged at warn) until it starts, or until
 * `stopped` (a stop signal) aborts the wait: then it resolves undefined. Exiting instead would have
 * the primary fork a replacement that fails the same way, and the port answered by no one once
 * every worker had; meanwhile the workers already serving answer 503 with Retry-After. Any other
 * failure is thrown, as at the start of a single process.
 */
export async function startWaitingForStore<T>(
  start: () => Promise<T>,
  log: WorkerStartLog,
  stopped: AbortSignal,
): Promise<T | undefined> {
  for (let pause = FIRST_PAUSE_MS, tries = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS), tries++) {
    try {
      return await start();
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      log.warn(
        { err: error, tries, retryInMs: pause },
        `the store could not be reached while this worker started; trying again in ${pause} ms`,
      );
    }
    await sleep(pause, undefined, { signal: stopped }).catch(() => {});
    if (stopped.aborted) return undefined;
  }
}
