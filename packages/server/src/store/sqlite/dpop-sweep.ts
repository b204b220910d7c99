import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** The alphabet of the proofs' ids (base64url digests, `DpopProofs`), in byte order. */
const ID_ALPHABET = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** How many slices of the id space the sweep deletes in, one statement each. */
const SWEEP_SLICES = 32;
/** The lower bounds of the sweep's slices but the first: every other character, from the third. */
const SWEEP_BOUNDS = Array.from({ length: SWEEP_SLICES - 1 }, (_, k) => ID_ALPHABET.charAt((k + 1) * 2));

/**
 * `deleteExpiredDpopProofs` on SQLite, whose `dpop_proofs` has no index on expires_at (migration
 * 0040: one B-tree keyed by the id). The sweep reads the table by ranges of the primary key, a
 * thirty-second of its rows a statement, and lets the event loop run between them, so that no
 * request waits for the whole table's scan. SQLite orders text by its bytes, the bounds' order: the
 * first slice is open below, the last open above, so every id is in exactly one slice.
 */
export async function deleteExpiredDpopProofsInSlices(db: Kysely<Database>, now: number): Promise<number> {
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
}
