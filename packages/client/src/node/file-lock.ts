import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rm, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TokenStoreError, isRecord } from '../errors.js';

export interface FileLockOptions {
  /**
   * A lock not touched for this long is taken over (default 30 s). Its holder touches it every
   * third of that, so only a holder that is gone, or stopped, loses it.
   */
  readonly staleMs?: number;
  /** Waiting longer than this throws TokenStoreError (default: `staleMs` + 30 s). */
  readonly timeoutMs?: number;
}

/** What a lock file holds: who took it, so that waiters can tell a crashed holder from a busy one. */
interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly id: string;
  readonly acquiredAt: number;
}

/** A lock file as a waiter sees it: its owner (undefined while its maker is still writing it) and its age. */
interface Holder {
  readonly owner: LockOwner | undefined;
  readonly touchedAt: number;
}

const DEFAULT_STALE_MS = 30_000;

/**
 * Runs `fn` holding an exclusive lock between processes: the file `lockPath`, created with
 * O_CREAT|O_EXCL (`wx`), which only one process can do, holding the owner's pid, host and a random id.
 * Waiters poll with backoff (5 ms growing to 100 ms, jittered). A lock is taken over when its
 * holder's process is gone (same host, pid not alive) or it was not touched for `staleMs`; a
 * takeover is itself serialised by a `<lockPath>.break` file and removes the lock only if it is
 * still the one judged stale, so two waiters never both take over. On release the file is removed
 * only if it is still ours.
 */
export async function withFileLock<T>(
  lockPath: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const owner = await acquire(lockPath, staleMs, options.timeoutMs ?? staleMs + 30_000);
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(lockPath, now, now).catch(() => undefined);
  }, staleMs / 3);
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    if ((await readHolder(lockPath))?.owner?.id === owner.id) await rm(lockPath, { force: true });
  }
}

async function acquire(lockPath: string, staleMs: number, timeoutMs: number): Promise<LockOwner> {
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    id: randomBytes(12).toString('base64url'),
    acquiredAt: Date.now(),
  };
  const deadline = Date.now() + timeoutMs;
  await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  for (let attempt = 0; ; attempt++) {
    if (await tryCreate(lockPath, owner)) return owner;
    const holder = await readHolder(lockPath);
    if (holder === undefined || (isStale(holder, staleMs) && (await breakStale(lockPath, holder, staleMs)))) continue;
    if (Date.now() > deadline)
      throw new TokenStoreError(
        `gave up after ${timeoutMs} ms waiting for ${lockPath}, held by process ${holder?.owner?.pid ?? '?'}`,
      );
    await sleep(Math.min(100, 5 * 1.5 ** attempt) * (0.5 + Math.random() / 2));
  }
}

async function tryCreate(lockPath: string, owner: LockOwner): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(JSON.stringify(owner));
  } finally {
    await handle.close();
  }
  return true;
}

/** The lock file's owner and last touch; undefined when there is no lock file. */
async function readHolder(lockPath: string): Promise<Holder | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    return { owner: parseOwner(text), touchedAt: info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (
      isRecord(value) &&
      typeof value.pid === 'number' &&
      typeof value.host === 'string' &&
      typeof value.id === 'string'
    )
      return value as unknown as LockOwner;
  } catch {
    // Empty or cut short: its maker is writing it, or crashed doing so (then its age tells).
  }
  return undefined;
}

function isStale({ owner, touchedAt }: Holder, staleMs: number): boolean {
  if (Date.now() - touchedAt > staleMs) return true;
  return owner !== undefined && owner.host === hostname() && !isAlive(owner.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a stale lock, if it is still the one judged stale, one breaker at a time; false when another breaker is at it. */
async function breakStale(lockPath: string, stale: Holder, staleMs: number): Promise<boolean> {
  const breakPath = `${lockPath}.break`;
  let handle;
  try {
    handle = await open(breakPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another waiter is breaking it (for a few milliseconds); a break file that old was left by a crash.
    const info = await stat(breakPath).catch(() => undefined);
    if (info !== undefined && Date.now() - info.mtimeMs > staleMs) await rm(breakPath, { force: true });
    return false;
  }
  try {
    const now = await readHolder(lockPath);
    const same =
      now !== undefined &&
      (stale.owner !== undefined ? now.owner?.id === stale.owner.id : now.touchedAt === stale.touchedAt);
    if (same) await rm(lockPath, { force: true });
    return true;
  } finally {
    await handle.close();
    await rm(breakPath, { force: true });
  }
}
