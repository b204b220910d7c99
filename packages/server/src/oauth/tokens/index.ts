/**
 * Tokens: access tokens (RFC 9068) and their check, ID tokens (OIDC Core §2), authorization codes
 * (RFC 6749 §4.1), the refresh-token lifecycle (its state table, families and successors), the grants
 * they belong to, the token responses (RFC 6749 §5.1), and scope (RFC 6749 §3.3).
 * What other code may use of it is exported here, and only from here (test/layers.test.ts).
 */
export { type AccessTokenClaims, AccessTokens } from './access-tokens.js';
export { ForeignAccessToken, localTokenSteps } from './access-token-check.js';
export { clientStillHolds } from './client-token-liveness.js';
export { IdTokens, OPENID_SCOPE } from './id-tokens.js';
export { readIdTokenHint } from './id-token-hint.js';
export { withIdToken, withRefreshIdToken } from './id-token-response.js';
export { tokenResponse } from './token-response.js';
export {
  GROUPS_SCOPE,
  heldAccessClaims,
  holderAccessRead,
  releasedAccessClaims,
  ROLES_SCOPE,
  userAccessClaims,
} from './access-claims.js';
export { exchangeRefreshToken, refreshTokenState } from './refresh-token-lifecycle.js';
export { RefreshSuccessors } from './refresh-successors.js';
export { issueGrant, issuesRefreshToken } from './grant-issuance.js';
export {
  grantOrganization,
  heldGrantOrganization,
  releasedOrganization,
  userinfoOrganization,
} from './grant-organization.js';
export { revokeFamily } from './revoke-family.js';
export {
  createAuthorizationCode,
  DEFAULT_AUTHORIZATION_CODE_TTL,
  MAX_AUTHORIZATION_CODE_TTL,
  redeemAuthorizationCode,
} from './authorization-codes.js';
export { isScopeSubset, parseScope } from './scope.js';
