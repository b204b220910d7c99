import type { RateLimitStore } from './rate-limits.js';
import type { Repository } from './repository.js';

/**
 * The one storage interface. Every dialect (`./sqlite`, later `./postgres`) gives the same
 * repository and the same guarantee for `transaction`: the callback's reads and writes are one
 * atomic step, its locking reads exclude every other transaction on the same rows (on one process
 * or many), and the commit is durable before `transaction` resolves.
 */
export interface Store extends Repository {
  readonly dialect: 'sqlite' | 'postgres';
  /** The migrations this open applied (none when the schema was current). */
  readonly appliedMigrations: readonly string[];
  /** The migrations this version knows that the database lacks (none when current); one read, for readiness. */
  pendingMigrations(): Promise<readonly string[]>;
  /** Rate-limit buckets: in memory on SQLite (one process), in a shared table on PostgreSQL. */
  readonly rateLimits: RateLimitStore;
  transaction<T>(work: (tx: Repository) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Thrown when the store cannot take a lock in time; answered as a transient 503. */
export class StoreBusyError extends Error {
  constructor(options?: ErrorOptions) {
    super('the store is busy', options);
    this.name = 'StoreBusyError';
  }
}
