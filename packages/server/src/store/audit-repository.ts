import type { Kysely, Selectable } from 'kysely';
import type { AuditEventsTable, Database } from './schema.js';

/**
 * The events an operator reads with `gatehouse audit` and the admin API; see audit/audit.ts. The
 * security events, then the administrative changes (each with its actor).
 */
export const AUDIT_EVENT_NAMES = [
  'refresh_token_reuse_detected',
  'refresh_token_replay_served',
  'grant_revoked',
  'client_authentication_failed',
  'login_failed',
  'sign_in_step_passed',
  'user_code_failed',
  'federation_refused',
  'federated_identity_linked',
  'federated_identity_unlinked',
  'passkey_enrolled',
  'passkey_enrolment_failed',
  'passkey_renamed',
  'passkey_removed',
  'token_exchanged',
  'token_exchange_refused',
  'client_registered',
  'client_registration_changed',
  'registration_refused',
  'client_metadata_document_refused',
  'client_created',
  'client_updated',
  'client_secret_rotated',
  'client_deleted',
  'user_created',
  'user_claims_updated',
  'user_disabled',
  'user_enabled',
  'user_password_set',
  'user_deleted',
  'user_session_ended',
  'user_signed_out_everywhere',
  'signing_keys_rotated',
  'signing_key_retired',
  'upstream_provider_changed',
  'upstream_provider_removed',
  'upstream_test_sign_in',
  'second_factor_enrolled',
  'second_factor_reset',
  'second_factor_requirement_set',
  'recovery_codes_generated',
  'mail_queued',
  'mail_sent',
  'mail_failed',
  'sign_in_change_refused',
  'group_created',
  'group_removed',
  'group_member_added',
  'group_member_removed',
  'role_created',
  'role_removed',
  'role_assigned',
  'role_unassigned',
  'organization_changed',
  'organization_removed',
  'organization_member_added',
  'organization_member_removed',
  'organization_domain_changed',
  'password_reset_requested',
  'password_reset',
  'password_reset_refused',
  'email_verification_sent',
  'email_verified',
  'email_verification_refused',
  'email_change_requested',
  'email_changed',
  'invitation_sent',
  'invitation_accepted',
  'invitation_revoked',
  'signed_up',
  'sign_up_refused',
  'account_data_exported',
  'account_deleted',
  'terms_accepted',
  'terms_declined',
] as const;

export type AuditEventName = (typeof AUDIT_EVENT_NAMES)[number];

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
  /** Who made an administrative change: an admin client's id, or `cli`; null for other events. */
  readonly actor: string | null;
}

export interface AuditQuery {
  /** Only events at or after this time (epoch seconds). */
  readonly since?: number;
  readonly event?: AuditEventName;
  /** The newest `limit` events, listed oldest first. */
  readonly limit: number;
}

/** A page of events, oldest first, for the admin API. */
export interface AuditPageQuery {
  readonly event?: AuditEventName;
  readonly actor?: string;
  /** Epoch seconds, inclusive. */
  readonly since?: number;
  /** Epoch seconds, exclusive. */
  readonly until?: number;
  /** The id of the last event of the previous page. */
  readonly after?: string;
  readonly limit: number;
}

export interface AuditRepository {
  insertAuditEvent(event: AuditEvent): Promise<void>;
  listAuditEvents(query: AuditQuery): Promise<AuditEvent[]>;
  listAuditEventsPage(query: AuditPageQuery): Promise<AuditEvent[]>;
}

/** A stored row as an event (also read by ./own-data-repository.ts). */
export function auditEventFromRow(r: Selectable<AuditEventsTable>): AuditEvent {
  return {
    id: r.id,
    at: Number(r.at),
    event: r.event as AuditEventName,
    clientId: r.client_id,
    subject: r.subject,
    grantId: r.grant_id,
    reason: r.reason,
    address: r.address,
    actor: r.actor,
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
          actor: e.actor,
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
      return rows.map(auditEventFromRow).reverse();
    },
    async listAuditEventsPage({ event, actor, since, until, after, limit }) {
      const rows = await db
        .selectFrom('audit_events')
        .selectAll()
        .$if(event !== undefined, (q) => q.where('event', '=', event as string))
        .$if(actor !== undefined, (q) => q.where('actor', '=', actor as string))
        .$if(since !== undefined, (q) => q.where('at', '>=', since as number))
        .$if(until !== undefined, (q) => q.where('at', '<', until as number))
        .$if(after !== undefined, (q) => q.where('id', '>', after as string))
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(auditEventFromRow);
    },
  };
}
