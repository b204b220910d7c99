/**
 * Grants from outside the token endpoint: issued or revoked by an operator, revoked by a client
 * (RFC 7009), introspected by a resource server (RFC 7662).
 * What other code may use of it is exported here, and only from here (test/layers.test.ts).
 */
export { describeGrant, grantState, revokeGrantAsAdmin } from './grant-administration.js';
export { issueOperatorGrant } from './operator-grants.js';
export { revokeToken } from './revocation.js';
export { introspectToken, introspectTokenAtOnce } from './introspection.js';
