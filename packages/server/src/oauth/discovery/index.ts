/**
 * Discovery: the issuer identifier a server runs with (RFC 8414 §2), recorded for the commands run
 * beside it. The metadata documents themselves are the endpoint endpoints/discovery.ts.
 * What other code may use of it is exported here, and only from here (test/layers.test.ts).
 */
export { recordServedIssuer, servedIssuer } from './served-issuer.js';
