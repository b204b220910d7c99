import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every process a test starts, in every package: each leads a process group of its own, and
 * stopping it ends the whole group, so that what it started in turn (the server `npx` runs, a
 * shell's commands, `runuser`'s child) goes too, and no descendant keeps the test's pipes open.
 * A group still there when the test process exits is killed then; under scripts/test-tiers.mjs,
 * which names a folder in GATEHOUSE_TEST_PROCESS_GROUPS, each group is noted there while it runs,
 * so that the runner kills what a run killed over its time limit left behind.
 */

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A process leading a group of its own (see the top of this file). */
export interface ProcessGroup {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Everything the process (and its group, on the same pipes) wrote to stdout and stderr so far. */
  output(): string;
  /** What it wrote to stdout alone. */
  stdout(): string;
  /** The leading process's exit. */
  readonly exited: Promise<Exit>;
  /** Its exit and the end of its output (every process holding its pipes closed them): the output is complete. */
  readonly closed: Promise<Exit>;
  /** The first match of `pattern` in the output once it appears; rejects if the leader exits first or after a bound. */
  waitForOutput(pattern: RegExp, what: string, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends `signal` to every process of the group, as a terminal does at Ctrl-C. */
  signalGroup(signal: NodeJS.Signals): void;
  /** Sends `signal` (SIGTERM) to the leader, waits up to `graceMs` for it to exit, then kills the whole group. */
  stop(options?: { signal?: NodeJS.Signals; graceMs?: number }): Promise<Exit>;
  /** SIGKILL to every process of the group, now. */
  kill(): void;
}

export interface GroupOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** An IPC channel to the child (child.send, 'message'), for a Node script the test drives. */
  readonly ipc?: boolean;
  /** Its stdin a pipe (child.stdin) rather than nothing. */
  readonly stdin?: boolean;
}

const groups = new Map<number, string>();
const registry = process.env.GATEHOUSE_TEST_PROCESS_GROUPS;

function killGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * Notes a process group the test must end if it does not: started here, or a daemon's own group (a
 * postmaster, which pg_ctl detaches into a session of its own) that the test stops itself.
 */
export function track(pid: number, command: string, args: readonly string[] = []): void {
  watchExit();
  groups.set(pid, [command, ...args].join(' '));
  if (registry !== undefined) writeFileSync(join(registry, String(pid)), groups.get(pid) as string);
}

/** The group ended (or was ended): nothing to kill at exit. */
export function forget(pid: number): void {
  groups.delete(pid);
  if (registry !== undefined) rmSync(join(registry, String(pid)), { force: true });
}

let watching = false;
/** Kills every group left at this process's exit, and at a SIGINT or SIGTERM, then lets the signal act. */
function watchExit(): void {
  if (watching) return;
  watching = true;
  const killAll = (): void => {
    for (const pid of groups.keys()) killGroup(pid);
  };
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      killAll();
      process.kill(process.pid, signal);
    });
}

/** Starts `command` leading a process group of its own, its stdout and stderr collected. */
export function spawnGroup(command: string, args: readonly string[], options: GroupOptions = {}): ProcessGroup {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe', ...(options.ipc ? ['ipc' as const] : [])],
  });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const pid = child.pid;
  track(pid, command, args);
  let output = '';
  let stdout = '';
  const watchers = new Set<() => void>();
  const notify = (): void => watchers.forEach((watcher) => watcher());
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
    notify();
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    collect(chunk);
  });
  child.stderr?.on('data', collect);
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
      notify();
    });
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  const closed = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  const kill = (): void => {
    killGroup(pid);
    forget(pid);
  };
  const ended = (): boolean => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    pid,
    output: () => output,
    stdout: () => stdout,
    exited,
    closed,
    waitForOutput: (pattern, what, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(output);
          if (match === null && !ended()) return;
          clearTimeout(timer);
          watchers.delete(check);
          if (match) resolve(match);
          else
            reject(new Error(`${what}: ${command} exited (${child.exitCode ?? child.signalCode}) first:\n${output}`));
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`${what}: not within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        watchers.add(check);
        check();
      }),
    signalGroup: (signal) => killGroup(pid, signal),
    async stop({ signal = 'SIGTERM', graceMs = 10_000 } = {}) {
      if (!ended()) {
        child.kill(signal);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
        clearTimeout(timer);
      }
      kill();
      return exited;
    },
    kill,
  };
}

export interface Ran {
  /** The exit code; null when it ended by a signal (its time limit's SIGKILL included). */
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/**
 * Runs `command` to its end in a process group of its own, as execFile does: resolves with its
 * code and output, never rejects for a non-zero code. Past `timeoutMs` the whole group is killed.
 */
export function runInGroup(
  command: string,
  args: readonly string[],
  { timeoutMs = 60_000, ...options }: GroupOptions & { timeoutMs?: number } = {},
): Promise<Ran> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid !== undefined) track(pid, command, args);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const timer = setTimeout(() => pid !== undefined && killGroup(pid), timeoutMs);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, out, err: `${err}${error.message}` });
    });
    // 'close': the output is complete; the group is then killed, should the command have left something.
    child.once('close', (code) => {
      clearTimeout(timer);
      if (pid !== undefined) {
        killGroup(pid);
        forget(pid);
      }
      resolve({ code, out, err });
    });
  });
}
