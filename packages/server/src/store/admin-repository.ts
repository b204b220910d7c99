import { sql, type Kysely } from 'kysely';
import type { ClientRecord, GrantRecord } from '../primitives/records.js';
import {
  sessionFromRow,
  userFromRow,
  userToRow,
  type BrowserSessionRecord,
  type UserRecord,
} from './identity-repository.js';
import { containsPattern } from './contains.js';
import { clientFromRow, clientToRow, grantFromRow } from './rows.js';
import type { Database } from './schema.js';

/** Whose grants to list: a user's (by its subject) or a client's. */
export type GrantOwner = { readonly subject: string } | { readonly clientId: string };
/** Which grants to list: of a user, of a client, of both or (neither given) all. */
export interface GrantFilter {
  readonly subject?: string;
  readonly clientId?: string;
}

/** Which users to list: those whose username contains `search`, those enabled or disabled. */
export interface UserFilter {
  /** Lowercase, as usernames are stored; matched anywhere in the username. */
  readonly search?: string;
  readonly state?: 'enabled' | 'disabled';
}

/**
 * The queries of the administrative operations (the admin API and the CLI): pages in key order,
 * inserts that tell a duplicate apart from a failure, and the changes only an operator makes.
 * Pages are "up to `limit` rows after the key `after`".
 */
export interface AdminRepository {
  /** Inserts the client unless its id is taken; false when it is. */
  insertClientIfAbsent(client: ClientRecord): Promise<boolean>;
  /** Replaces every field of the client but its id and creation time; false when there is no such client. */
  replaceClient(client: ClientRecord): Promise<boolean>;
  listClientsPage(after: string | undefined, limit: number): Promise<ClientRecord[]>;
  /** Inserts the user unless its username is taken; false when it is. */
  insertUserIfAbsent(user: UserRecord): Promise<boolean>;
  /** A page of the users in username order, filtered in the store (the console's lists, the admin API's). */
  listUsersPage(after: string | undefined, limit: number, filter?: UserFilter): Promise<UserRecord[]>;
  /** Marks the user disabled unless it already is; false when there is no such user or it already was. */
  disableUser(username: string, now: number): Promise<boolean>;
  /** Lets a disabled user sign in again; false when there is no such user or it was not disabled. */
  enableUser(username: string, now: number): Promise<boolean>;
  listGrantsPage(owner: GrantFilter, after: string | undefined, limit: number): Promise<GrantRecord[]>;
  /**
   * How many users, clients and live grants (neither revoked nor past their absolute expiry at `now`)
   * there are; `approximate` when some count is an estimate (PostgreSQL's statistics, past 10,000 rows).
   */
  countOverview(now: number): Promise<{
    readonly users: number;
    readonly clients: number;
    readonly liveGrants: number;
    readonly approximate: boolean;
  }>;
  /** The user's browser sessions that have signed in and not expired at `now`, oldest first. */
  listSignedInSessions(username: string, now: number): Promise<BrowserSessionRecord[]>;
}

export function createAdminRepository(db: Kysely<Database>): AdminRepository {
  return {
    // Exact on both dialects; SQLite counts the live grants in the partial index of 0038, PostgreSQL
    // estimates past 10,000 rows instead (postgres/overview-counts.ts).
    async countOverview(now) {
      const count = (table: 'users' | 'clients') =>
        db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
      const [users, clients, grants] = await Promise.all([
        count('users'),
        count('clients'),
        db
          .selectFrom('grants')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', now)
          .executeTakeFirstOrThrow(),
      ]);
      return { users: Number(users.n), clients: Number(clients.n), liveGrants: Number(grants.n), approximate: false };
    },
    async listSignedInSessions(username, now) {
      const rows = await db
        .selectFrom('browser_sessions')
        .selectAll()
        .where('username', '=', username)
        .where('authenticated_at', 'is not', null)
        .where('expires_at', '>', now)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(sessionFromRow);
    },
    async insertClientIfAbsent(client) {
      const result = await db
        .insertInto('clients')
        .values(clientToRow(client))
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async replaceClient(client) {
      const { id: _id, created_at: _createdAt, ...fields } = clientToRow(client);
      const result = await db.updateTable('clients').set(fields).where('id', '=', client.id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async listClientsPage(after, limit) {
      const rows = await db
        .selectFrom('clients')
        .selectAll()
        .$if(after !== undefined, (q) => q.where('id', '>', after as string))
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(clientFromRow);
    },
    async insertUserIfAbsent(u) {
      const result = await db
        .insertInto('users')
        .values(userToRow(u))
        .onConflict((oc) => oc.column('username').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async listUsersPage(after, limit, { search, state } = {}) {
      const rows = await db
        .selectFrom('users')
        .selectAll()
        .$if(after !== undefined, (q) => q.where('username', '>', after as string))
        .$if(search !== undefined, (q) =>
          q.where(sql<boolean>`username LIKE ${containsPattern(search as string)} ESCAPE '\\'`),
        )
        .$if(state === 'enabled', (q) => q.where('disabled_at', 'is', null))
        .$if(state === 'disabled', (q) => q.where('disabled_at', 'is not', null))
        .orderBy('username')
        .limit(limit)
        .execute();
      return rows.map(userFromRow);
    },
    async disableUser(username, now) {
      const result = await db
        .updateTable('users')
        .set({ disabled_at: now, updated_at: now })
        .where('username', '=', username)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async enableUser(username, now) {
      const result = await db
        .updateTable('users')
        .set({ disabled_at: null, updated_at: now })
        .where('username', '=', username)
        .where('disabled_at', 'is not', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async listGrantsPage(owner, after, limit) {
      const rows = await db
        .selectFrom('grants')
        .selectAll()
        .$if(owner.subject !== undefined, (q) => q.where('subject', '=', owner.subject as string))
        .$if(owner.clientId !== undefined, (q) => q.where('client_id', '=', owner.clientId as string))
        .$if(after !== undefined, (q) => q.where('id', '>', after as string))
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(grantFromRow);
    },
  };
}
