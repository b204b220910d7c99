import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isConnectionFailure, NoWritableHostError } from '../src/store/postgres/connection-errors.js';
import { parseHostList } from '../src/store/postgres/host-list.js';
import { parametersWithoutNul } from '../src/store/postgres/nul-bytes.js';

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
