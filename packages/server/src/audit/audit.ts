import { newRecordId } from '../primitives/ids.js';
import type { AuditEvent, AuditEventName } from '../store/audit-repository.js';
import type { AuditRepository } from '../store/audit-repository.js';
import type { Repository } from '../store/repository.js';
import type { Store } from '../store/store.js';

export type { AuditEvent, AuditEventName };
export { AUDIT_EVENT_NAMES } from '../store/audit-repository.js';

/**
 * The audit trail: security events stored in `audit_events` (read with `gatehouse audit`) and
 * handed to a sink (the server logs them). Recorded on refusal paths, never on a successful
 * exchange; for every step of a sign-in, passed or refused (a sign-in mints the grant a refresh
 * token lives on); for every change to the set of clients made through dynamic registration
 * (RFC 7591), which is open to callers who are not operators; and for every administrative
 * change. An event holds identifiers and reasons, never a token, secret, password or digest:
 * callers pass only the fields below, and free text is truncated.
 */
export interface AuditInput {
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

/** Where every stored event goes besides the store: the server's log; given to the trail once. */
export type AuditSink = (event: AuditEvent) => void;

/** Stores one event in the transaction it was handed with; it reaches the sink once committed. */
export type AuditRecorder = (input: AuditInput) => Promise<AuditEvent>;

/** Who makes an administrative change: its events' `actor`, an admin client's id or `cli`. */
export interface Actor {
  readonly id: string;
}

/** The actor of the changes made with the `gatehouse` CLI, on the database host. */
export const CLI_ACTOR: Actor = { id: 'cli' };

/** Client ids as presented are truncated to this many characters. */
export const AUDIT_CLIENT_ID_MAX = 128;
/** Usernames as typed are truncated to this many characters. */
export const AUDIT_USERNAME_MAX = 64;

/**
 * The one way an event is stored: every write goes through `record` or `transaction`, and every
 * event they store is counted and handed to the sink the trail was built with, after its commit.
 * So an event in the store is also in the log and in `gatehouse_audit_events_total`, whoever
 * recorded it (the OAuth endpoints, the sign-in and account pages, the admin API, the CLI).
 */
export class AuditTrail {
  readonly #store: Store;
  readonly #sink: AuditSink;
  readonly #counts = new Map<AuditEventName, number>();
  readonly #watchers = new Set<(event: AuditEvent) => void>();

  constructor(store: Store, sink: AuditSink) {
    this.#store = store;
    this.#sink = sink;
  }

  /** Stores one event on its own (no transaction of the caller's) and announces it. */
  async record(input: AuditInput): Promise<AuditEvent> {
    const event = await storeEvent(this.#store, input);
    this.#announce(event);
    return event;
  }

  /**
   * Runs `work` in a store transaction; the events it records with `audit` are stored in it and
   * announced once, after the commit. Each attempt gets a fresh list, so when the store retries a
   * transaction (a PostgreSQL serialization failure) only the events of the attempt that committed
   * are announced; a transaction that throws announces nothing.
   */
  async transaction<T>(work: (tx: Repository, audit: AuditRecorder) => Promise<T>): Promise<T> {
    let events: AuditEvent[] = [];
    const result = await this.#store.transaction((tx) => {
      const attempt: AuditEvent[] = [];
      events = attempt;
      return work(tx, async (input) => {
        const event = await storeEvent(tx, input);
        attempt.push(event);
        return event;
      });
    });
    for (const event of events) this.#announce(event);
    return result;
  }

  /** How many events of each name this trail has recorded; the metrics read them at each scrape. */
  counts(): ReadonlyMap<AuditEventName, number> {
    return this.#counts;
  }

  /**
   * Hands every event announced from now on to `watcher` too, after its commit like the sink: what
   * must follow a change once it is durable (the mail worker wakes when a message was queued in
   * this process). Stores nothing. Returns what stops the watch.
   */
  watch(watcher: (event: AuditEvent) => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  #announce(event: AuditEvent): void {
    this.#counts.set(event.event, (this.#counts.get(event.event) ?? 0) + 1);
    this.#sink(event);
    for (const watcher of this.#watchers) watcher(event);
  }
}

/** The only insert of an audit row (test/audit-pipe.test.ts checks that no other file makes one). */
async function storeEvent(repo: AuditRepository, input: AuditInput): Promise<AuditEvent> {
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
