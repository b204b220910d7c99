import { setImmediate as nextTurn } from 'node:timers/promises';
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

/** The alphabet of the ids (base64url digests, `DpopProofs`), in byte order. */
const ID_ALPHABET = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** How many slices of the id space the sweep deletes in, one statement each. */
const SWEEP_SLICES = 32;
/** The lower bounds of the sweep's slices but the first: every other character, from the third. */
const SWEEP_BOUNDS = Array.from({ length: SWEEP_SLICES - 1 }, (_, k) => ID_ALPHABET.charAt((k + 1) * 2));

export function createDpopRepository(db: Kysely<Database>): DpopRepository {
  return {
    async noteDpopProof(id, expiresAt) {
      const result = await tokenPathQueries.noteDpopProof(db, { id, expiresAt }).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    // SQLite's table has no index on expires_at (migration 0040): the sweep reads it by ranges of
    // the primary key, a thirty-second of its rows a statement, and lets the event loop run between
    // them, so that no request waits for the whole table's scan. SQLite orders text by its bytes,
    // the bounds' order: the first slice open below, the last open above, every id is in one slice.
    async deleteExpiredDpopProofs(now) {
      let deleted = 0;
      for (let slice = 0; slice < SWEEP_SLICES; slice++) {
        const from = SWEEP_BOUNDS[slice - 1];
        const to = SWEEP_BOUNDS[slice];
        let query = db.deleteFrom('dpop_proofs').where('expires_at', '<', now);
        if (from !== undefined) query = query.where('id', '>=', from);
        if (to !== undefined) query = query.where('id', '<', to);
        deleted += Number((await query.executeTakeFirst()).numDeletedRows);
        if (to !== undefined) await nextTurn();
      }
      return deleted;
    },
  };
}

/**
 * The sweep as one statement, for a dialect that keeps 0021's index on expires_at and runs the
 * statement in a server process of its own (PostgreSQL): it reads only the expired entries.
 */
export async function deleteExpiredDpopProofsByExpiry(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('dpop_proofs').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
