/**
 * A rotation's values (`Repository.rotateFamily`): the presented token's new use count and expiry,
 * and the family's new state on its grant. PostgreSQL writes them with one call of migration 0039's
 * function (./token-path-functions.ts), held back by the client and sent with the COMMIT (./pool.ts):
 * the presented token's update, its successor's insert (if any) and the grant's update, rows the
 * transaction already holds (the token and grant FOR UPDATE) or makes (the successor), so all or
 * none of them commit with the transaction. Until 0039 this was one statement, the token's update
 * and the successor's insert as data-modifying common table expressions of the grant's update,
 * parsed and planned at every refresh (docs/performance.md, PostgreSQL).
 */
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
