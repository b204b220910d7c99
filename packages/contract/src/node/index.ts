/**
 * `@gatehouse/contract/node`: what the server and the resource-server kit share that needs Node
 * (node:crypto) and so stays out of the package's main entry, which the client SDK loads in browsers.
 */
export { DpopKeys, dpopSignatureStep, joseDpopSignature, plainEs256, sha256Base64url } from './dpop-signature.js';
export { SlotNonces } from './slot-nonces.js';
