import type { LogoFetcher } from './clients/index.js';
import type { RateLimiter } from '../abuse/rate-limiter.js';
import type { AuditTrail } from '../audit/audit.js';
import type { Clock } from '../primitives/clock.js';
import type { Store } from '../store/store.js';
import type { AccessTokens } from './tokens/index.js';
import type { ClientIdMetadataDocuments } from './client-id-metadata/index.js';
import type { RegistrationPolicy } from './clients/index.js';
import type { ClientKeys } from './keys/index.js';
import type { IdTokens } from './tokens/index.js';
import type { KeyRing } from './keys/index.js';
import type { DpopProofs } from './sender-constraints/index.js';
import type { RefreshSuccessors } from './tokens/index.js';
import type { TrustedIssuers } from './token-exchange/index.js';

/** What issuing tokens needs: the grants and the token endpoint's operations take exactly this. */
export interface TokenServices {
  readonly store: Store;
  /** The one way an audit event is stored: each is also logged and counted (audit/audit.ts). */
  readonly audit: AuditTrail;
  readonly clock: Clock;
  readonly accessTokens: AccessTokens;
  /** Derives the successor of a rotated token, for clients with a replay window. */
  readonly refreshSuccessors: RefreshSuccessors;
  readonly idTokens: IdTokens;
  /** TOKEN_EXCHANGE_TRUSTED_ISSUERS: whose JWTs a token exchange takes besides this server's tokens. */
  readonly trustedIssuers: TrustedIssuers;
  /** The issuer identifier (RFC 8414 §2). */
  readonly issuer: string;
}

/**
 * What the authorization server's endpoints need. The server's context is one of these (and more);
 * oauth/ declares its needs here rather than importing the context, so the dependency runs one way.
 */
export interface OAuthServices extends TokenServices {
  /** The issuer identifier and the base of every URL the server names (RFC 8414 §2). */
  readonly issuer: string;
  readonly keys: KeyRing;
  readonly rateLimits: RateLimiter;
  /** CLIENT_REGISTRATION: who may register clients at /register (RFC 7591); `off` serves no /register. */
  readonly clientRegistration: RegistrationPolicy;
  /** The scopes a dynamically registered client may ask for: OpenID Connect's and the REST API's. */
  readonly registrableScopes: readonly string[];
  /** CLIENT_ID_METADATA_DOCUMENTS: URL client_ids resolved through their documents (oauth/client-id-metadata/). */
  readonly clientIdMetadataDocuments: ClientIdMetadataDocuments;
  /** Clients' public keys (inline, or fetched from their jwks_uri and cached). */
  readonly clientKeys: ClientKeys;
  /** How a registered client's logo_uri is fetched, to be served from this origin (RFC 7591 §2). */
  readonly clientLogos: LogoFetcher;
  /** REQUIRE_PUSHED_AUTHORIZATION_REQUESTS: every authorization request must be pushed (RFC 9126 §5). */
  readonly requirePushedAuthorizationRequests: boolean;
  /** AUTHORIZATION_CODE_TTL: seconds an authorization code waits for its exchange (60 by default). */
  readonly authorizationCodeTtl: number;
  /** DPoP proofs (RFC 9449): their check, the replay cache, the nonces when required. */
  readonly dpop: DpopProofs;
}
