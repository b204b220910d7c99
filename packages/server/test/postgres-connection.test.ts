import assert from 'node:assert/strict';
import { setImmediate } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { DIALECTS } from './_dialects.js';
import { until } from './_until.js';
import { isConnectionFailure, NoWritableHostError } from '../src/store/postgres/connection-errors.js';
import { parseHostList } from '../src/store/postgres/host-list.js';
import { parametersWithoutNul } from '../src/store/postgres/nul-bytes.js';
import { createPool, DEFAULT_POOL_SETTINGS, withUnboundedStatements } from '../src/store/postgres/pool.js';
import { requireSupportedVersion } from '../src/store/postgres/migrations.js';
import { sql } from 'kysely';

describe('a multi-host DATABASE_URL (store/postgres/host-list.ts)', () => {
  it('one host: the URL as it is, any session will do', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/test?options=-c%20search_path%3Dx';
    assert.deepEqual(parseHostList(url), { hosts: ['127.0.0.1:5432'], urls: [url], readWrite: false });
  });

  it('several hosts with target_session_attrs=read-write: one URL per host, in order, credentials and other parameters kept', () => {
    const list = parseHostList(
      'postgresql://gh:s%40cret@db1:5432,db2:5433,[::1]:5434/gatehouse?sslmode=disable&target_session_attrs=read-write',
    );
    assert.deepEqual(list, {
      hosts: ['db1:5432', 'db2:5433', '[::1]:5434'],
      urls: [
        'postgresql://gh:s%40cret@db1:5432/gatehouse?sslmode=disable',
        'postgresql://gh:s%40cret@db2:5433/gatehouse?sslmode=disable',
        'postgresql://gh:s%40cret@[::1]:5434/gatehouse?sslmode=disable',
      ],
      readWrite: true,
    });
  });

  it('target_session_attrs=primary means read-write; an unknown value is refused at start', () => {
    assert.equal(parseHostList('postgres://a,b/db?target_session_attrs=primary').readWrite, true);
    assert.throws(() => parseHostList('postgres://a,b/db?target_session_attrs=standby'), /target_session_attrs/);
    assert.throws(() => parseHostList('postgres://a,,b/db'), /empty host/);
  });
});

describe('U+0000 in a query parameter (store/postgres/nul-bytes.ts)', () => {
  it('in a WHERE clause it is a key that matches nothing: sent as NULL', () => {
    assert.deepEqual(parametersWithoutNul('select * from clients where id = $1', ['x\u0000']), [null]);
    assert.deepEqual(
      parametersWithoutNul('select * from records where collection = $1 and id = $2', ['contacts', 'a\u0000']),
      ['contacts', null],
    );
  });

  it('in VALUES or SET it is stored as U+FFFD; parameters without it are passed as they are', () => {
    assert.deepEqual(
      parametersWithoutNul('insert into audit_events (id, client_id) values ($1, $2)', ['e1', 'x\u0000y']),
      ['e1', 'x\uFFFDy'],
    );
    assert.deepEqual(parametersWithoutNul('update t set a = $1 where b = $2', ['v\u0000', 'k\u0000']), [
      'v\uFFFD',
      null,
    ]);
    const clean = ['a', 1, null];
    assert.equal(parametersWithoutNul('select $1, $2, $3', clean), clean);
  });

  it('$1 is not mistaken for $10', () => {
    const params = Array.from({ length: 10 }, (_, i) => (i === 0 ? 'v\u0000' : `p${i}`));
    const sql = `insert into t values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict do update set x = $10 where y = $10`;
    assert.equal(parametersWithoutNul(sql, params)[0], 'v\uFFFD');
  });
});

describe('which PostgreSQL failures are an outage (store/postgres/connection-errors.ts)', () => {
  it('a dropped or refused connection, a shutdown, a standby, a timeout: yes', () => {
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('cannot execute UPDATE in a read-only transaction'), { code: '25006' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
      new Error('wrapped', { cause: new Error('Connection terminated') }),
      new NoWritableHostError(['a:1', 'b:2']),
    ])
      assert.equal(isConnectionFailure(error), true, error.message);
  });

  it('a fault of the query itself: no', () => {
    for (const error of [
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      new TypeError('x is undefined'),
      'a string',
      undefined,
    ])
      assert.equal(isConnectionFailure(error), false, String(error));
  });
});

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The pool against the shared server: only this test's own backends are terminated (by their pid),
 * so other suites on the server never notice.
 */
if (DIALECTS.includes('postgres'))
  describe('the connection pool (store/postgres/pool.ts) when the server drops its connections', () => {
    const pool = createPool(POSTGRES_URL, {
      ...DEFAULT_POOL_SETTINGS,
      max: 2,
      statementTimeoutMs: 300,
      queryTimeoutMs: 800,
    });
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    const pidOf = async (client: Awaited<ReturnType<typeof pool.connect>>): Promise<number> =>
      ((await client.query<{ pid: number }>('select pg_backend_pid() as pid', [])).rows[0] as { pid: number }).pid;
    /**
     * Terminates a backend and resolves once it has exited (the timeout form waits for that) and this
     * process has read what it sent: the ending connection's socket was readable before the answer to
     * the termination was sent, so by the check phase after that answer its events have run.
     */
    const terminate = async (pid: number): Promise<void> => {
      await admin.query('select pg_terminate_backend($1, 5000)', [pid]);
      await setImmediate();
    };

    before(() => admin.connect());
    after(async () => {
      await pool.end();
      await admin.end();
    });

    it('an idle connection terminated by the server is replaced; the process lives on', async () => {
      const first = await pool.connect();
      const pid = await pidOf(first);
      first.release();
      await terminate(pid);
      const next = await pool.connect();
      assert.notEqual(await pidOf(next), pid);
      next.release();
    });

    it('a checked-out connection terminated between two queries (as inside a transaction): the next query fails as an outage, no crash, and the connection is replaced', async () => {
      const client = await pool.connect();
      const pid = await pidOf(client);
      await terminate(pid);
      await assert.rejects(client.query('select 1', []), (error) => isConnectionFailure(error));
      client.release();
      const next = await pool.connect();
      assert.notEqual(await pidOf(next), pid);
      next.release();
    });

    it('a connection answering read-only (SQLSTATE 25006) replaces its host’s whole pool: no idle connection of it is handed out again', async () => {
      const readOnly = await pool.connect();
      const idle = await pool.connect();
      const idlePid = await pidOf(idle);
      idle.release();
      // As a fenced primary or a standby behind a moved address answers (here one session's own setting).
      await readOnly.query('set default_transaction_read_only = on', []);
      await assert.rejects(readOnly.query('create table gh_read_only_probe (a int)', []), { code: '25006' });
      readOnly.release();
      const next = await pool.connect();
      try {
        assert.notEqual(await pidOf(next), idlePid, 'the idle connection of the read-only pool was not reused');
      } finally {
        next.release();
      }
      const gone = async (): Promise<boolean> =>
        (await admin.query('select 1 from pg_stat_activity where pid = $1', [idlePid])).rowCount === 0;
      await until(gone, 'and it was closed');
    });

    it('in a transaction, a statement over the statement timeout fails as an outage (503), never hangs', async () => {
      const client = await pool.connect();
      try {
        await client.query('begin', []);
        await assert.rejects(client.query('select pg_sleep(1)', []), (error) => isConnectionFailure(error));
        await client.query('rollback', []);
      } finally {
        client.release();
      }
    });

    it('the time limits are the transaction’s own (SET LOCAL): the session keeps none, as a transaction pooler needs', async () => {
      const serverDefault = (await admin.query<{ statement_timeout: string }>('show statement_timeout')).rows[0];
      const client = await pool.connect();
      try {
        await client.query('begin', []);
        const inside = await client.query<{ statement_timeout: string }>('show statement_timeout', []);
        assert.equal(inside.rows[0]?.statement_timeout, '300ms');
        await client.query('commit', []);
        const afterwards = await client.query<{ statement_timeout: string }>('show statement_timeout', []);
        assert.deepEqual(afterwards.rows[0], serverDefault);
      } finally {
        client.release();
      }
    });

    it('a single statement outside a transaction is bounded by the client-side query timeout: an outage (503), never a hang', async () => {
      const client = await pool.connect();
      try {
        await assert.rejects(client.query('select pg_sleep(1.5)', []), (error) => isConnectionFailure(error));
      } finally {
        client.release();
      }
    });

    it('migrations run without the statement timeout (they may rewrite large tables or wait for a lock)', async () => {
      const rows = await withUnboundedStatements(
        POSTGRES_URL,
        async (db) => (await sql`select pg_sleep(0.5), 1 as one`.execute(db)).rows,
      );
      assert.equal(rows.length, 1);
    });
  });

describe('the PostgreSQL versions the store runs on (store/postgres/migrations.ts)', () => {
  it('13 or later, for pg_current_xact_id and pg_xact_status (a COMMIT in doubt, store/postgres/in-doubt.ts); an older one is refused at start, by name', () => {
    for (const supported of [130000, 150019, 170002]) requireSupportedVersion(supported);
    assert.throws(() => requireSupportedVersion(120022), /needs PostgreSQL 13 or later; this server is version 12$/);
    assert.throws(() => requireSupportedVersion(Number(undefined)), /version unknown$/);
  });
});
