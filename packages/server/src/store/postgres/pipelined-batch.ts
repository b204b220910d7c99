import pg from 'pg';

/** One statement of a batch: a single SQL statement and its parameters. */
export interface BatchStatement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** What one statement answered, in the shape node-postgres answers a query (what Kysely reads). */
export interface BatchResult {
  readonly command: string;
  readonly rowCount: number | null;
  readonly rows: unknown[];
}

// node-postgres's own row parser and parameter serializer (`pg.Result`, `pg.utils.prepareValue`),
// which @types/pg does not declare: a batch parses and serializes exactly as a query does.
interface PgResult {
  command: string | null;
  rowCount: number | null;
  rows: unknown[];
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): unknown;
  addRow(row: unknown): void;
  addCommandComplete(message: unknown): void;
}
const internals = pg as unknown as {
  Result: new (rowMode: undefined, types: unknown) => PgResult;
  utils: { prepareValue: (value: unknown) => unknown };
};

/** The protocol writer node-postgres hands a submittable (its `Connection`). */
interface Writer {
  stream: { cork?: () => void; uncork?: () => void };
  parse(message: { text: string; name: string; types: number[] }): void;
  bind(message: {
    portal: string;
    statement: string;
    values: readonly unknown[];
    valueMapper: (value: unknown) => unknown;
  }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string; rows: number }): void;
  sync(): void;
}

/**
 * Several statements in one round trip: the extended query protocol's Parse, Bind, Describe and
 * Execute for each, then a single Sync (PostgreSQL protocol, "Pipelining"), so the client waits for
 * the database once. Statements run in order on one connection; the first that fails makes the
 * server skip the rest up to the Sync (inside an explicit transaction, the transaction is then
 * aborted and must be rolled back). Unnamed statements only: a transaction-pooling PgBouncer before
 * 1.21 refuses named prepared statements (docs/deployment.md, "PgBouncer").
 *
 * A node-postgres submittable (`client.query(batch)`): the client serializes it with its other
 * queries and routes the answers here; `done` runs once, with every statement's result or the
 * first error (a statement's, or the connection's).
 */
export class PipelinedBatch {
  readonly #statements: readonly BatchStatement[];
  readonly #results: PgResult[];
  #current = 0;
  #settled = false;
  #parseError: Error | undefined;
  /** Called by node-postgres (it wraps it with the pool's query timeout); settles the batch. */
  callback: (error: Error | null, results?: BatchResult[]) => void;

  constructor(
    statements: readonly BatchStatement[],
    types: unknown,
    done: (error: Error | null, results?: BatchResult[]) => void,
  ) {
    this.#statements = statements;
    this.#results = statements.map(() => new internals.Result(undefined, types));
    this.callback = done;
  }

  submit(connection: Writer): null {
    connection.stream.cork?.();
    try {
      for (const { text, values } of this.#statements) {
        connection.parse({ text, name: '', types: [] });
        connection.bind({ portal: '', statement: '', values, valueMapper: internals.utils.prepareValue });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '', rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: unknown[] }): void {
    this.#result()?.addFields(message.fields);
  }

  handleDataRow(message: { fields: unknown[] }): void {
    const result = this.#result();
    if (result === undefined || this.#parseError !== undefined) return;
    try {
      result.addRow(result.parseRow(message.fields));
    } catch (error) {
      // A value the type parsers refuse: the batch fails once the server is ready again, as a query does.
      this.#parseError = error as Error;
    }
  }

  handleCommandComplete(message: unknown): void {
    this.#result()?.addCommandComplete(message);
    this.#current += 1;
  }

  handleEmptyQuery(): void {
    this.#current += 1;
  }

  /** A statement's error (the server then skips to the Sync) or the connection's: the batch fails. */
  handleError(error: Error): void {
    this.#settle(error);
  }

  handleReadyForQuery(): void {
    if (this.#parseError !== undefined) return this.#settle(this.#parseError);
    this.#settle(
      null,
      this.#results.map((r) => ({ command: r.command ?? '', rowCount: r.rowCount, rows: r.rows })),
    );
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('COPY is not part of a pipelined batch');
  }

  handleCopyData(): void {}

  #result(): PgResult | undefined {
    return this.#results[this.#current];
  }

  #settle(error: Error | null, results?: BatchResult[]): void {
    if (this.#settled) return;
    this.#settled = true;
    this.callback(error, results);
  }
}

/** Runs `statements` as one batch on `client`: every statement's result, or the first error. */
export function runBatch(
  client: pg.ClientBase,
  statements: readonly BatchStatement[],
  types: unknown,
): Promise<BatchResult[]> {
  return new Promise((resolve, reject) => {
    const batch = new PipelinedBatch(statements, types, (error, results) =>
      error ? reject(error) : resolve(results ?? []),
    );
    client.query(batch as unknown as pg.Submittable);
  });
}
