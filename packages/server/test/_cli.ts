import { runCli } from '../src/cli/run.js';
import { childEnv, runInGroup } from './_processes.js';

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** One CLI invocation in this process, its output captured. */
export async function runCliCaptured(
  argv: string[],
  env: NodeJS.ProcessEnv,
  options: { errIsTerminal?: boolean } = {},
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, env, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    errIsTerminal: options.errIsTerminal,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/**
 * Runs `file` (a built script of the CLI) as a child process with the operator's variables of this
 * process removed, so that only `env` configures it.
 */
export async function runNodeScript(
  file: string,
  argv: string[],
  { cwd, env = {} }: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  const base = childEnv(env);
  for (const name of ['DATABASE_URL', 'ISSUER', 'PORT', 'KEY_ENCRYPTION_KEY', 'AUTO_MIGRATE', 'OPENAPI_PATH'])
    if (!(name in env)) delete base[name];
  const { code, out, err } = await runInGroup(process.execPath, [file, ...argv], { cwd, env: base, timeoutMs: 30_000 });
  // null: killed, by its time limit or a signal.
  return { code: code ?? 1, out, err };
}
