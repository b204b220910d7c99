/**
 * Authorization requests: the check of a request (RFC 6749 §4.1.1, PKCE, the OpenID Connect
 * parameters), and where its parameters come from: the query, a pushed request (RFC 9126) or a
 * signed request object (RFC 9101).
 * What other code may use of it is exported here, and only from here (test/layers.test.ts).
 */
export {
  type AuthorizationRequest,
  type AuthorizationRequestCheck,
  checkAuthorizationRequest,
  clientIdOf,
} from './authorization-request.js';
export { authorizationSource } from './authorization-request-source.js';
export { pushAuthorizationRequest } from './pushed-authorization-requests.js';
export { parametersBoundToProofKey } from './pushed-request-key.js';
export { requestObjectParameters } from './request-objects.js';
