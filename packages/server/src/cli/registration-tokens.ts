import { parseArgs } from 'node:util';
import type { ServerConfig } from '../config.js';
import { issueRegistrationToken } from '../oauth/registration-tokens.js';
import { parseDuration } from './durations.js';
import { withContext } from './open-context.js';
import { UsageError, type CliIo } from './run.js';

const DAY = 86_400;

/** `gatehouse registration-tokens issue [--expires-in DURATION] [--uses N]`: prints the token once. */
export async function registrationTokensCommand(
  [sub, ...args]: string[],
  config: ServerConfig,
  io: CliIo,
): Promise<number> {
  if (sub !== 'issue') throw new UsageError(`unknown registration-tokens command '${sub ?? ''}'`);
  const { values } = parseArgs({ args, options: { 'expires-in': { type: 'string' }, uses: { type: 'string' } } });
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
