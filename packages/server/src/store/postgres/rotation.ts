import type { Kysely, QueryCreator } from 'kysely';
import type { FamilyRotation, Repository } from '../repository.js';
import type { Database } from '../schema.js';

/**
 * `Repository.rotateFamily` in one statement: the presented token's update and its successor's
 * insert as data-modifying common table expressions of the grant's update, one round trip where
 * the three statements took three (a refresh made eight). The three write different rows (the old
 * token, the new one, the grant, whose row the transaction already holds FOR UPDATE), so PostgreSQL
 * runs them on one snapshot without conflict, and all or none of them commit with the transaction.
 */
export function rotateFamilyInOneStatement(db: Kysely<Database>): Repository['rotateFamily'] {
  return async ({ token, successor, grant }: FamilyRotation) => {
    const used = (q: QueryCreator<Database>) =>
      q
        .updateTable('refresh_tokens')
        .set({ use_count: token.useCount, expires_at: token.expiresAt })
        .where('id', '=', token.id);
    const family = {
      rotation_count: grant.rotationCount,
      head_token_id: grant.headTokenId,
      previous_token_id: grant.previousTokenId,
      rotated_at: grant.rotatedAt,
    };
    if (successor === null) {
      await db.with('used', used).updateTable('grants').set(family).where('id', '=', grant.id).execute();
      return;
    }
    await db
      .with('used', used)
      .with('successor', (q) =>
        q.insertInto('refresh_tokens').values({
          id: successor.id,
          grant_id: successor.grantId,
          use_count: successor.useCount,
          issued_at: successor.issuedAt,
          expires_at: successor.expiresAt,
        }),
      )
      .updateTable('grants')
      .set(family)
      .where('id', '=', grant.id)
      .execute();
  };
}
