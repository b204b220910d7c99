import type { RateLimitStore } from './rate-limits.js';
import type { Repository } from './repository.js';
import type { ClientRecord, GrantLiveness, RefreshTokenBrief } from '../primitives/records.js';

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
  /**
   * Transactions whose connection dropped during their COMMIT, by what asking the database found
   * (PostgreSQL: postgres/in-doubt.ts); a SQLite store has none. Read by the metrics at each scrape.
   */
  readonly commitsInDoubt?: () => ReadonlyMap<CommitInDoubtOutcome, number>;
  close(): Promise<void>;
  /** The reads a request can have answered in its own turn, on a dialect that can (SQLite); else absent. */
  readonly readsAtOnce?: ReadsAtOnce;
}

/**
 * Repository reads answered synchronously: each gives what its namesake's promise would, or null
 * when it must be waited for (a group commit is open, the file is locked, the epoch unreadable), and
 * the caller then asks the namesake. Introspection answers from these without an await
 * (oauth/endpoints/introspect.ts), and the bearer check of the JSON APIs reads its grant's liveness
 * (oauth/tokens/access-token-check.ts).
 */
export interface ReadsAtOnce {
  findClient(id: string): ClientRecord | undefined | null;
  findGrantLiveness(id: string): GrantLiveness | undefined | null;
  findRefreshTokenBrief(id: string): RefreshTokenBrief | undefined | null;
}

/** What a COMMIT whose answer was lost turned out to be: applied, rolled back, or not known (a 503). */
export type CommitInDoubtOutcome = 'committed' | 'aborted' | 'unknown';

export const COMMIT_IN_DOUBT_OUTCOMES: readonly CommitInDoubtOutcome[] = ['committed', 'aborted', 'unknown'];

/** Thrown when the store cannot take a lock in time; answered as a transient 503. */
export class StoreBusyError extends Error {
  constructor(options?: ErrorOptions) {
    super('the store is busy', options);
    this.name = 'StoreBusyError';
  }
}
