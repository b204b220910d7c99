import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult } from 'kysely';
import pg from 'pg';
import { isConnectionFailure, NoWritableHostError } from './connection-errors.js';
import { parametersWithoutNul } from './nul-bytes.js';
import { parseHostList } from './host-list.js';
import { runBatch, type BatchResult, type BatchStatement } from './pipelined-batch.js';

export interface PoolSettings {
  /** Connections per process (per host of a multi-host URL; only the current primary's are used). */
  readonly max: number;
  /** Bound on getting a connection: a free pool slot or a new connection, ms. */
  readonly connectionTimeoutMs: number;
  /** Server-side bound on one statement (also cancels a commit's wait for a lost synchronous standby), ms. */
  readonly statementTimeoutMs: number;
  /** Client-side bound on one query's answer, for a socket that died without a reset, ms. */
  readonly queryTimeoutMs: number;
  readonly types?: pg.CustomTypesConfig;
  /**
   * Statements a pipelined transaction (PIPELINED_BEGIN) holds back and sends with its next
   * statement or its COMMIT: writes whose answer nobody reads (the rotation, ./rotation.ts).
   */
  readonly writeBehind?: ReadonlySet<string>;
}

export const DEFAULT_POOL_SETTINGS: Omit<PoolSettings, 'max'> = {
  connectionTimeoutMs: 3000,
  statementTimeoutMs: 10_000,
  queryTimeoutMs: 15_000,
};

/**
 * Runs `work` on its own small pool whose statements have no time limit (the server's default):
 * for migrations, which may rewrite large tables or wait for another process's migration lock.
 */
export async function withUnboundedStatements<T>(
  connectionString: string,
  work: (db: Kysely<unknown>) => Promise<T>,
): Promise<T> {
  const settings = { ...DEFAULT_POOL_SETTINGS, max: 3, statementTimeoutMs: 0, queryTimeoutMs: 0 };
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: createPool(connectionString, settings) }) });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

/** The host answered but is a standby (`transaction_read_only` is on). */
class ReadOnlyHostError extends Error {
  constructor(host: string) {
    super(`PostgreSQL host ${host} is read-only (a standby)`);
    this.name = 'ReadOnlyHostError';
  }
}

// pg-pool's own message when no pool slot freed up in time: the pool is busy, the host is fine.
const POOL_BUSY = /timeout exceeded when trying to connect/;

const ignore = (): void => {};

/** SQLSTATE read_only_sql_transaction: a write on a host that is not (or no longer) a primary. */
const READ_ONLY_SQL_TRANSACTION = '25006';

/**
 * The connection pool behind Kysely. Every pool and client error has a listener (node-postgres
 * emits 'error' on idle clients and on checked-out clients between queries when the server drops
 * them; unheard, that killed the process); a client whose connection failed is destroyed on release,
 * so the pool replaces it. A multi-host DATABASE_URL (`postgres://h1:5432,h2:5432/db`) is served by
 * one pg.Pool per host: connections come from the host that last worked, and when it fails the
 * hosts are tried in order and the first that accepts (with `target_session_attrs=read-write`:
 * whose `transaction_read_only` is off, as libpq means it) is kept.
 *
 * A statement answered "read-only" (SQLSTATE 25006) means the host behind that pool is no longer a
 * primary (fenced for a switchover, or a standby now behind an address or pooler that has not moved
 * yet): the host's whole pool is replaced by a fresh one, so that no connection it held is used
 * again — not even for a read, which the read-only host would answer from data that may be stale —
 * and the next request connects anew (and, with `target_session_attrs=read-write`, moves to the
 * writable host). What broke Keycloak (#49515, #46815) was a pool that kept such connections and
 * failed until it was restarted.
 */
export function createPool(connectionString: string, settings: PoolSettings): PostgresPool {
  const { hosts, urls, readWrite } = parseHostList(connectionString);
  const newPool = (url: string, i: number): pg.Pool => {
    const pool = new pg.Pool({
      connectionString: url,
      max: settings.max,
      connectionTimeoutMillis: settings.connectionTimeoutMs,
      // No session settings (startup parameters, session SET): behind PgBouncer in transaction
      // pooling a session is not ours between transactions, and PgBouncer refuses the connection
      // outright for a startup parameter it does not know. The server-side timeouts are set per
      // transaction instead (see `begin` below); a single statement outside a transaction is bounded
      // by query_timeout here and by the role's own statement_timeout if the operator sets one.
      query_timeout: settings.queryTimeoutMs,
      keepAlive: true,
      ...(settings.types ? { types: settings.types } : {}),
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg-pool awaits it (see newClientCheck)
      onConnect: newClientCheck(hosts[i] ?? '', readWrite),
    });
    pool.on('error', ignore);
    return pool;
  };
  const pools = urls.map(newPool);
  const begin = beginWithTimeouts(settings);
  const pipelining: Pipelining = {
    begin: begin.statements,
    types: settings.types,
    writeBehind: settings.writeBehind ?? new Set(),
  };
  let current = 0;

  async function connectTo(index: number): Promise<PostgresPoolClient> {
    const pool = pools[index] as pg.Pool;
    return wrapClient(await pool.connect(), begin.text, pipelining, () => {
      // Once per pool: of many clients answered read-only at once, the first replaces it.
      if (pools[index] !== pool) return;
      pools[index] = newPool(urls[index] as string, index);
      // Ends its idle clients now and each checked-out one on release.
      pool.end().catch(ignore);
    });
  }

  return {
    async connect() {
      const first = current;
      try {
        return await connectTo(first);
      } catch (error) {
        if (POOL_BUSY.test((error as Error).message)) throw error;
        let last = error;
        for (let i = 0; i < pools.length; i++) {
          if (i === first) continue;
          try {
            const client = await connectTo(i);
            current = i;
            return client;
          } catch (next) {
            last = next;
          }
        }
        throw new NoWritableHostError(hosts, { cause: last });
      }
    },
    async end() {
      await Promise.all(pools.map((pool) => pool.end()));
    },
  };
}

/**
 * The server life a connection belongs to, read when it connects: the postmaster's start time and
 * when its shared statistics were last reset, which a crash and the server's reinitialisation after
 * it (a backend killed, `pg_ctl stop -m immediate`) also do. A crash kills every connection, so a
 * transaction on a live connection ran in the life read at its connect; `commitOutcome` (./in-doubt.ts)
 * trusts a transaction id's status only in that same life (an id can be given out again after a crash).
 */
export const SERVER_LIFE = `pg_postmaster_start_time()::text || ' ' || coalesce((select stats_reset from pg_stat_bgwriter)::text, '')`;

/** Each pooled client's server life (see SERVER_LIFE), read by its connect check. */
const lives = new WeakMap<pg.ClientBase, string>();

/**
 * pg-pool's hook on a new connection, before the pool hands it out; a rejection ends the
 * connection and fails the checkout. (@types/pg declares it void; pg-pool awaits the promise.)
 */
function newClientCheck(host: string, readWrite: boolean): (client: pg.ClientBase) => Promise<void> {
  return async (client) => {
    // Checked-out clients have no listener of pg-pool's: a drop between queries would be unheard.
    client.on('error', ignore);
    const { rows } = await client.query<{ read_only: string; life: string }>(
      `select current_setting('transaction_read_only') as read_only, ${SERVER_LIFE} as life`,
    );
    if (readWrite && rows[0]?.read_only !== 'off') throw new ReadOnlyHostError(host);
    lives.set(client, rows[0]?.life ?? '');
  };
}

/**
 * Kysely's `begin`, with the transaction's server-side time limits and its transaction id:
 * `set_config(…, true)` is `SET LOCAL`, which lasts until the COMMIT or ROLLBACK, so it holds on
 * whichever server connection a transaction pooler gives this transaction and leaves nothing behind.
 * The id (`pg_current_xact_id()`, which also assigns it now) is what tells, should the answer to the
 * COMMIT be lost, whether it was applied (./in-doubt.ts). Sent as one simple-protocol query: no extra
 * round trip. On a standby the id's assignment is refused with SQLSTATE 25006, as a write would be.
 */
function beginWithTimeouts(settings: PoolSettings): { text: string; statements: BatchStatement[] } {
  // A session left in a transaction by a client that vanished must not hold row locks for long.
  const idle = Math.max(settings.statementTimeoutMs, 30_000);
  const limits = `select set_config('statement_timeout', '${Math.trunc(settings.statementTimeoutMs)}', true), set_config('idle_in_transaction_session_timeout', '${Math.trunc(idle)}', true), pg_current_xact_id()::text as xid`;
  return {
    text: `begin; ${limits}`,
    statements: [
      { text: 'begin', values: [] },
      { text: limits, values: [] },
    ],
  };
}

/**
 * The BEGIN of `Store.transaction` (./transactions.ts), answered at once and sent later, with the
 * transaction's first statement, in one round trip (./pipelined-batch.ts). Kysely's own
 * `transaction()` sends a plain `begin`, sent and answered at once.
 */
export const PIPELINED_BEGIN = 'begin /* with the first statement */';
/**
 * Asked of a pipelined transaction before its COMMIT: what its BEGIN answered (a BegunTransaction),
 * without a round trip; an empty id if no statement was sent yet.
 */
export const PIPELINED_BEGUN = 'select /* the begun transaction */';

interface Pipelining {
  readonly begin: readonly BatchStatement[];
  readonly types: pg.CustomTypesConfig | undefined;
  readonly writeBehind: ReadonlySet<string>;
}

const NO_ROWS = { command: '', rowCount: null, rows: [] } as unknown as PostgresQueryResult<unknown>;
const COMMIT: BatchStatement = { text: 'commit', values: [] };

/** What `begin` answers: the transaction's id and its connection's server life (see ./in-doubt.ts). */
export interface BegunTransaction {
  readonly xid: string;
  readonly life: string;
}

/**
 * The client Kysely sees: NUL-safe parameters, `begin` with its time limits (answering a
 * BegunTransaction), destroyed on release once its connection failed or it answered read-only
 * (SQLSTATE 25006, which also replaces its host's pool: see createPool).
 */
function wrapClient(
  client: pg.PoolClient,
  begin: string,
  pipelining: Pipelining,
  onReadOnly: () => void,
): PostgresPoolClient {
  let broken: Error | undefined;
  const failed = (error: unknown): void => {
    if (isConnectionFailure(error)) broken = error as Error;
    if ((error as { code?: unknown }).code === READ_ONLY_SQL_TRANSACTION) onReadOnly();
  };

  // A pipelined transaction: its BEGIN until the first statement goes, and the writes held back.
  let pipelined = false;
  let pendingBegin = false;
  let held: BatchStatement[] = [];
  let begun: BegunTransaction = { xid: '', life: '' };
  /** Sends the pending BEGIN and held writes, then `statements`, in one round trip; answers `statements`'. */
  async function flush(statements: readonly BatchStatement[]): Promise<BatchResult[]> {
    const beginning = pendingBegin;
    const prefix = [...(beginning ? pipelining.begin : []), ...held];
    pendingBegin = false;
    held = [];
    let results: BatchResult[];
    try {
      results = await runBatch(client, [...prefix, ...statements], pipelining.types);
    } catch (error) {
      failed(error);
      throw error;
    }
    if (beginning) {
      // The second statement of the BEGIN answers the transaction's id.
      const xid = (results[1]?.rows[0] as { xid?: string } | undefined)?.xid ?? '';
      begun = { xid, life: lives.get(client) ?? '' };
    }
    return results.slice(prefix.length);
  }
  async function pipelinedQuery(text: string, parameters: readonly unknown[]): Promise<unknown> {
    if (text === 'rollback') {
      pipelined = false;
      held = [];
      // Nothing was sent: there is nothing to roll back.
      if (pendingBegin) {
        pendingBegin = false;
        return NO_ROWS;
      }
      return plainQuery(text, parameters);
    }
    if (text === 'commit') {
      pipelined = false;
      if (pendingBegin && held.length === 0) {
        pendingBegin = false;
        return NO_ROWS;
      }
      try {
        // The transaction's id must be known before its COMMIT is sent (./in-doubt.ts).
        if (pendingBegin) await flush([]);
        const [result] = await flush([COMMIT]);
        return result;
      } catch (error) {
        // A held write failed: the server skipped the COMMIT and the transaction is aborted, still open.
        if (!isConnectionFailure(error)) await client.query('rollback').catch(ignore);
        throw error;
      }
    }
    if (text === PIPELINED_BEGUN) {
      // Writes alone so far: they go with the BEGIN now, so that the id is known before the COMMIT.
      if (pendingBegin && held.length > 0) await flush([]);
      return { rows: [begun] };
    }
    const statement = { text, values: parametersWithoutNul(text, parameters) };
    if (pipelining.writeBehind.has(text)) {
      held.push(statement);
      return NO_ROWS;
    }
    const [result] = await flush([statement]);
    return result;
  }
  async function plainQuery(text: string, parameters: readonly unknown[]): Promise<unknown> {
    try {
      if (text === 'begin') {
        // Two results, one per statement; the second has the id.
        const results = (await client.query(begin)) as unknown as pg.QueryResult<{ xid: string }>[];
        const begun: BegunTransaction = { xid: results[1]?.rows[0]?.xid ?? '', life: lives.get(client) ?? '' };
        return { rows: [begun] };
      }
      return await client.query(text, parametersWithoutNul(text, parameters));
    } catch (error) {
      failed(error);
      throw error;
    }
  }
  return {
    query(text: string, parameters: readonly unknown[]) {
      if (text === PIPELINED_BEGIN) {
        pipelined = true;
        pendingBegin = true;
        held = [];
        begun = { xid: '', life: '' };
        return Promise.resolve(NO_ROWS);
      }
      return pipelined ? pipelinedQuery(text, parameters) : plainQuery(text, parameters);
    },
    release() {
      client.release(broken);
    },
  } as PostgresPoolClient;
}
