import { setTimeout as sleep } from 'node:timers/promises';
import { StoreBusyError } from '../store.js';

/*
 * SQLite's errors as the store answers them. The one transient failure is SQLITE_BUSY: another
 * connection (in this process or another one on the same file) holds the lock, or (BUSY_RECOVERY)
 * is rebuilding the WAL index, as when processes open a new file together. It is waited out,
 * asynchronously, and past the budget answered as StoreBusyError (a 503). SQLite has no
 * serialization failures to retry (writers are serialised by the lock) and no connection to lose;
 * every other error is a bug or a broken file and is thrown as it is.
 */

/**
 * Runs `statement`, and while SQLite answers SQLITE_BUSY (another connection holds the lock) runs it
 * again after an asynchronous, growing, jittered pause, until `budgetMs` is spent; then StoreBusyError.
 */
const BUSY = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_RECOVERY']);

/** Whether `error` is SQLite's transient SQLITE_BUSY, which waitOutBusy waits out. */
export function isBusy(error: unknown): boolean {
  return BUSY.has((error as { code?: string } | undefined)?.code ?? '');
}

export async function waitOutBusy<T>(statement: () => T | Promise<T>, budgetMs: number): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let delayMs = 1; ; delayMs = Math.min(delayMs * 2, 25)) {
    try {
      return await statement();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (Date.now() >= deadline) throw new StoreBusyError({ cause: error });
      // Jitter, so that waiting processes do not retry in lockstep.
      await sleep(delayMs * (0.5 + Math.random()));
    }
  }
}
