import type BetterSqlite3 from 'better-sqlite3';

/**
 * The reads of one event-loop turn made outside any transaction, run in one read transaction.
 *
 * A statement run outside a transaction begins and ends a read transaction of its own: in WAL mode
 * that is the file's shared lock, a WAL-index read mark and their release (fcntl locks, an fstat),
 * which costs more than a point read itself. So the first such read of a turn opens a deferred
 * transaction (`BEGIN`; the read then takes the snapshot), the turn's later reads run in it, and it
 * is committed (a read transaction's COMMIT writes nothing and waits for no disk) at the end of the
 * turn (setImmediate), or before, by `end`, which every other use of the connection calls first:
 * the group commit before its BEGIN IMMEDIATE, every Kysely statement but a SELECT run outside a
 * transaction (busy-waiting-driver.ts), Kysely's own transactions, and closing. A write of this
 * process thus never runs inside the read transaction (it autocommits, durable before it resolves,
 * or is part of a batch), and the reads after it open a new one that sees it.
 *
 * What a turn's reads see is the file as it was at the turn's first read: a change this process
 * made since, and every change committed by another process before that first read. Another
 * process's commit during the turn is seen from the next one, as the row epoch is (turn-epoch.ts).
 *
 * A read that fails ends the transaction before its error goes on, so that none is left open (the
 * group commit's BEGIN IMMEDIATE would fail inside it), whatever the error.
 *
 * @see https://www.sqlite.org/lang_transaction.html "DEFERRED means that the transaction does not
 *   actually start until the database is first accessed"; the snapshot of a read transaction in WAL
 *   mode: https://www.sqlite.org/wal.html#concurrency
 */
export class TurnReadTransaction {
  readonly #database: BetterSqlite3.Database;
  readonly #begin: BetterSqlite3.Statement;
  readonly #commit: BetterSqlite3.Statement;
  readonly #rollback: BetterSqlite3.Statement;
  /** Whether the transaction open on the connection is this turn's read transaction. */
  #open = false;
  #endScheduled = false;

  constructor(database: BetterSqlite3.Database) {
    this.#database = database;
    this.#begin = database.prepare('begin');
    this.#commit = database.prepare('commit');
    this.#rollback = database.prepare('rollback');
  }

  /** Whether this turn's read transaction is open (for tests). */
  get open(): boolean {
    return this.#open;
  }

  /**
   * Runs `read`, a synchronous read outside any transaction of the caller's, in the turn's read
   * transaction, opened first if need be. Inside another transaction on the connection (a group
   * commit's batch, a migration) it runs there, as it is. A read that throws ends the transaction.
   */
  read<T>(read: () => T): T {
    try {
      this.enter();
      return read();
    } catch (error) {
      this.end();
      throw error;
    }
  }

  /**
   * Opens the turn's read transaction unless a transaction is open on the connection already; for
   * a read the caller runs at once and whose failure it answers with `end`.
   */
  enter(): void {
    if (this.#open || this.#database.inTransaction) return;
    this.#begin.run();
    this.#open = true;
    if (!this.#endScheduled) {
      this.#endScheduled = true;
      setImmediate(this.#endOfTurn);
    }
  }

  /**
   * Ends the turn's read transaction if it is open: before anything but a read of the turn runs on
   * the connection. SQLite may have ended it already (after some errors): then there is nothing to end.
   */
  readonly end = (): void => {
    if (!this.#open) return;
    if (this.#database.inTransaction) {
      try {
        this.#commit.run();
      } catch {
        // A transaction that wrote nothing is ended as well by a rollback.
        this.#rollback.run();
      }
    }
    this.#open = false;
  };

  readonly #endOfTurn = (): void => {
    this.#endScheduled = false;
    try {
      this.end();
    } catch {
      // Left open, and still marked so: the next user of the connection ends it, or fails with the error.
    }
  };
}
