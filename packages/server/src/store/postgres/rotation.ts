import type { Kysely, QueryCreator } from 'kysely';
import type { Database } from '../schema.js';

/** A rotation's values, as one parameters object (../query-template.ts). */
export interface RotationParameters {
  tokenId: string;
  useCount: number;
  expiresAt: number;
  grantId: string;
  rotationCount: number;
  headTokenId: string | null;
  previousTokenId: string | null;
  rotatedAt: number | null;
}

/** The successor's values, beside the rotation's. */
export interface SuccessorParameters extends RotationParameters {
  successorId: string;
  successorGrantId: string;
  successorUseCount: number;
  successorIssuedAt: number;
  successorExpiresAt: number;
}

const used = (p: RotationParameters) => (q: QueryCreator<Database>) =>
  q.updateTable('refresh_tokens').set({ use_count: p.useCount, expires_at: p.expiresAt }).where('id', '=', p.tokenId);

const family = (p: RotationParameters) => ({
  rotation_count: p.rotationCount,
  head_token_id: p.headTokenId,
  previous_token_id: p.previousTokenId,
  rotated_at: p.rotatedAt,
});

/**
 * `Repository.rotateFamily` in one statement: the presented token's update and its successor's
 * insert as data-modifying common table expressions of the grant's update, one round trip where
 * the three statements took three (a refresh made eight). The three write different rows (the old
 * token, the new one, the grant, whose row the transaction already holds FOR UPDATE), so PostgreSQL
 * runs them on one snapshot without conflict, and all or none of them commit with the transaction.
 * Compiled once each (./hot-queries.ts).
 */
export const rotationQueries = {
  /** A rotation that keeps the presented token (no successor: rotation off, or a replay window). */
  rotate: (db: Kysely<Database>, p: RotationParameters) =>
    db.with('used', used(p)).updateTable('grants').set(family(p)).where('id', '=', p.grantId),

  rotateWithSuccessor: (db: Kysely<Database>, p: SuccessorParameters) =>
    db
      .with('used', used(p))
      .with('successor', (q) =>
        q.insertInto('refresh_tokens').values({
          id: p.successorId,
          grant_id: p.successorGrantId,
          use_count: p.successorUseCount,
          issued_at: p.successorIssuedAt,
          expires_at: p.successorExpiresAt,
        }),
      )
      .updateTable('grants')
      .set(family(p))
      .where('id', '=', p.grantId),
};
