/**
 * The device authorization grant (RFC 8628): device authorizations, their user codes, and the
 * redemption of a device code at the token endpoint.
 * What other code may use of it is exported here, and only from here (test/layers.test.ts).
 */
export { createDeviceAuthorization, pendingDeviceAuthorization } from './device-authorizations.js';
export { pollDeviceCode } from './device-code-redemption.js';
