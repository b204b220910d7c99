import type { Kysely, Selectable } from 'kysely';
import type { AuditEventsTable, Database } from './schema.js';

/** The security events an operator reads with `gatehouse audit`; see audit/audit.ts. */
export type AuditEventName =
  | 'refresh_token_reuse_detected'
  | 'refresh_token_replay_served'
  | 'grant_revoked'
  | 'client_authentication_failed'
  | 'login_failed'
  | 'client_registered'
  | 'client_registration_changed'
  | 'registration_refused';

/** A stored audit event. Never a token, secret, password or digest. */
export interface AuditEvent {
  readonly id: string;
  /** Epoch seconds. */
  readonly at: number;
  readonly event: AuditEventName;
  readonly clientId: string | null;
  readonly subject: string | null;
  readonly grantId: string | null;
  readonly reason: string | null;
  readonly address: string | null;
}

export interface AuditQuery {
  /** Only events at or after this time (epoch seconds). */
  readonly since?: number;
  readonly event?: AuditEventName;
  /** The newest `limit` events, listed oldest first. */
  readonly limit: number;
}

export interface AuditRepository {
  insertAuditEvent(event: AuditEvent): Promise<void>;
  listAuditEvents(query: AuditQuery): Promise<AuditEvent[]>;
}

function fromRow(r: Selectable<AuditEventsTable>): AuditEvent {
  return {
    id: r.id,
    at: Number(r.at),
    event: r.event as AuditEventName,
    clientId: r.client_id,
    subject: r.subject,
    grantId: r.grant_id,
    reason: r.reason,
    address: r.address,
  };
}

export function createAuditRepository(db: Kysely<Database>): AuditRepository {
  return {
    async insertAuditEvent(e) {
      await db
        .insertInto('audit_events')
        .values({
          id: e.id,
          at: e.at,
          event: e.event,
          client_id: e.clientId,
          subject: e.subject,
          grant_id: e.grantId,
          reason: e.reason,
          address: e.address,
        })
        .execute();
    },
    async listAuditEvents({ since, event, limit }) {
      const rows = await db
        .selectFrom('audit_events')
        .selectAll()
        .$if(since !== undefined, (q) => q.where('at', '>=', since as number))
        .$if(event !== undefined, (q) => q.where('event', '=', event as string))
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(fromRow).reverse();
    },
  };
}
