import { createRequire } from 'node:module';
import { configFromEnv, type ServerConfig } from '../config.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { AUDIT_EVENT_NAMES } from '../audit/audit.js';
import { AUDIT, auditCommand } from './audit.js';
import { CLIENT_COMMANDS, clientsCommand } from './clients.js';
import { asksForHelp, helpOf, summaryOf, unknownCommand, UsageError, type CommandDeclaration } from './declaration.js';
import { GRANT_COMMANDS, grantsCommand } from './grants.js';
import { GROUP_COMMANDS, groupsCommand } from './groups.js';
import { ROLE_COMMANDS, rolesCommand } from './roles.js';
import { KEY_COMMANDS, keysCommand } from './keys.js';
import { MAIL_COMMANDS, mailCommand } from './mail.js';
import { MIGRATE, migrateCommand } from './migrate.js';
import { SERVE, serveCommand } from './serve.js';
import { REGISTRATION_TOKEN_COMMANDS, registrationTokensCommand } from './registration-tokens.js';
import { USER_COMMANDS, usersCommand } from './users.js';
import { UPSTREAM_COMMANDS, upstreamsCommand } from './upstreams.js';
import { ORGANIZATION_COMMANDS, organizationsCommand } from './organizations.js';
import { usePasswordHashCost } from '../users/passwords.js';

export { listOf, unknownCommand, UsageError } from './declaration.js';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Standard input, whole (for --password-stdin); process.stdin when not given. */
  readInput?(): Promise<string>;
  /** Whether `err` goes to a terminal: errors are then plain text for a person, else JSON for a program. */
  readonly errIsTerminal?: boolean;
}

/** This package's version (package.json is two folders up from both src/cli and dist/cli). */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

type Command = (args: string[], config: ServerConfig, io: CliIo) => Promise<number>;

/** Every command: what runs it, and its declaration (one per subcommand), which its help is written from. */
const COMMANDS: Readonly<Record<string, { readonly run: Command; readonly declared: readonly CommandDeclaration[] }>> =
  {
    serve: { run: serveCommand, declared: [SERVE] },
    migrate: { run: migrateCommand, declared: [MIGRATE] },
    clients: { run: clientsCommand, declared: CLIENT_COMMANDS },
    grants: { run: grantsCommand, declared: GRANT_COMMANDS },
    users: { run: usersCommand, declared: USER_COMMANDS },
    groups: { run: groupsCommand, declared: GROUP_COMMANDS },
    roles: { run: rolesCommand, declared: ROLE_COMMANDS },
    keys: { run: keysCommand, declared: KEY_COMMANDS },
    audit: { run: auditCommand, declared: [AUDIT] },
    'registration-tokens': { run: registrationTokensCommand, declared: REGISTRATION_TOKEN_COMMANDS },
    upstreams: { run: upstreamsCommand, declared: UPSTREAM_COMMANDS },
    orgs: { run: organizationsCommand, declared: ORGANIZATION_COMMANDS },
    mail: { run: mailCommand, declared: MAIL_COMMANDS },
  };

const ENVIRONMENT = `LIST is comma- or space-separated; DURATION is seconds or a number with s, m, h or d.
Environment: PORT (3000), HOST (127.0.0.1), DATABASE_URL (sqlite:data/gatehouse.db in the project root: the
nearest folder up with a package-lock.json, else the current one; only serve and migrate create a database),
ISSUER (serve: http://localhost:PORT; other commands: the issuer the server last ran with), LOG_LEVEL,
OPENAPI_PATH (openapi.yaml in the project root, else the package's), AUTO_MIGRATE (true or false; false: serve
refuses a database with pending migrations), TRUST_PROXY (false; true, or proxy addresses/CIDRs: whose
X-Forwarded-For names the client), METRICS_TOKEN (unset: GET /metrics from loopback only; set: only with
Authorization: Bearer METRICS_TOKEN), CLIENT_REGISTRATION (off; token: /register with an initial access token;
open: anyone, public clients only), KEY_ENCRYPTION_KEY (seals the signing keys and upstream secrets; needed by
serve, grants issue and keys rotate|seal on a sealed store), UPSTREAMS_FILE (serve applies its upstream
providers at start, as gatehouse upstreams apply), SMTP_URL (unset: mail is written to MAIL_OUTBOX_DIR,
data/outbox in the project root; smtp://user:pass@host:587, STARTTLS required unless ?starttls=optional|never;
smtps://host:465), SMTP_CA_FILE, MAIL_FROM (Gatehouse <no-reply@the issuer's host>), MAIL_MAX_ATTEMPTS (10),
MAIL_RETRY_MS (30000, doubling), MAIL_POLL_MS (5000), MAIL_LEASE_MS (120000).
Every command but serve prints JSON; errors are JSON on stderr, or plain text when stderr is a terminal.
${wrapped(`Audit events (gatehouse audit --event NAME): ${AUDIT_EVENT_NAMES.join(', ')}.`)}`;

/** `text` broken at spaces into lines of at most 110 characters, as the rest of the help is. */
function wrapped(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > 110) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

/** Every command's declaration, in the order of `gatehouse --help`. */
export const COMMAND_DECLARATIONS: readonly CommandDeclaration[] = Object.values(COMMANDS).flatMap((c) => c.declared);

/** `gatehouse --help`: one line per command, written from the declarations. */
export const USAGE = `Usage: gatehouse <command>     (gatehouse --version: the version)

${summaryOf(COMMAND_DECLARATIONS)}

gatehouse <command> --help: a command's options.
${ENVIRONMENT}`;

/** The subcommand `args` name within `command` (the command itself when it has none), if any. */
function declarationWithin(
  name: string,
  declared: readonly CommandDeclaration[],
  args: readonly string[],
): CommandDeclaration | undefined {
  const one = declared.length === 1 && declared[0]?.name === name ? declared[0] : undefined;
  // A subcommand of two words (`groups members add`) first, then of one.
  return (
    one ??
    declared.find((d) => d.name === `${name} ${args[0]} ${args[1]}`) ??
    declared.find((d) => d.name === `${name} ${args[0]}`)
  );
}

/**
 * The help `args` ask for within `command`: the subcommand's, or (no known subcommand named)
 * the command's summary of its subcommands.
 */
function helpWithin(name: string, declared: readonly CommandDeclaration[], args: readonly string[]): string {
  const sub = declarationWithin(name, declared, args);
  if (sub !== undefined) return helpOf(sub);
  const more = `gatehouse ${name} <command> --help: its options.`;
  return `Usage: gatehouse ${name} <command>\n\n${summaryOf(declared)}\n\n${more}`;
}

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
    if (asksForHelp(args)) {
      io.out(helpWithin(name, command.declared, args));
      return 0;
    }
    const config = configFromEnv(env);
    // A process-wide setting, like the log level: every command that hashes a password uses it.
    if (config.passwordHashCost !== undefined) usePasswordHashCost(config.passwordHashCost);
    return await command.run(args, config, io);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      // The mistake and where the help is; the help itself (60 lines) would bury the suggestion.
      const within = command && (declarationWithin(name, command.declared, args)?.name ?? name);
      reportError(io, 'usage', (error as Error).message, `gatehouse ${within === undefined ? '' : `${within} `}--help`);
      return 2;
    }
    reportError(io, error instanceof OperatorInputError ? 'refused' : 'failed', (error as Error).message);
    return 1;
  }
}

/**
 * One line of JSON for a program; on a terminal, the message as text (its line breaks as line
 * breaks). A usage error also names the command that prints the help.
 */
function reportError(io: CliIo, error: 'usage' | 'refused' | 'failed', message: string, help?: string): void {
  if (!io.errIsTerminal) {
    io.err(JSON.stringify({ error, message, ...(help === undefined ? {} : { help }) }));
    return;
  }
  io.err(`gatehouse: ${error === 'failed' ? 'error' : error}: ${message}`);
  if (help !== undefined) io.err(`Run '${help}' for the usage.`);
}
