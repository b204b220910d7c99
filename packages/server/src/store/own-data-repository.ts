import type { Kysely } from 'kysely';
import { auditEventFromRow, type AuditEvent } from './audit-repository.js';
import type { Database } from './schema.js';

/** A browser session of a user as its owner may see it: never its id (the cookie's digest) or CSRF token. */
export interface OwnSessionRecord {
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly authenticatedAt: number | null;
  readonly methods: readonly { readonly method: string; readonly at: number }[];
}

/** A mail of the outbox about a user, as metadata: never its subject line, bodies or links. */
export interface OwnMailRecord {
  readonly kind: string;
  readonly recipient: string;
  readonly state: string;
  readonly createdMs: number;
  readonly finishedMs: number | null;
}

/**
 * What the store holds about one user that no other repository lists by user (accounts/own-data.ts:
 * the user's own export and deletion), and the one statement set that takes the personal data out of
 * what stays after the account is deleted. Storage only: what counts as personal data is decided there.
 */
export interface OwnDataRepository {
  /** The events about the user: by its subject, and the failed sign-ins that typed its username. */
  listAuditEventsAbout(subject: string, username: string): Promise<AuditEvent[]>;
  listBrowserSessionsOf(username: string): Promise<OwnSessionRecord[]>;
  /** The groups the user is a member of, by name. */
  listGroupNamesOf(subject: string): Promise<string[]>;
  /** The roles given to the user itself (not through a group), with their scope. */
  listRolesOf(
    subject: string,
  ): Promise<{ readonly name: string; readonly scopeKind: string; readonly scopeId: string }[]>;
  listMailAbout(subject: string): Promise<OwnMailRecord[]>;
  /**
   * After the user's row is gone: its organization memberships and account links deleted, its queued
   * mails deleted and the recipient of the others blanked, and in the audit trail its client
   * addresses nulled, its username replaced by its subject (failed sign-ins, reasons). How many
   * audit events were rewritten.
   */
  forgetPersonalData(subject: string, username: string): Promise<number>;
}

export function createOwnDataRepository(db: Kysely<Database>): OwnDataRepository {
  return {
    async listAuditEventsAbout(subject, username) {
      const rows = await db
        .selectFrom('audit_events')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('subject', '=', subject),
            eb.and([eb('event', '=', 'login_failed'), eb('subject', '=', username)]),
          ]),
        )
        .orderBy('id')
        .execute();
      return rows.map(auditEventFromRow);
    },
    async listBrowserSessionsOf(username) {
      const rows = await db
        .selectFrom('browser_sessions')
        .select(['created_at', 'expires_at', 'authenticated_at', 'methods'])
        .where('username', '=', username)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({
        createdAt: Number(r.created_at),
        expiresAt: Number(r.expires_at),
        authenticatedAt: r.authenticated_at === null ? null : Number(r.authenticated_at),
        methods: (JSON.parse(r.methods) as { method: string; at: number }[]).map((m) => ({
          method: m.method,
          at: Number(m.at),
        })),
      }));
    },
    async listGroupNamesOf(subject) {
      const rows = await db
        .selectFrom('group_members')
        .innerJoin('access_groups', 'access_groups.id', 'group_members.group_id')
        .select('access_groups.name')
        .where('group_members.subject', '=', subject)
        .orderBy('access_groups.name')
        .execute();
      return rows.map((r) => r.name);
    },
    async listRolesOf(subject) {
      const rows = await db
        .selectFrom('role_assignments')
        .innerJoin('access_roles', 'access_roles.id', 'role_assignments.role_id')
        .select(['access_roles.name', 'access_roles.scope_kind', 'access_roles.scope_id'])
        .where('role_assignments.principal_kind', '=', 'user')
        .where('role_assignments.principal_id', '=', subject)
        .orderBy('access_roles.name')
        .execute();
      return rows.map((r) => ({ name: r.name, scopeKind: r.scope_kind, scopeId: r.scope_id }));
    },
    async listMailAbout(subject) {
      const rows = await db
        .selectFrom('mail_outbox')
        .select(['kind', 'recipient', 'state', 'created_ms', 'finished_ms'])
        .where('subject', '=', subject)
        .orderBy('created_ms')
        .execute();
      return rows.map((r) => ({
        kind: r.kind,
        recipient: r.recipient,
        state: r.state,
        createdMs: Number(r.created_ms),
        finishedMs: r.finished_ms === null ? null : Number(r.finished_ms),
      }));
    },
    async forgetPersonalData(subject, username) {
      await db.deleteFrom('organization_members').where('subject', '=', subject).execute();
      await db.deleteFrom('account_links').where('subject', '=', subject).execute();
      await db.deleteFrom('mail_outbox').where('subject', '=', subject).where('state', '=', 'queued').execute();
      await db
        .updateTable('mail_outbox')
        .set({ recipient: '', content: null })
        .where('subject', '=', subject)
        .where('state', 'in', ['sent', 'failed'])
        .execute();
      // A failed sign-in names the username typed: it becomes the subject, which names nobody once the user is gone.
      await db
        .updateTable('audit_events')
        .set({ subject, address: null })
        .where('event', '=', 'login_failed')
        .where('subject', '=', username)
        .executeTakeFirst();
      // Reasons name a holder or a typed username now and then: the username as a word becomes the subject.
      const word = new RegExp(`(?<![\\w.@-])${username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.@-])`, 'g');
      const named = await db
        .selectFrom('audit_events')
        .select(['id', 'reason'])
        .where('subject', '=', subject)
        .where('reason', 'is not', null)
        .execute();
      for (const row of named) {
        const reason = (row.reason as string).replace(word, subject);
        if (reason !== row.reason)
          await db.updateTable('audit_events').set({ reason }).where('id', '=', row.id).execute();
      }
      const about = await db
        .updateTable('audit_events')
        .set({ address: null })
        .where('subject', '=', subject)
        .executeTakeFirst();
      return Number(about.numUpdatedRows);
    },
  };
}
