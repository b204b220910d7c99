import { parseArgs } from 'node:util';
import { ClientConfigurationError, GatehouseClientError, ReauthenticationRequired } from '../errors.js';
import type { FetchFunction } from '../http.js';
import { isTransient, type RetryPolicy } from '../retry.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { login } from './login.js';
import { logout, printToken } from './session.js';

/** Where the CLI writes, what environment it reads, and (for tests) how it reaches the network. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetch?: FetchFunction;
  readonly retry?: Partial<RetryPolicy>;
  /** How `login --device` waits between polls (tests let time pass instead). */
  readonly sleep?: (ms: number) => Promise<void>;
}

export const USAGE = `Usage:
  gatehouse-login login --issuer URL --client-id ID [--scope "a b"] [--port N] [--timeout SECONDS]
  gatehouse-login login --device --issuer URL --client-id ID [--scope "a b"]
  gatehouse-login token
  gatehouse-login logout

Exit codes: 0 ok, 1 error, 2 usage, 3 log in again (invalid_grant), 4 client configuration error,
5 server unreachable after retries.`;

class UsageError extends Error {}

/** Runs one command; never throws, returns the exit code. */
export async function runLoginCli(args: readonly string[], io: CliIo): Promise<ExitCode> {
  try {
    return await dispatch(args, io);
  } catch (error) {
    return reportFailure(error, io);
  }
}

async function dispatch([command, ...rest]: readonly string[], io: CliIo): Promise<ExitCode> {
  switch (command) {
    case 'login': {
      const { values } = parseArgs({
        args: rest,
        strict: true,
        options: {
          issuer: { type: 'string' },
          'client-id': { type: 'string' },
          scope: { type: 'string' },
          port: { type: 'string' },
          timeout: { type: 'string' },
          device: { type: 'boolean' },
        },
      });
      if (values.issuer === undefined || values['client-id'] === undefined)
        throw new UsageError('login needs --issuer and --client-id');
      if (values.device === true && values.port !== undefined)
        throw new UsageError('--port is for the browser sign-in; --device uses no redirect');
      return login(
        {
          issuer: values.issuer.replace(/\/+$/, ''),
          clientId: values['client-id'],
          scope: values.scope,
          port: integerOption('--port', values.port ?? '0', 0, 65535),
          timeoutSeconds: integerOption('--timeout', values.timeout ?? '300', 1, 86_400),
          device: values.device === true,
        },
        io,
      );
    }
    case 'token':
      parseArgs({ args: rest, strict: true, options: {} });
      return printToken(io);
    case 'logout':
      parseArgs({ args: rest, strict: true, options: {} });
      return logout(io);
    case undefined:
    case 'help':
    case '--help':
      io.out(USAGE);
      return command === undefined ? EXIT_CODES.usage : EXIT_CODES.ok;
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

function integerOption(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}`);
  return n;
}

function reportFailure(error: unknown, io: CliIo): ExitCode {
  if (error instanceof UsageError || (error as { code?: unknown }).code?.toString().startsWith('ERR_PARSE_ARGS')) {
    io.err(`gatehouse-login: ${(error as Error).message}\n\n${USAGE}`);
    return EXIT_CODES.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.err(`gatehouse-login: ${message}`);
  if (error instanceof ReauthenticationRequired) return EXIT_CODES.reauthenticate;
  if (error instanceof ClientConfigurationError) return EXIT_CODES.configuration;
  if (error instanceof GatehouseClientError && isTransient(error)) return EXIT_CODES.unreachable;
  return EXIT_CODES.error;
}
