/**
 * Keys: the server's signing keys (the ring, their rotation and administration, sealed at rest under
 * KEY_ENCRYPTION_KEY) and the public keys of clients (an inline `jwks`, or the set at a `jwks_uri`,
 * fetched and cached).
 * What other code may use of it is exported here, and only from here (test/layers.test.ts).
 */
export { KeyRing, sealPlaintextKeys } from './keys.js';
export { isSealed, KeyEncryption } from './key-sealing.js';
export { describeKeys, retireSigningKey, rotateSigningKeys } from './key-administration.js';
export { CLIENT_SIGNING_ALGS, ClientKeys, type JwksFetcher, jwksProblem, jwksUriProblem } from './client-keys.js';
export { safeJwksFetcher } from './jwks-fetcher.js';
