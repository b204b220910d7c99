/**
 * Sender-constrained tokens: DPoP proofs, their replay cache and nonces (RFC 9449), and the values of
 * the FAPI 2.0 Security Profile, whose clients' tokens are bound by DPoP.
 * What other code may use of it is exported here, and only from here (test/layers.test.ts).
 */
export { DpopNonces, DpopProofs, noteTokenProof, type UnnotedDpopProof } from './dpop-proofs.js';
export {
  checkFapi2Client,
  CLIENT_PROFILES,
  type ClientProfileName,
  clientSigningAlgs,
  clockSkewOf,
  FAPI2_MAX_CODE_LIFETIME,
  fapi2Problem,
  type Fapi2Problem,
  isFapi2,
  profileOf,
} from './fapi-profile.js';
