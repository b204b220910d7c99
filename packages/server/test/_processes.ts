import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spawnGroup, type ProcessGroup } from './_process-groups.js';

/** Every process a test starts goes through ./_process-groups.ts; this file adds gatehouse serve's own. */
export * from './_process-groups.js';

/** The built CLI: run `npm run build` first (npm test does). */
export const GATEHOUSE_BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

/** Whether a process of this id exists (signal 0 checks without signalling). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The environment of a child process, without the test runner's TypeScript loader. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  return env;
}

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly group: ProcessGroup;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `gatehouse serve` on a free port and resolves once it listens. Rate limits are off unless
 * the test sets a RATE_LIMIT_<NAME> (which turns that one on): load tests send far past them.
 */
export async function spawnServer(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  const group = spawnGroup(process.execPath, [GATEHOUSE_BIN, 'serve', ...args], {
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMITS: 'off', ...env }),
  });
  try {
    const [, url] = await group.waitForOutput(/listening on (http:\/\/[^\s,)]+)/, 'gatehouse serve listens');
    return {
      url: url as string,
      child: group.child,
      group,
      output: () => group.output(),
      stop: async () => void (await group.stop()),
    };
  } catch (error) {
    group.kill();
    throw error;
  }
}
