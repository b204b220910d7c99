import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startWaitingForStore } from '../src/cli/worker-start.js';
import { NoWritableHostError } from '../src/store/postgres/connection-errors.js';
import { StoreBusyError } from '../src/store/store.js';
import { isStoreUnavailable } from '../src/store/unavailable.js';

/** A log that keeps what it was told. */
function keptLog(): { lines: { fields: object; message: string }[]; warn(fields: object, message: string): void } {
  const lines: { fields: object; message: string }[] = [];
  return { lines, warn: (fields, message) => void lines.push({ fields, message }) };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('a worker of `serve --workers` starting during a store outage (cli/worker-start.ts)', () => {
  it('an outage is a StoreBusyError, a driver connection failure, or either as the cause; nothing else is', () => {
    assert.equal(isStoreUnavailable(new StoreBusyError()), true);
    assert.equal(isStoreUnavailable(refused), true);
    assert.equal(isStoreUnavailable(new NoWritableHostError(['127.0.0.1:5432'], { cause: refused })), true);
    assert.equal(isStoreUnavailable(new Error('opening', { cause: new StoreBusyError() })), true);
    assert.equal(isStoreUnavailable(new Error('the database has 2 pending migrations')), false);
    assert.equal(isStoreUnavailable(Object.assign(new Error('role "x" does not exist'), { code: '28000' })), false);
  });

  it('tries again while the store cannot be reached, saying so each time, and starts once it can', async () => {
    const log = keptLog();
    const failures = [new NoWritableHostError(['127.0.0.1:5432'], { cause: refused }), new StoreBusyError()];
    let tries = 0;
    const started = await startWaitingForStore(
      async () => {
        tries += 1;
        const failure = failures.shift();
        if (failure) throw failure;
        return 'serving';
      },
      log,
      new AbortController().signal,
    );
    assert.equal(started, 'serving');
    assert.equal(tries, 3);
    assert.deepEqual(
      log.lines.map((l) => l.message),
      [
        'the store could not be reached while this worker started; trying again in 250 ms',
        'the store could not be reached while this worker started; trying again in 500 ms',
      ],
    );
  });

  it('any other failure (pending migrations, a refused login) stops the start at once, as for one process', async () => {
    const log = keptLog();
    const pending = new Error('the database has 2 pending migrations: run gatehouse migrate');
    await assert.rejects(
      startWaitingForStore(() => Promise.reject(pending), log, new AbortController().signal),
      (error) => error === pending,
    );
    assert.deepEqual(log.lines, []);
  });

  it('a stop signal during the wait ends it: no server, nothing thrown', async () => {
    const stop = new AbortController();
    const log = keptLog();
    const started = startWaitingForStore(() => Promise.reject(new StoreBusyError()), log, stop.signal);
    stop.abort();
    assert.equal(await started, undefined);
    assert.equal(log.lines.length, 1);
  });
});
