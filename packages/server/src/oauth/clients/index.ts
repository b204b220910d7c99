/**
 * Clients: their records and registration (CLI, admin API, and RFC 7591 dynamic registration with
 * its registration tokens), the RFC 7591 §2 metadata checks, the redirect URI rule, and client
 * authentication (RFC 6749 §2.3, RFC 7523 assertions).
 * What other code may use of it is exported here, and only from here (test/layers.test.ts).
 */
export {
  ADMIN_READ_SCOPE,
  ADMIN_SCOPE,
  clientFromRegistration,
  AGENT_REFRESH_POLICY,
  type ClientRegistration,
  DEFAULT_ACCESS_TOKEN_TTL,
  describeClient,
  grantableScope,
  MAX_REPLAY_WINDOW,
  registerClient,
} from './clients.js';
export { checkClientMetadata } from './client-metadata.js';
export {
  changedPresentation,
  CLIENT_LOGO_LIMITS,
  clientPresentationOf,
  describePresentation,
  type PresentationChanges,
  fetchClientLogo,
  type ClientPresentation,
  type LogoFetcher,
  operatorLogoFetcher,
} from './client-presentation.js';
export {
  authenticateClient,
  authenticatedAtOnce,
  type ClientAuthMethod,
  presentedClient,
} from './client-authentication.js';
export {
  type ClientChanges,
  createClient,
  deleteClient,
  existingClient,
  rotateClientSecret,
  updateClient,
} from './client-administration.js';
export {
  deleteRegisteredClient,
  readRegisteredClient,
  registerDynamicClient,
  REGISTRATION_POLICIES,
  type RegistrationCaller,
  type RegistrationPolicy,
  updateRegisteredClient,
} from './dynamic-registration.js';
export { issueRegistrationToken } from './registration-tokens.js';
export { isClientRedirectUri, isRegisteredPostLogoutRedirectUri } from './redirect-uris.js';
