import type { Kysely, Selectable } from 'kysely';
import type { AccountLinksTable, Database } from './schema.js';

/** What a link mailed to act on an account does (accounts/). */
export const ACCOUNT_LINK_PURPOSES = ['password_reset', 'email_verification', 'email_change', 'invitation'] as const;
export type AccountLinkPurpose = (typeof ACCOUNT_LINK_PURPOSES)[number];

/** A link as stored: the digest of its secret, never the secret. Times are epoch seconds. */
export interface AccountLinkRecord {
  /** SHA-256 of the link's secret, base64url. */
  readonly id: string;
  readonly purpose: AccountLinkPurpose;
  /** The user's `subject`. */
  readonly subject: string;
  readonly email: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly usedAt: number | null;
  /** What the link carries besides, as its feature reads it. */
  readonly data: Readonly<Record<string, string>>;
}

/** The links of accounts (0029) as storage; what a link does is accounts/' business. */
export interface AccountLinkRepository {
  insertAccountLink(link: AccountLinkRecord): Promise<void>;
  findAccountLink(id: string): Promise<AccountLinkRecord | undefined>;
  /**
   * Marks the link used at `now` when it is of `purpose`, unused and unexpired: one statement, so of
   * many uses at once (on one process or many) exactly one is told true.
   */
  useAccountLink(id: string, purpose: AccountLinkPurpose, now: number): Promise<boolean>;
  /** The newest unused, unexpired link of `subject` for `purpose` (a code typed instead of the link finds it). */
  findOpenAccountLink(
    subject: string,
    purpose: AccountLinkPurpose,
    now: number,
  ): Promise<AccountLinkRecord | undefined>;
  /** Marks every unused link of `subject` for `purpose` used at `now` (one reset ends the others); how many. */
  endAccountLinks(subject: string, purpose: AccountLinkPurpose, now: number): Promise<number>;
  /** Forgets the links that expired before `now`; how many. */
  deleteExpiredAccountLinks(now: number): Promise<number>;
  /** Every unused, unexpired link for `purpose`, oldest first (the open invitations). */
  listOpenAccountLinks(purpose: AccountLinkPurpose, now: number): Promise<AccountLinkRecord[]>;
  /** Forgets one unused link of `purpose` (an invitation revoked); whether there was one. */
  deleteOpenAccountLink(id: string, purpose: AccountLinkPurpose): Promise<boolean>;
}

function linkFromRow(r: Selectable<AccountLinksTable>): AccountLinkRecord {
  return {
    id: r.id,
    purpose: r.purpose as AccountLinkPurpose,
    subject: r.subject,
    email: r.email,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    usedAt: r.used_at === null ? null : Number(r.used_at),
    data: JSON.parse(r.data) as Record<string, string>,
  };
}

export function createAccountLinkRepository(db: Kysely<Database>): AccountLinkRepository {
  return {
    async insertAccountLink(link) {
      await db
        .insertInto('account_links')
        .values({
          id: link.id,
          purpose: link.purpose,
          subject: link.subject,
          email: link.email,
          created_at: link.createdAt,
          expires_at: link.expiresAt,
          used_at: link.usedAt,
          data: JSON.stringify(link.data),
        })
        .execute();
    },
    async findAccountLink(id) {
      const row = await db.selectFrom('account_links').selectAll().where('id', '=', id).executeTakeFirst();
      return row && linkFromRow(row);
    },
    async findOpenAccountLink(subject, purpose, now) {
      const row = await db
        .selectFrom('account_links')
        .selectAll()
        .where('subject', '=', subject)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .executeTakeFirst();
      return row && linkFromRow(row);
    },
    async useAccountLink(id, purpose, now) {
      const result = await db
        .updateTable('account_links')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async endAccountLinks(subject, purpose, now) {
      const result = await db
        .updateTable('account_links')
        .set({ used_at: now })
        .where('subject', '=', subject)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async deleteExpiredAccountLinks(now) {
      const result = await db.deleteFrom('account_links').where('expires_at', '<', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async listOpenAccountLinks(purpose, now) {
      const rows = await db
        .selectFrom('account_links')
        .selectAll()
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(linkFromRow);
    },
    async deleteOpenAccountLink(id, purpose) {
      const result = await db
        .deleteFrom('account_links')
        .where('id', '=', id)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
