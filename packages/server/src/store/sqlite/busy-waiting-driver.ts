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

  constructor(inner: Driver, budgetMs: number) {
    this.#inner = inner;
    this.#budgetMs = budgetMs;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new BusyWaitingConnection(await this.#inner.acquireConnection(), this.#budgetMs);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(unwrap(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(unwrap(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(unwrap(connection));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

class BusyWaitingConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  readonly #budgetMs: number;

  constructor(inner: DatabaseConnection, budgetMs: number) {
    this.inner = inner;
    this.#budgetMs = budgetMs;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return waitOutBusy(() => this.inner.executeQuery<R>(query), this.#budgetMs);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof BusyWaitingConnection ? connection.inner : connection;
}
