import type { Insertable, Kysely, Selectable } from 'kysely';
import type { GrantRecord, GrantRevocationReason } from '../primitives/records.js';
import { grantFromRow } from './rows.js';
import type { BrowserSessionsTable, Database, UsersTable } from './schema.js';

/** A user's OpenID Connect standard claims (OIDC Core §5.1); each is optional. */
export interface UserClaims {
  readonly name?: string;
  readonly given_name?: string;
  readonly family_name?: string;
  readonly preferred_username?: string;
  readonly email?: string;
  readonly email_verified?: boolean;
  /** OIDC Core §5.1: a BCP 47 language tag, the language the pages speak to the user when they can. */
  readonly locale?: string;
}

/** A person who signs in on the authorization pages. */
export interface UserRecord {
  readonly username: string;
  /** `scrypt$N$r$p$salt$hash`; never leaves the server. */
  readonly passwordHash: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The opaque, stable `sub` of every token and of userinfo: never the username, never reused. */
  readonly subject: string;
  readonly claims: UserClaims;
  /** When an operator disabled the user: it can no longer sign in. Null (or absent) while enabled. */
  readonly disabledAt?: number | null;
  /** The user must enrol a second factor at its next sign-in (`users add --require-second-factor`). */
  readonly secondFactorRequired?: boolean;
  /** The password is an operator's temporary one (`users passwd --temporary`): replaced at the next sign-in. */
  readonly passwordTemporary?: boolean;
  /** The terms the user accepted last (TERMS_VERSION) and when, epoch seconds; absent: none. */
  readonly termsAccepted?: { readonly version: string; readonly at: number };
}

/** A browser's session on the authorization pages; `id` is the SHA-256 of the cookie value. */
export interface BrowserSessionRecord {
  readonly id: string;
  readonly csrfToken: string;
  readonly username: string | null;
  /** When the sign-in completed; null while anonymous or pending. */
  readonly authenticatedAt: number | null;
  /** A first factor passed and more are required; absent is false. */
  readonly pending?: boolean;
  /** The methods done so far (RFC 8176 `amr` values, each with its time); absent is none. */
  readonly methods?: readonly AuthenticationMethodRecord[];
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** One authentication method a session did: an RFC 8176 `amr` value and when, epoch seconds. */
export interface AuthenticationMethodRecord {
  readonly method: string;
  readonly at: number;
  /** On a federated sign-in's `fed`: the upstream's `acr` (OIDC Core §2), when it sent one. */
  readonly acr?: string;
  /** On a federated sign-in's `fed`: the id of the upstream provider it came through. */
  readonly upstream?: string;
}

/** The queries of users, browser sessions and the grants a user holds. */
export interface IdentityRepository {
  insertUser(user: UserRecord): Promise<void>;
  findUser(username: string): Promise<UserRecord | undefined>;
  listUsers(): Promise<UserRecord[]>;
  /** The users whose `email` claim is this address, compared lowercased (`normalizedEmail`, indexed). */
  listUsersWithEmail(email: string): Promise<UserRecord[]>;
  /**
   * True when the user exists and its password was replaced; `temporary`: one the user must replace
   * at its next sign-in (any other new password ends that).
   */
  updateUserPassword(username: string, passwordHash: string, now: number, temporary?: boolean): Promise<boolean>;
  /** Records that the user accepted the terms of `version` at `at` (replacing an earlier acceptance). */
  recordTermsAcceptance(username: string, version: string, at: number): Promise<boolean>;
  /** Removes the user and (by cascade) its sessions; true when it existed. */
  removeUser(username: string): Promise<boolean>;

  insertBrowserSession(session: BrowserSessionRecord): Promise<void>;
  /** The session unless it is unknown or expired at `now`. */
  findBrowserSession(id: string, now: number): Promise<BrowserSessionRecord | undefined>;
  touchBrowserSession(id: string, expiresAt: number): Promise<void>;
  deleteBrowserSession(id: string): Promise<void>;
  deleteBrowserSessionsOf(username: string): Promise<number>;
  deleteExpiredBrowserSessions(now: number): Promise<number>;

  /** The grants of `subject` for `clientId` that are neither revoked nor past their absolute expiry. */
  listLiveGrants(clientId: string, subject: string, now: number): Promise<GrantRecord[]>;
  /** Revokes every live grant of `subject`, of every client; how many it revoked. */
  revokeGrantsOf(subject: string, reason: GrantRevocationReason, now: number): Promise<number>;
}

export function userFromRow(r: Selectable<UsersTable>): UserRecord {
  return {
    username: r.username,
    passwordHash: r.password_hash,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    subject: r.subject,
    claims: JSON.parse(r.claims) as UserClaims,
    disabledAt: r.disabled_at === null ? null : Number(r.disabled_at),
    secondFactorRequired: Number(r.second_factor_required) === 1,
    ...(Number(r.password_temporary) === 1 ? { passwordTemporary: true } : {}),
    ...(r.terms_version === null || r.terms_accepted_at === null
      ? {}
      : { termsAccepted: { version: r.terms_version, at: Number(r.terms_accepted_at) } }),
  };
}

export function sessionFromRow(r: Selectable<BrowserSessionsTable>): BrowserSessionRecord {
  return {
    id: r.id,
    csrfToken: r.csrf_token,
    username: r.username,
    authenticatedAt: r.authenticated_at === null ? null : Number(r.authenticated_at),
    pending: Number(r.pending) === 1,
    methods: (JSON.parse(r.methods) as AuthenticationMethodRecord[]).map((m) => ({
      method: m.method,
      at: Number(m.at),
      ...(typeof m.acr === 'string' ? { acr: m.acr } : {}),
      ...(typeof m.upstream === 'string' ? { upstream: m.upstream } : {}),
    })),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
  };
}

/**
 * A user's e-mail address as users are found by it (0025): lowercased, as every comparison of
 * users' e-mails does; null when the claim is absent or not a string.
 */
export function normalizedEmail(email: unknown): string | null {
  return typeof email === 'string' ? email.toLowerCase() : null;
}

/** A new user's row; the one mapping for every insert of a user. */
export function userToRow(u: UserRecord): Insertable<UsersTable> {
  return {
    username: u.username,
    password_hash: u.passwordHash,
    created_at: u.createdAt,
    updated_at: u.updatedAt,
    subject: u.subject,
    claims: JSON.stringify(u.claims),
    email_normalized: normalizedEmail(u.claims.email),
    second_factor_required: u.secondFactorRequired === true ? 1 : 0,
    password_temporary: u.passwordTemporary === true ? 1 : 0,
    terms_version: u.termsAccepted?.version ?? null,
    terms_accepted_at: u.termsAccepted?.at ?? null,
  };
}

export function createIdentityRepository(db: Kysely<Database>): IdentityRepository {
  return {
    async insertUser(u) {
      await db.insertInto('users').values(userToRow(u)).execute();
    },
    async findUser(username) {
      const row = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
      return row && userFromRow(row);
    },
    async listUsers() {
      return (await db.selectFrom('users').selectAll().orderBy('username').execute()).map(userFromRow);
    },
    async listUsersWithEmail(email) {
      const rows = await db
        .selectFrom('users')
        .selectAll()
        .where('email_normalized', '=', normalizedEmail(email))
        .orderBy('username')
        .execute();
      return rows.map(userFromRow);
    },
    async updateUserPassword(username, passwordHash, now, temporary = false) {
      const result = await db
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: now, password_temporary: temporary ? 1 : 0 })
        .where('username', '=', username)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async recordTermsAcceptance(username, version, at) {
      const result = await db
        .updateTable('users')
        .set({ terms_version: version, terms_accepted_at: at })
        .where('username', '=', username)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async removeUser(username) {
      // Its roles (0028) go with it; its group memberships by their foreign key.
      await db
        .deleteFrom('role_assignments')
        .where('principal_kind', '=', 'user')
        .where('principal_id', 'in', db.selectFrom('users').select('subject').where('username', '=', username))
        .execute();
      const result = await db.deleteFrom('users').where('username', '=', username).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async insertBrowserSession(s) {
      await db
        .insertInto('browser_sessions')
        .values({
          id: s.id,
          csrf_token: s.csrfToken,
          username: s.username,
          authenticated_at: s.authenticatedAt,
          pending: s.pending === true ? 1 : 0,
          methods: JSON.stringify(s.methods ?? []),
          created_at: s.createdAt,
          expires_at: s.expiresAt,
        })
        .execute();
    },
    async findBrowserSession(id, now) {
      const row = await db
        .selectFrom('browser_sessions')
        .selectAll()
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row && sessionFromRow(row);
    },
    async touchBrowserSession(id, expiresAt) {
      await db.updateTable('browser_sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
    },
    async deleteBrowserSession(id) {
      await db.deleteFrom('browser_sessions').where('id', '=', id).execute();
    },
    async deleteBrowserSessionsOf(username) {
      const result = await db.deleteFrom('browser_sessions').where('username', '=', username).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async deleteExpiredBrowserSessions(now) {
      const result = await db.deleteFrom('browser_sessions').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async listLiveGrants(clientId, subject, now) {
      const rows = await db
        .selectFrom('grants')
        .selectAll()
        .where('client_id', '=', clientId)
        .where('subject', '=', subject)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(grantFromRow);
    },
    async revokeGrantsOf(subject, reason, now) {
      const result = await db
        .updateTable('grants')
        .set({ revoked_at: now, revoked_reason: reason })
        .where('subject', '=', subject)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
