import type { ServerConfig } from '../config.js';
import { issueRegistrationToken } from '../oauth/clients/index.js';
import { parseDuration } from './durations.js';
import { parseCommand, unknownCommand, UsageError, type CommandDeclaration } from './declaration.js';
import { withContext } from './open-context.js';
import type { CliIo } from './run.js';

const DAY = 86_400;

const ISSUE = {
  name: 'registration-tokens issue',
  summary: 'an initial access token for POST /register (CLIENT_REGISTRATION=token), shown once',
  options: {
    'expires-in': { type: 'string', value: 'DURATION', help: 'how long it is accepted (1d)' },
    uses: { type: 'string', value: 'N', help: 'how many registrations it allows (1)' },
  },
} as const satisfies CommandDeclaration;

export const REGISTRATION_TOKEN_COMMANDS: readonly CommandDeclaration[] = [ISSUE];

/** `gatehouse registration-tokens issue [--expires-in DURATION] [--uses N]`: prints the token once. */
export async function registrationTokensCommand(
  [sub, ...args]: string[],
  config: ServerConfig,
  io: CliIo,
): Promise<number> {
  if (sub !== 'issue') throw unknownCommand('registration-tokens command', sub, REGISTRATION_TOKEN_COMMANDS);
  const { values } = parseCommand(ISSUE, args);
  const ttl = values['expires-in'] === undefined ? DAY : parseDuration(values['expires-in']);
  if (ttl < 1) throw new UsageError('--expires-in must be at least 1s');
  const uses = values.uses === undefined ? 1 : Number(values.uses);
  if (!/^\d{1,6}$/.test(values.uses ?? '1') || uses < 1)
    throw new UsageError('--uses takes a whole number of at least 1');
  const issued = await withContext(config, ({ store, clock }) =>
    issueRegistrationToken(store, { ttl, uses, now: clock.now() }),
  );
  io.out(JSON.stringify({ ...issued, expires_at: new Date(issued.expires_at * 1000).toISOString() }, null, 2));
  return 0;
}
