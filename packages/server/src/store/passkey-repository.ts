import type { Kysely, Selectable } from 'kysely';
import type { Database, PasskeysTable } from './schema.js';

/** A user's WebAuthn credential (a passkey), as stored; see webauthn/. */
export interface PasskeyRecord {
  /** The credential id, base64url. */
  readonly id: string;
  /** The owner's subject. */
  readonly subject: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  /** The signature counter of the last use. */
  readonly counter: number;
  readonly transports: readonly string[];
  /** BE (WebAuthn §6.1): whether the credential may be backed up (synced); fixed at creation. */
  readonly backupEligible: boolean;
  /** BS at the last use: whether it was backed up. */
  readonly backedUp: boolean;
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

/** A credential with its owner's sign-in name and state, as an assertion needs it. */
export interface PasskeyWithOwner extends PasskeyRecord {
  readonly username: string;
  readonly ownerDisabled: boolean;
}

/**
 * What a challenge was made for: a passkey added to an account (`register`), a sign-in
 * (`authenticate`), or a passkey made on the sign-up form for an account not made yet (`sign_up`),
 * kept apart so that no other ceremony's challenge makes an account.
 */
export type WebAuthnPurpose = 'register' | 'authenticate' | 'sign_up';

/** A ceremony's challenge, stored until its one use or its expiry. */
export interface WebAuthnChallengeRecord {
  readonly challenge: string;
  readonly sessionId: string;
  readonly purpose: WebAuthnPurpose;
  readonly subject: string | null;
  readonly expiresAt: number;
}

/** The queries of passkeys and of their ceremonies' challenges. */
export interface PasskeyRepository {
  insertPasskey(passkey: PasskeyRecord): Promise<void>;
  /** The credential and its owner; undefined when no user holds it. */
  findPasskey(id: string): Promise<PasskeyWithOwner | undefined>;
  /** The user's credentials, oldest first. */
  listPasskeys(subject: string): Promise<PasskeyRecord[]>;
  /** Records a use: the new counter and backup state; true when the credential exists. */
  recordPasskeyUse(id: string, use: Pick<PasskeyRecord, 'counter' | 'backedUp' | 'lastUsedAt'>): Promise<boolean>;
  /** Renames one of the user's credentials; false when the user holds no such credential. */
  renamePasskey(subject: string, id: string, name: string): Promise<boolean>;
  /** Removes one of the user's credentials; false when the user holds no such credential. */
  removePasskey(subject: string, id: string): Promise<boolean>;
  /** Removes every credential of the user (an operator's reset of its factors); how many. */
  removePasskeysOf(subject: string): Promise<number>;

  insertWebAuthnChallenge(challenge: WebAuthnChallengeRecord): Promise<void>;
  /** Deletes the challenge if `sessionId` holds it and returns it (expired or not): one use only. */
  takeWebAuthnChallenge(challenge: string, sessionId: string): Promise<WebAuthnChallengeRecord | undefined>;
  deleteExpiredWebAuthnChallenges(now: number): Promise<void>;
}

function passkeyFromRow(r: Selectable<PasskeysTable>): PasskeyRecord {
  return {
    id: r.id,
    subject: r.subject,
    publicKey: r.public_key,
    counter: Number(r.counter),
    transports: r.transports === '' ? [] : r.transports.split(' '),
    backupEligible: Number(r.backup_eligible) === 1,
    backedUp: Number(r.backed_up) === 1,
    name: r.name,
    createdAt: Number(r.created_at),
    lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  };
}

export function createPasskeyRepository(db: Kysely<Database>): PasskeyRepository {
  return {
    async insertPasskey(p) {
      await db
        .insertInto('passkeys')
        .values({
          id: p.id,
          subject: p.subject,
          public_key: p.publicKey,
          counter: p.counter,
          transports: p.transports.join(' '),
          backup_eligible: p.backupEligible ? 1 : 0,
          backed_up: p.backedUp ? 1 : 0,
          name: p.name,
          created_at: p.createdAt,
          last_used_at: p.lastUsedAt,
        })
        .execute();
    },
    async findPasskey(id) {
      const row = await db
        .selectFrom('passkeys')
        .innerJoin('users', 'users.subject', 'passkeys.subject')
        .selectAll('passkeys')
        .select(['users.username', 'users.disabled_at'])
        .where('passkeys.id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      return { ...passkeyFromRow(row), username: row.username, ownerDisabled: row.disabled_at !== null };
    },
    async listPasskeys(subject) {
      const rows = await db
        .selectFrom('passkeys')
        .selectAll()
        .where('subject', '=', subject)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(passkeyFromRow);
    },
    async recordPasskeyUse(id, use) {
      const result = await db
        .updateTable('passkeys')
        .set({ counter: use.counter, backed_up: use.backedUp ? 1 : 0, last_used_at: use.lastUsedAt })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async renamePasskey(subject, id, name) {
      const result = await db
        .updateTable('passkeys')
        .set({ name })
        .where('id', '=', id)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async removePasskey(subject, id) {
      const result = await db
        .deleteFrom('passkeys')
        .where('id', '=', id)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async removePasskeysOf(subject) {
      const result = await db.deleteFrom('passkeys').where('subject', '=', subject).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async insertWebAuthnChallenge(c) {
      await db
        .insertInto('webauthn_challenges')
        .values({
          challenge: c.challenge,
          session_id: c.sessionId,
          purpose: c.purpose,
          subject: c.subject,
          expires_at: c.expiresAt,
        })
        .execute();
    },
    async takeWebAuthnChallenge(challenge, sessionId) {
      const row = await db
        .deleteFrom('webauthn_challenges')
        .where('challenge', '=', challenge)
        .where('session_id', '=', sessionId)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        challenge: row.challenge,
        sessionId: row.session_id,
        purpose: row.purpose as WebAuthnPurpose,
        subject: row.subject,
        expiresAt: Number(row.expires_at),
      };
    },
    async deleteExpiredWebAuthnChallenges(now) {
      await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
    },
  };
}
