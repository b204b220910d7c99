import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { TokenStoreError } from '@gatehouse/client';
import { withFileLock } from '@gatehouse/client/node';
import { runInGroup } from '../../server/test/_processes.js';
import { until } from '../../server/test/_until.js';

const HOLDER = fileURLToPath(new URL('./_lock-holder.ts', import.meta.url));
const CLIENT_DIR = fileURLToPath(new URL('..', import.meta.url));

/** A lock file as another live process would have left it, last touched `ageMs` ago. */
function foreignLock(lockPath: string, ageMs: number, owner: object = {}): void {
  writeFileSync(
    lockPath,
    JSON.stringify({ pid: process.pid, host: hostname(), id: 'someone-else', acquiredAt: 0, ...owner }),
  );
  const touched = new Date(Date.now() - ageMs);
  utimesSync(lockPath, touched, touched);
}

describe('withFileLock: an exclusive lock file between processes', () => {
  let dir: string;
  let lockPath: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-lock-'));
    lockPath = join(dir, 'tokens.enc.lock');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('of many callers of one lock, one runs at a time, and the lock file is gone afterwards', async () => {
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        withFileLock(lockPath, async () => {
          most = Math.max(most, ++inside);
          await sleep(5);
          order.push(i);
          inside--;
        }),
      ),
    );
    assert.equal(most, 1);
    assert.equal(order.length, 12);
    assert.ok(!existsSync(lockPath));
  });

  test('the lock file names its holder: pid, host and a random id', async () => {
    await withFileLock(lockPath, async () => {
      const owner = JSON.parse(readFileSync(lockPath, 'utf8')) as { pid: number; host: string; id: string };
      assert.equal(owner.pid, process.pid);
      assert.equal(owner.host, hostname());
      assert.match(owner.id, /^[A-Za-z0-9_-]{16}$/);
    });
  });

  test('a lock whose holder process crashed is taken over at once, not after the stale time', async () => {
    const holder = await runInGroup(
      process.execPath,
      ['--conditions=@gatehouse/source', '--import', 'tsx', HOLDER, lockPath],
      {
        cwd: CLIENT_DIR,
      },
    );
    assert.equal(holder.out, 'held\n', holder.err);
    assert.ok(existsSync(lockPath), 'the crashed holder left its lock file');
    const started = Date.now();
    const result = await withFileLock(lockPath, async () => 'ran', { staleMs: 60_000, timeoutMs: 5000 });
    assert.equal(result, 'ran');
    assert.ok(Date.now() - started < 2000, `taken over after ${Date.now() - started} ms`);
    assert.ok(!existsSync(lockPath));
  });

  test('a lock not touched for the stale time is taken over, even when its pid is alive', async () => {
    foreignLock(lockPath, 10_000);
    assert.equal(await withFileLock(lockPath, async () => 'ran', { staleMs: 1000, timeoutMs: 3000 }), 'ran');
    assert.ok(!existsSync(lockPath));
  });

  test('a lock file left empty by a crash while it was written is taken over once stale', async () => {
    writeFileSync(lockPath, '');
    const touched = new Date(Date.now() - 10_000);
    utimesSync(lockPath, touched, touched);
    assert.equal(await withFileLock(lockPath, async () => 'ran', { staleMs: 1000, timeoutMs: 3000 }), 'ran');
  });

  test('a live holder is waited for; the wait ends with TokenStoreError after the timeout, its lock untouched', async () => {
    foreignLock(lockPath, 0);
    const started = Date.now();
    await assert.rejects(
      withFileLock(lockPath, async () => assert.fail('ran without the lock'), { staleMs: 30_000, timeoutMs: 300 }),
      (error) => error instanceof TokenStoreError && /gave up after 300 ms/.test(error.message),
    );
    assert.ok(Date.now() - started >= 300);
    assert.equal((JSON.parse(readFileSync(lockPath, 'utf8')) as { id: string }).id, 'someone-else');
  });

  test('a holder busy for longer than the stale time keeps its lock by touching it', async () => {
    const events: string[] = [];
    const first = withFileLock(
      lockPath,
      async () => {
        events.push('first in');
        // Busy four times the stale time: the scenario's length, not a wait for something.
        await sleep(1200);
        events.push('first out');
      },
      { staleMs: 300 },
    );
    await until(() => events.includes('first in'), 'the first holder has the lock');
    const second = withFileLock(lockPath, async () => void events.push('second in'), { staleMs: 300 });
    await Promise.all([first, second]);
    assert.deepEqual(events, ['first in', 'first out', 'second in']);
  });

  test('a holder whose lock was taken over does not remove the new holder’s lock', async () => {
    await withFileLock(lockPath, async () => {
      foreignLock(lockPath, 0, { id: 'new-holder' }); // as a waiter that judged this holder stale would have
    });
    assert.equal((JSON.parse(readFileSync(lockPath, 'utf8')) as { id: string }).id, 'new-holder');
  });

  test('an error in the callback is rethrown, and the lock released', async () => {
    await assert.rejects(
      withFileLock(lockPath, async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.ok(!existsSync(lockPath));
  });
});
