import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from 'kysely';
import { waitOutBusy } from './errors.js';

/**
 * better-sqlite3 waits for another connection's lock synchronously (busy_timeout), which would stop
 * this process's event loop — and deadlock outright if the lock holder is in the same process. So
 * the connection runs with busy_timeout 0 and this driver waits here instead, asynchronously, with
 * backoff, until `budgetMs` is spent; then the request is answered 503 (StoreBusyError).
 */
export class BusyWaitingDriver implements Driver {
  readonly #inner: Driver;
  readonly #budgetMs: number;
  readonly #writes: WriteNotices;

  /** `writes` hears of every statement that may have written, once it has run (row-cache.ts). */
  constructor(inner: Driver, budgetMs: number, writes: WriteNotices) {
    this.#inner = inner;
    this.#budgetMs = budgetMs;
    this.#writes = writes;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new BusyWaitingConnection(await this.#inner.acquireConnection(), this.#budgetMs, this.#writes);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
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

  constructor(inner: DatabaseConnection, budgetMs: number, writes: WriteNotices) {
    this.inner = inner;
    this.#budgetMs = budgetMs;
    this.#writes = writes;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const ran = waitOutBusy(() => this.inner.executeQuery<R>(query), this.#budgetMs);
    // Anything but a SELECT may have written (raw SQL included); told once it has run, failed or not.
    return query.query.kind === 'SelectQueryNode' ? ran : ran.finally(() => this.#writes.wrote());
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof BusyWaitingConnection ? connection.inner : connection;
}
