import { newRecordId } from '../primitives/ids.js';
import type { AuditEvent, AuditEventName } from '../store/audit-repository.js';
import type { AuditRepository } from '../store/audit-repository.js';
import type { Repository } from '../store/repository.js';
import type { Store } from '../store/store.js';

export type { AuditEvent, AuditEventName };
export { AUDIT_EVENT_NAMES } from '../store/audit-repository.js';

/**
 * The audit trail: security events stored in `audit_events` (read with `gatehouse audit`) and
 * handed to a sink (the HTTP layer logs them). Recorded on refusal paths, never on a successful
 * exchange; and for every change to the set of clients made through dynamic registration (RFC 7591),
 * which is open to callers who are not operators. An event holds identifiers and reasons, never a token, secret, password
 * or digest: callers pass only the fields below, and free text is truncated.
 */
interface AuditInput {
  readonly event: AuditEventName;
  readonly at: number;
  readonly clientId?: string | null;
  readonly subject?: string | null;
  readonly grantId?: string | null;
  readonly reason?: string | null;
  readonly address?: string | null;
  /** Who made an administrative change (an admin client's id, or `cli`). */
  readonly actor?: string | null;
}

/** Where recorded events go besides the store, e.g. the request's logger. */
export type AuditSink = (event: AuditEvent) => void;

/**
 * Who makes an administrative change (its events' `actor`: an admin client's id, or `cli`), and
 * where its events go besides the store once committed (the admin API: the request's log).
 */
export interface Actor {
  readonly id: string;
  readonly sink?: AuditSink;
}

/** The actor of the changes made with the `gatehouse` CLI, on the database host. */
export const CLI_ACTOR: Actor = { id: 'cli' };

/** Client ids as presented are truncated to this many characters. */
export const AUDIT_CLIENT_ID_MAX = 128;
/** Usernames as typed are truncated to this many characters. */
export const AUDIT_USERNAME_MAX = 64;

/** Stores one event (in `repo`, which may be a transaction) and returns it; the caller hands it to a sink after commit. */
export async function storeAudit(repo: AuditRepository, input: AuditInput): Promise<AuditEvent> {
  const event: AuditEvent = {
    id: newRecordId(),
    at: input.at,
    event: input.event,
    clientId: input.clientId ?? null,
    subject: input.subject ?? null,
    grantId: input.grantId ?? null,
    reason: input.reason ?? null,
    address: input.address ?? null,
    actor: input.actor ?? null,
  };
  await repo.insertAuditEvent(event);
  return event;
}

/** Stores one event outside any transaction and hands it to the sink. */
export async function recordAudit(repo: AuditRepository, input: AuditInput, sink?: AuditSink): Promise<AuditEvent> {
  const event = await storeAudit(repo, input);
  sink?.(event);
  return event;
}

/**
 * Runs `work` in a store transaction; the events it stores (pushed to `events`) reach the sink once,
 * after the commit. Each attempt gets a fresh list, so when the store retries a transaction (a
 * PostgreSQL serialization failure) only the events of the attempt that committed are announced.
 */
export async function auditedTransaction<T>(
  store: Store,
  sink: AuditSink | undefined,
  work: (tx: Repository, events: AuditEvent[]) => Promise<T>,
): Promise<T> {
  let events: AuditEvent[] = [];
  const result = await store.transaction((tx) => {
    events = [];
    return work(tx, events);
  });
  if (sink) for (const event of events) sink(event);
  return result;
}

export function truncated(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** The event as `gatehouse audit` prints it; `actor` only on an administrative change. */
export function auditEventJson(e: AuditEvent): Record<string, unknown> {
  return {
    id: e.id,
    at: new Date(e.at * 1000).toISOString(),
    event: e.event,
    client_id: e.clientId,
    subject: e.subject,
    grant_id: e.grantId,
    reason: e.reason,
    address: e.address,
    ...(e.actor === null ? {} : { actor: e.actor }),
  };
}
