/**
 * @gatehouse/client: the token manager, the API client and the errors, for Node and browsers.
 * Node-only parts (the encrypted file store, the loopback listener of the login CLI) are in
 * `@gatehouse/client/node`.
 */
export {
  TokenManager,
  type AuthorizationStart,
  type TokenManagerEvents,
  type TokenManagerOptions,
} from './token-manager.js';
export { OAuthClient, type OAuthClientOptions } from './oauth-client.js';
export {
  MemoryTokenStore,
  type PendingAuthorization,
  type StoredTokens,
  type TokenStore,
  type TokenStoreState,
} from './token-store.js';
export {
  LocalStorageTokenStore,
  type ExclusiveLocks,
  type KeyValueStorage,
  type LocalStorageTokenStoreOptions,
} from './local-storage-token-store.js';
export { DpopKey } from './dpop.js';
export { ApiClient, type AccessTokenSource, type ApiClientOptions, type ApiRequest } from './api-client.js';
export {
  CollectionClient,
  type ApiRecord,
  type MergePatch,
  type RecordPage,
  type RecordResult,
  type WriteOptions,
} from './api-collection.js';
export {
  AuthorizationCallbackError,
  CLIENT_ERROR_CODES,
  ClientConfigurationError,
  GatehouseClientError,
  InvalidResponseError,
  LocalValidationError,
  OAuthResponseError,
  ProblemResponseError,
  ReauthenticationRequired,
  TokenStoreError,
  TransportError,
  type CallbackProblem,
  type ClientErrorCode,
} from './errors.js';
export {
  DEFAULT_RETRY_POLICY,
  backoffDelay,
  isTransient,
  parseRetryAfter,
  withRetry,
  type RetryPolicy,
} from './retry.js';
export { codeChallengeS256, generateCodeVerifier, generateState } from './pkce.js';
export {
  buildAuthorizationUrl,
  readAuthorizationCallback,
  type AuthorizationCallback,
  type AuthorizationUrlParameters,
} from './authorization-url.js';
export { discoverAuthorizationServer, metadataUrlOf, openIdConfigurationUrlOf } from './metadata.js';
export { introspectToken } from './introspect.js';
export { revokeToken } from './revoke.js';
export { pollDeviceToken, requestDeviceAuthorization, type DevicePolling } from './device-flow.js';
export { DEVICE_CODE_GRANT_TYPE, requestTokens, parseTokenResponse, type TokenRequest } from './token-endpoint.js';
export type { ClientAuthMethod, ClientCredentials, EndpointContext, FetchFunction } from './http.js';
export type { AuthorizationServerMetadata, TokenEndpointResponse } from './wire.js';
export type {
  ActiveIntrospectionResponse,
  DeviceAuthorizationResponse,
  InactiveIntrospectionResponse,
  IntrospectionResponse,
  OAuthErrorBody,
  ProblemBody,
  TokenResponse,
} from '@gatehouse/contract';
export { TypedEmitter } from './events.js';
