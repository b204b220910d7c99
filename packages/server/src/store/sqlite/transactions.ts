import type BetterSqlite3 from 'better-sqlite3';
import type { Repository } from '../repository.js';
import { isBusy, waitOutBusy } from './errors.js';
import type { TurnReadTransaction } from './turn-read-transaction.js';

/** The connection a GroupCommit runs on. */
export interface GroupCommitConnection {
  readonly database: BetterSqlite3.Database;
  /** How long to wait for another process's write lock before failing with StoreBusyError, ms. */
  readonly busyBudgetMs: number;
  /**
   * Runs `batch` while holding the connection, with a repository on it. Nothing else runs a
   * statement on the connection meanwhile (Kysely's connection mutex), except the hot queries
   * gated by `GroupCommit.outsideTransactions`.
   */
  exclusive<T>(batch: (tx: Repository) => Promise<T>): Promise<T>;
  /** Told once each batch has committed or rolled back (row-cache.ts). */
  readonly wrote?: () => void;
  /**
   * The turn's read transaction on the same connection: the reads of `outsideTransactions` run in
   * it, and each batch ends it before its BEGIN IMMEDIATE.
   */
  readonly reads: TurnReadTransaction;
}

interface Pending {
  readonly work: (tx: Repository) => Promise<unknown>;
  /** The work runs exactly one statement: no savepoint around it (see runStatement). */
  readonly oneStatement: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * `Store.transaction` on SQLite, with group commit. With `synchronous=FULL` every COMMIT waits for
 * the disk (an fsync of the WAL), and that wait, not the queries, bounds how many refreshes one
 * process answers. So the transactions requested in one turn of the event loop are run one after
 * the other inside ONE database transaction, each in its own SAVEPOINT (a work of one statement
 * needs none: runStatement), and committed together:
 *
 * - atomic, each on its own: a work that throws is rolled back to its savepoint, alone, and its
 *   caller gets the error; the others are unaffected. Works run strictly one at a time, in order,
 *   each seeing what the earlier ones wrote, exactly as if they had been separate transactions.
 * - durable before anyone is answered: no promise settles until the shared COMMIT has returned
 *   (and so is on disk); if the COMMIT fails, every work of the batch fails with it and nothing of
 *   it is visible.
 * - isolated from other processes: BEGIN IMMEDIATE takes the write lock before the first read, as
 *   a single transaction did, so concurrent exchanges of one token on several processes still see
 *   each other's commits and exactly one succeeds. A lock not obtained within the busy budget fails
 *   the batch with StoreBusyError (503), as a lone transaction would.
 *
 * The batch is flushed by setImmediate: after the I/O callbacks of this turn have queued their
 * transactions, and without waiting for any timer.
 */
export class GroupCommit {
  readonly #connection: GroupCommitConnection;
  readonly #statements: {
    begin: BetterSqlite3.Statement;
    commit: BetterSqlite3.Statement;
    rollback: BetterSqlite3.Statement;
    savepoint: BetterSqlite3.Statement;
    release: BetterSqlite3.Statement;
    rollbackToSavepoint: BetterSqlite3.Statement;
  };
  #queue: Pending[] = [];
  #flushScheduled = false;
  /** Settles when the batch that is open on the connection has committed or rolled back. */
  #open: Promise<void> | null = null;

  constructor(connection: GroupCommitConnection) {
    this.#connection = connection;
    const { database } = connection;
    this.#statements = {
      begin: database.prepare('begin immediate'),
      commit: database.prepare('commit'),
      rollback: database.prepare('rollback'),
      savepoint: database.prepare('savepoint work'),
      release: database.prepare('release work'),
      rollbackToSavepoint: database.prepare('rollback to work'),
    };
  }

  /** Whether a batch is open on the connection: what it wrote is not committed yet. */
  get writing(): boolean {
    return this.#open !== null;
  }

  /** Runs `work` as one atomic, durable step; see the class comment. */
  run<T>(work: (tx: Repository) => Promise<T>): Promise<T> {
    return this.#enqueue(work, false);
  }

  /**
   * `run` for a work of exactly one statement (a REST write, a DPoP proof noted): it needs no
   * savepoint of its own, since SQLite undoes a failed statement by itself and keeps the
   * transaction open (a constraint violation under the default ABORT); an error that ends the whole
   * transaction fails the batch, as it does under a savepoint. Saves a REST write the SAVEPOINT and
   * RELEASE statements.
   *
   * @see https://www.sqlite.org/lang_conflict.html ABORT: "changes made by that statement are backed out"
   */
  runStatement<T>(work: (tx: Repository) => Promise<T>): Promise<T> {
    return this.#enqueue(work, true);
  }

  #enqueue<T>(work: (tx: Repository) => Promise<T>, oneStatement: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, oneStatement, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  /**
   * Wraps queries that run on the connection outside any transaction, so that they never run
   * inside an open batch — where they would see writes not yet committed, which may never be —
   * and wait for another process's lock as the Kysely queries do. They run in the turn's read
   * transaction (turn-read-transaction.ts), which a failed read ends.
   */
  outsideTransactions<Q extends object>(queries: Q): Q {
    const { reads } = this.#connection;
    const gated = {} as Record<string, unknown>;
    for (const [name, query] of Object.entries(queries) as [string, (...args: unknown[]) => Promise<unknown>][]) {
      const waiting = (...args: unknown[]) =>
        this.#busyAware(async () => {
          // Re-checked after each wait: another batch may have opened in the meantime.
          while (this.#open) await this.#open;
          reads.enter();
          try {
            return await query(...args);
          } catch (error) {
            reads.end();
            throw error;
          }
        });
      // The usual read, with no batch open, runs at once, as the waiting path would run it in this
      // same turn, without its two async frames (a promise and a microtask each, on every token
      // and REST request); only an SQLITE_BUSY refusal is handed to the waiting path.
      gated[name] = (...args: unknown[]) => {
        if (this.#open !== null) return waiting(...args);
        try {
          reads.enter();
        } catch {
          // Tried again, and its error answered, where errors are rejections.
          return waiting(...args);
        }
        // The queries are async functions whose statement runs before they return: a failure,
        // SQLITE_BUSY included, is a rejection.
        return query(...args).catch((error: unknown) => {
          reads.end();
          if (isBusy(error)) return waiting(...args);
          throw error;
        });
      };
    }
    return gated as Q;
  }

  /**
   * `outsideTransactions` for synchronous queries: each runs at once in the turn's read transaction,
   * or answers null where the gated query would wait (a batch open, the file locked) or fail; the
   * caller then asks the gated query, which waits or answers the error.
   */
  outsideTransactionsAtOnce<Q extends Record<keyof Q, (id: string) => unknown>>(
    queries: Q,
  ): { readonly [K in keyof Q]: (id: string) => ReturnType<Q[K]> | null } {
    const { reads } = this.#connection;
    const gated = {} as Record<string, (id: string) => unknown>;
    for (const [name, query] of Object.entries<(id: string) => unknown>(queries)) {
      gated[name] = (id) => {
        if (this.#open !== null) return null;
        try {
          reads.enter();
          return query(id);
        } catch {
          reads.end();
          return null;
        }
      };
    }
    return gated as { readonly [K in keyof Q]: (id: string) => ReturnType<Q[K]> | null };
  }

  async #flush(): Promise<void> {
    this.#flushScheduled = false;
    const batch = this.#queue;
    this.#queue = [];
    const outcomes: (() => void)[] = [];
    try {
      await this.#connection.exclusive(async (tx) => {
        // The turn's read transaction ends first, on each try: a read may open it while this waits.
        await this.#busyAware(() => {
          this.#connection.reads.end();
          return this.#statements.begin.run();
        });
        let closeBatch!: () => void;
        this.#open = new Promise<void>((resolve) => (closeBatch = resolve));
        try {
          for (const pending of batch)
            outcomes.push(
              await (pending.oneStatement ? this.#runAlone(pending, tx) : this.#runInSavepoint(pending, tx)),
            );
          await this.#busyAware(() => this.#statements.commit.run());
        } catch (error) {
          if (this.#connection.database.inTransaction) this.#statements.rollback.run();
          throw error;
        } finally {
          this.#open = null;
          closeBatch();
          this.#connection.wrote?.();
        }
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const settle of outcomes) settle();
  }

  /** Runs one work in its own savepoint; returns how to settle its promise once committed. */
  async #runInSavepoint(pending: Pending, tx: Repository): Promise<() => void> {
    const { savepoint, release, rollbackToSavepoint } = this.#statements;
    savepoint.run();
    try {
      const value = await pending.work(tx);
      release.run();
      return () => pending.resolve(value);
    } catch (error) {
      // Undoes this work's writes only; if the error took the whole transaction with it, this
      // throws and the batch fails as a whole.
      rollbackToSavepoint.run();
      release.run();
      return () => pending.reject(error);
    }
  }

  /** Runs a one-statement work as it is (runStatement); returns how to settle its promise once committed. */
  async #runAlone(pending: Pending, tx: Repository): Promise<() => void> {
    try {
      const value = await pending.work(tx);
      return () => pending.resolve(value);
    } catch (error) {
      // The statement undid itself; if the error took the whole transaction with it, the batch fails.
      if (!this.#connection.database.inTransaction) throw error;
      return () => pending.reject(error);
    }
  }

  /** Another process's lock is waited for asynchronously (see BusyWaitingDriver), up to the budget. */
  #busyAware<T>(statement: () => T | Promise<T>): Promise<T> {
    return waitOutBusy(statement, this.#connection.busyBudgetMs);
  }
}
