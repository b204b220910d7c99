import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { tokenPathQueries } from './token-path-queries.js';

/** The DPoP proofs seen (RFC 9449 §11.1), shared by every process of the store. */
export interface DpopRepository {
  /**
   * Notes a proof by its id (a digest of key and `jti`) until `expiresAt`; false when it was noted
   * before (a replay). The primary key decides, on one process or many.
   */
  noteDpopProof(id: string, expiresAt: number): Promise<boolean>;
  /** Forgets the proofs whose window has closed; returns how many. */
  deleteExpiredDpopProofs(now: number): Promise<number>;
}

export function createDpopRepository(db: Kysely<Database>): DpopRepository {
  return {
    async noteDpopProof(id, expiresAt) {
      const result = await tokenPathQueries.noteDpopProof(db, { id, expiresAt }).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async deleteExpiredDpopProofs(now) {
      const result = await db.deleteFrom('dpop_proofs').where('expires_at', '<', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
