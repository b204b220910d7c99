import { createRequire } from 'node:module';
import { AUDIT_EVENT_NAMES } from '../audit/audit.js';
import { configFromEnv, type ServerConfig } from '../config.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { auditCommand } from './audit.js';
import { clientsCommand } from './clients.js';
import { grantsCommand } from './grants.js';
import { keysCommand } from './keys.js';
import { migrateCommand } from './migrate.js';
import { nearest } from './nearest.js';
import { serveCommand } from './serve.js';
import { registrationTokensCommand } from './registration-tokens.js';
import { usersCommand } from './users.js';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Standard input, whole (for --password-stdin); process.stdin when not given. */
  readInput?(): Promise<string>;
  /** Whether `err` goes to a terminal: errors are then plain text for a person, else JSON for a program. */
  readonly errIsTerminal?: boolean;
}

/** A mistake in how the command was called; exit code 2. */
export class UsageError extends Error {}

/** The usage error of an unknown (sub)command, naming the nearest known one when there is one. */
export function unknownCommand(what: string, given: string | undefined, known: readonly string[]): UsageError {
  const suggestion = given === undefined ? undefined : nearest(given, known);
  return new UsageError(
    `unknown ${what} '${given ?? ''}'${suggestion === undefined ? '' : `; did you mean '${suggestion}'?`}`,
  );
}

/** This package's version (package.json is two folders up from both src/cli and dist/cli). */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** Where the explanations of the usage begin. */
const HELP_COLUMN = ' '.repeat(41);

/** Words in lines of the help's explanation column, none longer than 120 characters. */
function helpLines(words: readonly string[]): string {
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.length - 1;
    if (last >= 0 && `${lines[last]} ${word}`.length <= 120) lines[last] = `${lines[last]} ${word}`;
    else lines.push(`${HELP_COLUMN}${word}`);
  }
  return lines.join('\n');
}

export const USAGE = `Usage: gatehouse <command>     (gatehouse --version: the version)

  serve [--demo] [--workers N|auto]      serve the authorization server (N processes sharing the port)
  migrate                                apply pending database migrations
  clients add --id ID --name NAME [--public] [--redirect-uri URI]... [--grant-types LIST]
              [--scope LIST] [--rotation-limit N] [--max-rotations N] [--no-rotation]
              [--refresh-ttl DURATION] [--absolute-ttl DURATION] [--access-ttl DURATION]
              [--replay-window DURATION (0s..300s)] [--resource-server]
              [--post-logout-redirect-uri URI]... [--id-token-alg RS256|ES256]
              [--admin]                  an admin client: client_credentials only, scope gatehouse:admin
                                         (and :read), for the admin API /admin/v1
                                         a --public client needs a --scope
  clients list
  clients remove ID
  grants issue --client ID --user SUBJECT [--scope LIST]
                                         tokens for ISSUER, else the issuer the server last ran with (printed)
  grants revoke GRANT_ID
  users add --username NAME [--password-stdin] [CLAIMS]   without --password-stdin, a password is made and shown once
  users update NAME [--username NEW] [CLAIMS]
                                         --username renames (the OIDC sub stays, the user is signed out)
                                         CLAIMS: --name --given-name --family-name --preferred-username
                                         --email --email-verified true|false (empty removes a claim)
  users list
  users remove NAME                      also revokes every grant the user gave
  users passwd NAME [--password-stdin]   also signs the user out of every browser
  keys list                              signing keys and their status
  keys rotate [--now]                    add a key per algorithm (ES256, RS256): published now, signing in 10 minutes (--now: at once)
  keys seal                              seal stored private keys under KEY_ENCRYPTION_KEY
  keys retire KID                        stop publishing and accepting a key
  audit [--since ISO|DURATION] [--limit N] [--event NAME]
                                         the audit trail, oldest first (default: the newest 100); NAME is one of
${helpLines(AUDIT_EVENT_NAMES)}
  registration-tokens issue [--expires-in DURATION (1d)] [--uses N (1)]
                                         an initial access token for POST /register (CLIENT_REGISTRATION=token),
                                         shown once

LIST is comma- or space-separated; DURATION is seconds or a number with s, m, h or d.
Environment: PORT (3000), HOST (127.0.0.1), DATABASE_URL (sqlite:data/gatehouse.db in the project root: the
nearest folder up with a package-lock.json, else the current one; only serve and migrate create a database),
ISSUER (serve: http://localhost:PORT; other commands: the issuer the server last ran with), LOG_LEVEL,
OPENAPI_PATH (openapi.yaml in the project root), AUTO_MIGRATE (true or false; false: serve refuses a database with pending migrations),
TRUST_PROXY (false; true, or proxy addresses/CIDRs: whose X-Forwarded-For names the client),
METRICS_TOKEN (unset: GET /metrics from loopback only; set: only with Authorization: Bearer METRICS_TOKEN),
CLIENT_REGISTRATION (off; token: /register with an initial access token; open: anyone, public clients only).
KEY_ENCRYPTION_KEY (seals the signing keys; needed by serve, grants issue and keys rotate|seal on a sealed store).
Every command but serve prints JSON; errors are JSON on stderr, or plain text when stderr is a terminal.`;

type Command = (args: string[], config: ServerConfig, io: CliIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  clients: clientsCommand,
  grants: grantsCommand,
  keys: keysCommand,
  users: usersCommand,
  audit: auditCommand,
  'registration-tokens': registrationTokensCommand,
};

/** Runs one CLI invocation; resolves to the process exit code (0 ok, 1 refused, 2 usage). */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    io.out(VERSION);
    return 0;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw unknownCommand('command', name, Object.keys(COMMANDS));
    return await command(args, configFromEnv(env), io);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      reportError(io, 'usage', (error as Error).message);
      io.err(USAGE);
      return 2;
    }
    reportError(io, error instanceof OperatorInputError ? 'refused' : 'failed', (error as Error).message);
    return 1;
  }
}

/** One line of JSON for a program; on a terminal, the message as text (its line breaks as line breaks). */
function reportError(io: CliIo, error: 'usage' | 'refused' | 'failed', message: string): void {
  io.err(
    io.errIsTerminal
      ? `gatehouse: ${error === 'failed' ? 'error' : error}: ${message}`
      : JSON.stringify({ error, message }),
  );
}

/** Splits a LIST argument. */
export function listOf(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(/[\s,]+/).filter((s) => s !== '');
}
