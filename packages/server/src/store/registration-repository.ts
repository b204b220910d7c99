import type { Kysely } from 'kysely';
import type { ClientRecord } from '../primitives/records.js';
import { clientToRow } from './rows.js';
import type { Database } from './schema.js';

/** An initial access token (RFC 7591 §3): only its digest is stored. */
export interface RegistrationTokenRecord {
  /** SHA-256 of the token, hex. */
  readonly id: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly maxUses: number;
  readonly uses: number;
}

/** What RFC 7592 needs of a client registered through /register. */
export interface ClientRegistrationRecord {
  readonly clientId: string;
  /** SHA-256 of the registration access token, hex. */
  readonly accessTokenDigest: string;
  /** The registered client metadata (RFC 7591 §2), as answered. */
  readonly metadata: object;
}

/** The queries of dynamic client registration (RFC 7591, RFC 7592). */
export interface RegistrationRepository {
  insertRegistrationToken(token: RegistrationTokenRecord): Promise<void>;
  findRegistrationToken(id: string): Promise<RegistrationTokenRecord | undefined>;
  /** Counts one use of a token that is neither expired nor used up at `now`; false when it is, or unknown. */
  useRegistrationToken(id: string, now: number): Promise<boolean>;
  insertClientRegistration(registration: ClientRegistrationRecord): Promise<void>;
  findClientRegistration(clientId: string): Promise<ClientRegistrationRecord | undefined>;
  /**
   * Replaces a registered client's name, redirect URIs, grant types, scope, keys, PAR requirement and
   * profile, and its metadata.
   */
  updateRegisteredClient(client: ClientRecord, metadata: object): Promise<void>;
}

export function createRegistrationRepository(db: Kysely<Database>): RegistrationRepository {
  return {
    async insertRegistrationToken(t) {
      await db
        .insertInto('registration_tokens')
        .values({ id: t.id, created_at: t.createdAt, expires_at: t.expiresAt, max_uses: t.maxUses, uses: t.uses })
        .execute();
    },
    async findRegistrationToken(id) {
      const row = await db.selectFrom('registration_tokens').selectAll().where('id', '=', id).executeTakeFirst();
      return (
        row && {
          id: row.id,
          createdAt: Number(row.created_at),
          expiresAt: Number(row.expires_at),
          maxUses: Number(row.max_uses),
          uses: Number(row.uses),
        }
      );
    },
    async useRegistrationToken(id, now) {
      // One conditional update: two registrations racing for the last use cannot both have it.
      const result = await db
        .updateTable('registration_tokens')
        .set((eb) => ({ uses: eb('uses', '+', 1) }))
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .whereRef('uses', '<', 'max_uses')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async insertClientRegistration(r) {
      await db
        .insertInto('client_registrations')
        .values({
          client_id: r.clientId,
          access_token_digest: r.accessTokenDigest,
          metadata: JSON.stringify(r.metadata),
        })
        .execute();
    },
    async findClientRegistration(clientId) {
      const row = await db
        .selectFrom('client_registrations')
        .selectAll()
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return (
        row && {
          clientId: row.client_id,
          accessTokenDigest: row.access_token_digest,
          metadata: JSON.parse(row.metadata) as object,
        }
      );
    },
    async updateRegisteredClient(client, metadata) {
      const row = clientToRow(client);
      await db
        .updateTable('clients')
        .set({
          name: row.name,
          redirect_uris: row.redirect_uris,
          grant_types: row.grant_types,
          scope: row.scope,
          jwks: row.jwks,
          jwks_uri: row.jwks_uri,
          require_par: row.require_par,
          profile: row.profile,
        })
        .where('id', '=', client.id)
        .execute();
      await db
        .updateTable('client_registrations')
        .set({ metadata: JSON.stringify(metadata) })
        .where('client_id', '=', client.id)
        .execute();
    },
  };
}
