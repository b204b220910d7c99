import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from 'kysely';
import { waitOutBusy } from './errors.js';
import type { TurnReadTransaction } from './turn-read-transaction.js';

/**
 * better-sqlite3 waits for another connection's lock synchronously (busy_timeout), which would stop
 * this process's event loop — and deadlock outright if the lock holder is in the same process. So
 * the connection runs with busy_timeout 0 and this driver waits here instead, asynchronously, with
 * backoff, until `budgetMs` is spent; then the request is answered 503 (StoreBusyError).
 *
 * It also keeps the turn's read transaction (turn-read-transaction.ts) to reads: a SELECT run outside
 * a transaction joins it, and any other statement, a transaction Kysely begins, a stream and closing
 * end it first, so that a write autocommits, durable before it resolves, as it would without it.
 */
export class BusyWaitingDriver implements Driver {
  readonly #inner: Driver;
  readonly #budgetMs: number;
  readonly #writes: WriteNotices;
  readonly #reads: TurnReadTransaction;

  /** `writes` hears of every statement that may have written, once it has run (row-cache.ts). */
  constructor(inner: Driver, budgetMs: number, writes: WriteNotices, reads: TurnReadTransaction) {
    this.#inner = inner;
    this.#budgetMs = budgetMs;
    this.#writes = writes;
    this.#reads = reads;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    return new BusyWaitingConnection(connection, this.#budgetMs, this.#writes, this.#reads);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    this.#reads.end();
    return this.#inner.beginTransaction(unwrap(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(unwrap(connection)).finally(this.#writes.wrote);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(unwrap(connection)).finally(this.#writes.wrote);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    this.#reads.end();
    return this.#inner.destroy();
  }
}

/** Who hears that this process wrote to the file; `wrote` is replaced once the store has a listener. */
export interface WriteNotices {
  wrote: () => void;
}

class BusyWaitingConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  readonly #budgetMs: number;
  readonly #writes: WriteNotices;
  readonly #reads: TurnReadTransaction;

  constructor(inner: DatabaseConnection, budgetMs: number, writes: WriteNotices, reads: TurnReadTransaction) {
    this.inner = inner;
    this.#budgetMs = budgetMs;
    this.#writes = writes;
    this.#reads = reads;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // SQLite's driver runs the statement before it returns: on each try, the read transaction is
    // joined or ended right before it runs.
    if (query.query.kind === 'SelectQueryNode')
      return waitOutBusy(() => this.#reads.read(() => this.inner.executeQuery<R>(query)), this.#budgetMs);
    const ran = waitOutBusy(() => {
      this.#reads.end();
      return this.inner.executeQuery<R>(query);
    }, this.#budgetMs);
    // Anything but a SELECT may have written (raw SQL included); told once it has run, failed or not.
    return ran.finally(() => this.#writes.wrote());
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.#reads.end();
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof BusyWaitingConnection ? connection.inner : connection;
}
