import { AUDIT_EVENT_NAMES, auditEventJson, type AuditEventName } from '../audit/audit.js';
import type { ServerConfig } from '../config.js';
import { parseDuration } from './durations.js';
import { parseCommand, UsageError, type CommandDeclaration } from './declaration.js';
import { withStore } from './open-context.js';
import type { CliIo } from './run.js';

/** Every event the store records, the admin changes included (the admin API filters by the same list). */
const EVENTS: readonly AuditEventName[] = AUDIT_EVENT_NAMES;
const MAX_LIMIT = 10_000;

export const AUDIT = {
  name: 'audit',
  summary: 'security events, oldest first (default: the newest 100)',
  options: {
    since: { type: 'string', value: 'ISO|DURATION', help: 'events from this time, or this long ago, on' },
    limit: { type: 'string', value: 'N', help: `at most N events, 1 to ${MAX_LIMIT} (100)` },
    event: { type: 'string', value: 'NAME', help: 'only events named NAME' },
  },
  notes: [`NAME is one of ${EVENTS.join(', ')}.`],
} as const satisfies CommandDeclaration;

/** `gatehouse audit [--since ISO|DURATION] [--limit N] [--event NAME]`: the newest events, oldest first, as a JSON array. */
export async function auditCommand(
  args: string[],
  config: ServerConfig,
  io: CliIo,
  nowMillis: () => number = Date.now,
): Promise<number> {
  const { values } = parseCommand(AUDIT, args);
  const limit = values.limit === undefined ? 100 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
  const event = values.event as AuditEventName | undefined;
  if (event !== undefined && !EVENTS.includes(event))
    throw new UsageError(`--event must be one of ${EVENTS.join(', ')}`);
  const since = values.since === undefined ? undefined : sinceOf(values.since, nowMillis());
  const events = await withStore(config, (store) => store.listAuditEvents({ since, event, limit }));
  io.out(JSON.stringify(events.map(auditEventJson), null, 2));
  return 0;
}

/** An ISO 8601 time, or a DURATION before now; epoch seconds. */
function sinceOf(text: string, nowMillis: number): number {
  if (/^\d{1,9}[smhd]?$/.test(text.trim())) return Math.floor(nowMillis / 1000) - parseDuration(text);
  const millis = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(millis)) throw new UsageError(`--since must be an ISO 8601 time or a DURATION, got '${text}'`);
  return Math.floor(millis / 1000);
}
