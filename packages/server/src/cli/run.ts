import { configFromEnv, type ServerConfig } from '../config.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { auditCommand } from './audit.js';
import { clientsCommand } from './clients.js';
import { grantsCommand } from './grants.js';
import { keysCommand } from './keys.js';
import { migrateCommand } from './migrate.js';
import { serveCommand } from './serve.js';
import { registrationTokensCommand } from './registration-tokens.js';
import { usersCommand } from './users.js';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Standard input, whole (for --password-stdin); process.stdin when not given. */
  readInput?(): Promise<string>;
}

/** A mistake in how the command was called; exit code 2. */
export class UsageError extends Error {}

export const USAGE = `Usage: gatehouse <command>

  serve [--demo] [--workers N|auto]      serve the authorization server (N processes sharing the port)
  migrate                                apply pending database migrations
  clients add --id ID --name NAME [--public] [--redirect-uri URI]... [--grant-types LIST]
              [--scope LIST] [--rotation-limit N] [--max-rotations N] [--no-rotation]
              [--refresh-ttl DURATION] [--absolute-ttl DURATION] [--access-ttl DURATION]
              [--replay-window DURATION (0s..300s)] [--resource-server]
              [--post-logout-redirect-uri URI]... [--id-token-alg RS256|ES256]
  clients list
  clients remove ID
  grants issue --client ID --user SUBJECT [--scope LIST]
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
                                         security events, oldest first (default: the newest 100); NAME is
                                         refresh_token_reuse_detected, grant_revoked, client_authentication_failed
                                         login_failed, client_registered, client_registration_changed
                                         or registration_refused
  registration-tokens issue [--expires-in DURATION (1d)] [--uses N (1)]
                                         an initial access token for POST /register (CLIENT_REGISTRATION=token),
                                         shown once

LIST is comma- or space-separated; DURATION is seconds or a number with s, m, h or d.
Environment: PORT (3000), HOST (127.0.0.1), DATABASE_URL (sqlite:data/gatehouse.db), ISSUER, LOG_LEVEL,
OPENAPI_PATH (openapi.yaml), AUTO_MIGRATE (true; false: serve refuses a database with pending migrations),
TRUST_PROXY (false; true, or proxy addresses/CIDRs: whose X-Forwarded-For names the client),
METRICS_TOKEN (unset: GET /metrics from loopback only; set: only with Authorization: Bearer METRICS_TOKEN),
CLIENT_REGISTRATION (off; token: /register with an initial access token; open: anyone, public clients only).
Every command but serve prints JSON.`;

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
  const command = COMMANDS[name];
  try {
    if (!command) throw new UsageError(`unknown command '${name}'`);
    return await command(args, configFromEnv(env), io);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(JSON.stringify({ error: 'usage', message: (error as Error).message }));
      io.err(USAGE);
      return 2;
    }
    if (error instanceof OperatorInputError) {
      io.err(JSON.stringify({ error: 'refused', message: error.message }));
      return 1;
    }
    io.err(JSON.stringify({ error: 'failed', message: (error as Error).message }));
    return 1;
  }
}

/** Splits a LIST argument. */
export function listOf(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(/[\s,]+/).filter((s) => s !== '');
}
