import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The built CLI: run `npm run build` first (npm test does). */
export const GATEHOUSE_BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

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

/**
 * Starts `gatehouse serve` on a free port and resolves once it listens. Rate limits are off unless
 * the test sets a RATE_LIMIT_<NAME> (which turns that one on): load tests send far past them.
 */
export async function spawnServer(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [GATEHOUSE_BIN, 'serve', ...args], {
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMITS: 'off', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s,)]+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`gatehouse serve exited with ${code}: ${output}`)));
    setTimeout(() => reject(new Error(`gatehouse serve did not listen within 20 s: ${output}`)), 20_000).unref();
  });
  return {
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
