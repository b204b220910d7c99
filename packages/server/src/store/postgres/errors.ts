import { StoreBusyError } from '../store.js';

/** How often a transaction that lost a serialization race or a deadlock is tried again. */
const ATTEMPTS = 5;
const RETRYABLE = new Set(['40001', '40P01']);
// Connection failures: the store is unreachable, which clients should see as transient.
const UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '53300']);

/**
 * Runs `run`, again after a serialization failure or a deadlock (up to ATTEMPTS); a lost race past
 * that, or an unreachable database, is answered as StoreBusyError (503).
 */
export async function withRetries<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (RETRYABLE.has(code) && attempt < ATTEMPTS) continue;
      if (RETRYABLE.has(code) || UNAVAILABLE.has(code)) throw new StoreBusyError({ cause: error });
      throw error;
    }
  }
}

/** Every repository method, with an unreachable database answered as StoreBusyError (503). */
export function withUnavailableMapped<R extends object>(repository: R): R {
  const mapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(repository)) {
    mapped[name] = (...args: unknown[]) =>
      withRetries(() => (method as (...a: unknown[]) => Promise<unknown>)(...args));
  }
  return mapped as R;
}
