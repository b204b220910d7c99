import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A pushed authorization request (RFC 9126 §2) as stored: its parameters and whose they are. */
export interface PushedRequestRecord {
  /** SHA-256 of the random part of the request_uri, hex. */
  readonly id: string;
  readonly clientId: string;
  /** The validated authorization request, as a query string. */
  readonly parameters: string;
  readonly expiresAt: number;
}

/**
 * The queries of pushed authorization requests and of client assertions' `jti`s: rows that are used
 * once, across every process sharing the store, and leave once expired.
 */
export interface PushedRequestRepository {
  /** Stores a pushed request, and removes those that expired before `now` (so the table stays bounded). */
  insertPushedRequest(request: PushedRequestRecord, now: number): Promise<void>;
  /**
   * Uses a pushed request once: one conditional update marks it used by the sign-in `flowDigest`
   * until `flowExpiresAt`. Undefined when there is no such request, it expired, or it was used.
   */
  usePushedRequest(
    id: string,
    clientId: string,
    use: { readonly now: number; readonly flowDigest: string; readonly flowExpiresAt: number },
  ): Promise<PushedRequestRecord | undefined>;
  /** The client's pushed request that `id` names, not used: undefined when unknown, expired or used. */
  findUnusedPushedRequest(id: string, clientId: string, now: number): Promise<PushedRequestRecord | undefined>;
  /** The client's pushed request the sign-in `flowDigest` used, while that sign-in lasts. */
  findPushedRequestOfFlow(flowDigest: string, clientId: string, now: number): Promise<PushedRequestRecord | undefined>;
  /**
   * Records a client assertion's `jti` until `expiresAt`; false when the client already used it
   * (one statement decides, so two processes racing with one assertion get one true). Expired
   * entries are removed on the way.
   */
  useClientAssertionJti(clientId: string, jti: string, expiresAt: number, now: number): Promise<boolean>;
}

export function createPushedRequestRepository(db: Kysely<Database>): PushedRequestRepository {
  const fromRow = (r: { id: string; client_id: string; parameters: string; expires_at: number }) => ({
    id: r.id,
    clientId: r.client_id,
    parameters: r.parameters,
    expiresAt: Number(r.expires_at),
  });
  return {
    async insertPushedRequest(r, now) {
      await db.deleteFrom('pushed_authorization_requests').where('expires_at', '<', now).execute();
      await db
        .insertInto('pushed_authorization_requests')
        .values({
          id: r.id,
          client_id: r.clientId,
          parameters: r.parameters,
          expires_at: r.expiresAt,
          flow_digest: null,
        })
        .execute();
    },
    async usePushedRequest(id, clientId, { now, flowDigest, flowExpiresAt }) {
      const row = await db
        .updateTable('pushed_authorization_requests')
        .set({ flow_digest: flowDigest, expires_at: flowExpiresAt })
        .where('id', '=', id)
        .where('client_id', '=', clientId)
        .where('flow_digest', 'is', null)
        .where('expires_at', '>', now)
        .returning(['id', 'client_id', 'parameters', 'expires_at'])
        .executeTakeFirst();
      return row && fromRow(row);
    },
    async findUnusedPushedRequest(id, clientId, now) {
      const row = await db
        .selectFrom('pushed_authorization_requests')
        .select(['id', 'client_id', 'parameters', 'expires_at'])
        .where('id', '=', id)
        .where('client_id', '=', clientId)
        .where('flow_digest', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row && fromRow(row);
    },
    async findPushedRequestOfFlow(flowDigest, clientId, now) {
      const row = await db
        .selectFrom('pushed_authorization_requests')
        .select(['id', 'client_id', 'parameters', 'expires_at'])
        .where('flow_digest', '=', flowDigest)
        .where('client_id', '=', clientId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row && fromRow(row);
    },
    async useClientAssertionJti(clientId, jti, expiresAt, now) {
      await db.deleteFrom('client_assertion_jtis').where('expires_at', '<', now).execute();
      const result = await db
        .insertInto('client_assertion_jtis')
        .values({ client_id: clientId, jti, expires_at: expiresAt })
        .onConflict((oc) => oc.columns(['client_id', 'jti']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}
