import type { Kysely, Selectable } from 'kysely';
import type { Database, FederationStatesTable, UpstreamProvidersTable } from './schema.js';

/** An upstream provider as stored: its credential and settings are JSON the federation folder reads. */
export interface UpstreamProviderRow {
  readonly id: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientAuth: string;
  readonly credential: string;
  readonly settings: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A local user's link to an upstream (iss, sub) pair. */
export interface FederatedIdentityRecord {
  readonly issuer: string;
  readonly subject: string;
  readonly providerId: string;
  readonly username: string;
  readonly linkedAt: number;
}

/** A sign-in in flight, or a link awaiting proof: single use, bound to a browser session. */
export interface FederationStateRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly providerId: string;
  readonly data: string;
  readonly expiresAt: number;
}

/** The queries of upstream federation (0018). */
export interface FederationRepository {
  listUpstreamProviders(): Promise<UpstreamProviderRow[]>;
  findUpstreamProvider(id: string): Promise<UpstreamProviderRow | undefined>;
  /** Inserts the provider, or replaces the one with its id (keeping when it was created). */
  putUpstreamProvider(row: UpstreamProviderRow): Promise<void>;
  removeUpstreamProvider(id: string): Promise<boolean>;

  findFederatedIdentity(issuer: string, subject: string): Promise<FederatedIdentityRecord | undefined>;
  listFederatedIdentitiesOf(username: string): Promise<FederatedIdentityRecord[]>;
  /** Links the pair unless it is linked already; true when this call linked it. */
  insertFederatedIdentity(link: FederatedIdentityRecord): Promise<boolean>;
  removeFederatedIdentity(username: string, issuer: string, subject: string): Promise<boolean>;

  insertFederationState(state: FederationStateRecord): Promise<void>;
  /**
   * Takes a state: returns it and deletes it in one statement, so that of two callbacks with one
   * `state` only one finds it (a replay finds nothing). Expired states are not returned.
   */
  takeFederationState(id: string, now: number): Promise<FederationStateRecord | undefined>;
  /** Reads a state without taking it; expired states are not returned. */
  findFederationState(id: string, now: number): Promise<FederationStateRecord | undefined>;
  deleteExpiredFederationStates(now: number): Promise<void>;
}

export function createFederationRepository(db: Kysely<Database>): FederationRepository {
  return {
    async listUpstreamProviders() {
      const rows = await db.selectFrom('upstream_providers').selectAll().orderBy('id').execute();
      return rows.map(providerFromRow);
    },
    async findUpstreamProvider(id) {
      const r = await db.selectFrom('upstream_providers').selectAll().where('id', '=', id).executeTakeFirst();
      return r && providerFromRow(r);
    },
    async putUpstreamProvider(p) {
      const values = {
        issuer: p.issuer,
        client_id: p.clientId,
        client_auth: p.clientAuth,
        credential: p.credential,
        settings: p.settings,
        updated_at: p.updatedAt,
      };
      await db
        .insertInto('upstream_providers')
        .values({ id: p.id, created_at: p.createdAt, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
    },
    async removeUpstreamProvider(id) {
      const result = await db.deleteFrom('upstream_providers').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async findFederatedIdentity(issuer, subject) {
      const r = await db
        .selectFrom('federated_identities')
        .selectAll()
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return r && identityFromRow(r);
    },
    async listFederatedIdentitiesOf(username) {
      const rows = await db
        .selectFrom('federated_identities')
        .selectAll()
        .where('username', '=', username)
        .orderBy('linked_at')
        .execute();
      return rows.map(identityFromRow);
    },
    async insertFederatedIdentity(link) {
      const result = await db
        .insertInto('federated_identities')
        .values({
          issuer: link.issuer,
          subject: link.subject,
          provider_id: link.providerId,
          username: link.username,
          linked_at: link.linkedAt,
        })
        .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async removeFederatedIdentity(username, issuer, subject) {
      const result = await db
        .deleteFrom('federated_identities')
        .where('username', '=', username)
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async insertFederationState(s) {
      await db
        .insertInto('federation_states')
        .values({
          id: s.id,
          session_id: s.sessionId,
          provider_id: s.providerId,
          data: s.data,
          expires_at: s.expiresAt,
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({
            session_id: s.sessionId,
            provider_id: s.providerId,
            data: s.data,
            expires_at: s.expiresAt,
          }),
        )
        .execute();
    },
    async takeFederationState(id, now) {
      const r = await db.deleteFrom('federation_states').where('id', '=', id).returningAll().executeTakeFirst();
      return r && Number(r.expires_at) > now ? stateFromRow(r) : undefined;
    },
    async findFederationState(id, now) {
      const r = await db
        .selectFrom('federation_states')
        .selectAll()
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return r && stateFromRow(r);
    },
    async deleteExpiredFederationStates(now) {
      await db.deleteFrom('federation_states').where('expires_at', '<=', now).execute();
    },
  };
}

function stateFromRow(r: Selectable<FederationStatesTable>): FederationStateRecord {
  return {
    id: r.id,
    sessionId: r.session_id,
    providerId: r.provider_id,
    data: r.data,
    expiresAt: Number(r.expires_at),
  };
}

function identityFromRow(r: {
  issuer: string;
  subject: string;
  provider_id: string;
  username: string;
  linked_at: number;
}): FederatedIdentityRecord {
  return {
    issuer: r.issuer,
    subject: r.subject,
    providerId: r.provider_id,
    username: r.username,
    linkedAt: Number(r.linked_at),
  };
}

function providerFromRow(r: Selectable<UpstreamProvidersTable>): UpstreamProviderRow {
  return {
    id: r.id,
    issuer: r.issuer,
    clientId: r.client_id,
    clientAuth: r.client_auth,
    credential: r.credential,
    settings: r.settings,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}
