import { readFileSync } from 'node:fs';
import { freePort } from './_pg-cluster.js';
import { childEnv, GATEHOUSE_BIN, spawnGroup, type ProcessGroup } from './_processes.js';

/**
 * `gatehouse serve --workers N` in a process group of its own, at LOG_LEVEL info: each worker's
 * JSON lines carry its pid, so the test sees which worker listens (Fastify's "Server listening at")
 * and which waits for the store (cli/worker-start.ts).
 */
export interface Workers {
  readonly url: string;
  readonly group: ProcessGroup;
  output(): string;
  /** The primary's child processes now: its workers (Linux: /proc/<pid>/task/<pid>/children). */
  pids(): number[];
  /** The workers that logged that they listen. */
  listening(): Set<number>;
  /** The workers that logged that the store could not be reached while they started. */
  waiting(): Set<number>;
  stop(): Promise<void>;
}

const pidsOf = (output: string, message: RegExp): Set<number> =>
  new Set(
    output
      .split('\n')
      .filter((line) => message.test(line))
      .map((line) => Number(/"pid":(\d+)/.exec(line)?.[1])),
  );

/** Starts the primary; resolves once it has prepared the store and forks the workers. */
export async function spawnWorkers(env: Record<string, string>, count: number): Promise<Workers> {
  const port = await freePort();
  const group = spawnGroup(process.execPath, [GATEHOUSE_BIN, 'serve', '--workers', String(count)], {
    env: childEnv({ HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMITS: 'off', ...env, PORT: String(port) }),
  });
  try {
    await group.waitForOutput(/Gatehouse is serving .* with \d+ workers/, 'the primary prepared the store');
  } catch (error) {
    group.kill();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    group,
    output: () => group.output(),
    pids: () => {
      try {
        const children = readFileSync(`/proc/${group.pid}/task/${group.pid}/children`, 'utf8');
        return children.split(' ').filter(Boolean).map(Number);
      } catch {
        return []; // the primary is gone
      }
    },
    listening: () => pidsOf(group.output(), /"msg":"Server listening at /),
    waiting: () => pidsOf(group.output(), /could not be reached while this worker started/),
    stop: async () => void (await group.stop()),
  };
}
