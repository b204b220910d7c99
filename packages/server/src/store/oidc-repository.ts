import type { Kysely } from 'kysely';
import type { GrantRecord } from '../primitives/records.js';
import { amrFromColumn, amrToColumn, grantFromRow } from './rows.js';
import type { Database } from './schema.js';
import { tokenPathQueries } from './token-path-queries.js';
import { normalizedEmail, userFromRow, type UserClaims, type UserRecord } from './identity-repository.js';

/** A grant's original sign-in (OIDC Core §12.2): when, and how (RFC 8176 `amr` values). */
export interface GrantAuthentication {
  readonly authTime: number;
  readonly amr: readonly string[] | null;
}

/** A grant as the account page shows it: the grant, its client's name, its sign-in and last use. */
export interface AccountGrant {
  readonly grant: GrantRecord;
  readonly clientName: string;
  readonly lastUsedAt: number | null;
}

/** The queries OpenID Connect adds: users' claims, grants' original authentication, the account page. */
export interface OidcRepository {
  /** True when the user exists and its claims were replaced. */
  updateUserClaims(username: string, claims: UserClaims, now: number): Promise<boolean>;
  findUserBySubject(subject: string): Promise<UserRecord | undefined>;
  /**
   * Renames a user and ends its sessions (they name it by username); its `subject`, which grants,
   * codes and device approvals name it by, stays. Call inside a transaction. False when there is no such user.
   */
  renameUser(from: string, to: string, now: number): Promise<boolean>;
  /** Records when the user signed in for a grant made by an OpenID Connect code (OIDC Core §12.2). */
  insertGrantAuthentication(grantId: string, authTime: number, amr?: readonly string[] | null): Promise<void>;
  /**
   * Records a use (a refresh) of a grant made by an OpenID Connect sign-in, for the account page, and
   * returns that sign-in (its auth_time and amr); undefined (nothing recorded) for a grant made without one.
   */
  touchGrantUse(grantId: string, now: number): Promise<GrantAuthentication | undefined>;
  /** The grants of `subject` that are neither revoked nor past their absolute expiry, every client. */
  listAccountGrants(subject: string, now: number): Promise<AccountGrant[]>;
}

export function createOidcRepository(db: Kysely<Database>): OidcRepository {
  return {
    async updateUserClaims(username, claims, now) {
      const result = await db
        .updateTable('users')
        .set({ claims: JSON.stringify(claims), email_normalized: normalizedEmail(claims.email), updated_at: now })
        .where('username', '=', username)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async findUserBySubject(subject) {
      const row = await tokenPathQueries.findUserBySubject(db, { subject }).executeTakeFirst();
      return row && userFromRow(row);
    },
    async renameUser(from, to, now) {
      // The sessions name the user by username (a foreign key): they end first.
      await db.deleteFrom('browser_sessions').where('username', '=', from).execute();
      const result = await db
        .updateTable('users')
        .set({ username: to, updated_at: now })
        .where('username', '=', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async insertGrantAuthentication(grantId, authTime, amr) {
      await db
        .insertInto('grant_authentications')
        .values({ grant_id: grantId, auth_time: authTime, amr: amrToColumn(amr) })
        .execute();
    },
    async touchGrantUse(grantId, now) {
      const row = await tokenPathQueries.touchGrantUse(db, { id: grantId, now }).executeTakeFirst();
      return row && { authTime: Number(row.auth_time), amr: amrFromColumn(row.amr) };
    },
    async listAccountGrants(subject, now) {
      const rows = await db
        .selectFrom('grants as g')
        .innerJoin('clients as c', 'c.id', 'g.client_id')
        .leftJoin('grant_authentications as a', 'a.grant_id', 'g.id')
        .selectAll('g')
        .select(['c.name as client_name', 'a.last_used_at as last_used_at'])
        .where('g.subject', '=', subject)
        .where('g.revoked_at', 'is', null)
        .where('g.expires_at', '>', now)
        .orderBy('g.created_at', 'desc')
        .execute();
      return rows.map((r) => ({
        grant: grantFromRow(r),
        clientName: r.client_name,
        lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
      }));
    },
  };
}
