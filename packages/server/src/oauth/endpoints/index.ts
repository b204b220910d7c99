import { authorizationEndpoint } from './authorization.js';
import { discoveryEndpoint, openIdDiscoveryEndpoint } from './discovery.js';
import type { RatePolicy } from '../../store/rate-limits.js';
import type { OAuthEndpoint } from './endpoint.js';
import { introspectEndpoint } from './introspect.js';
import { jwksEndpoint } from './jwks.js';
import { revokeEndpoint } from './revoke.js';
import { tokenEndpoint } from './token.js';
import { userinfoEndpoint } from './userinfo.js';
import { endSessionEndpoint } from './end-session.js';
import { deviceAuthorizationEndpoint } from './device-authorization.js';
import { clientConfigurationEndpoint, registrationEndpoint } from './registration.js';
import { pushedAuthorizationEndpoint } from './pushed-authorization.js';

/**
 * The OAuth surface, one entry per endpoint (see `endpoint.ts` for what an entry declares).
 *
 * | path                                      | method | clients authenticate | rate limits               | metadata key             |
 * |-------------------------------------------|--------|----------------------|---------------------------|--------------------------|
 * | /authorize                                | GET, POST | none (a browser)  | sign-in's (`login_*`)     | authorization_endpoint   |
 * | /token                                    | POST   | public allowed       | token_client, token_address | token_endpoint         |
 * | /introspect                               | POST   | confidential only    | introspect_client, _address | introspection_endpoint |
 * | /revoke                                   | POST   | public allowed       | revoke_client, revoke_address | revocation_endpoint  |
 * | /jwks                                     | GET    | none                 | —                         | jwks_uri                 |
 * | /userinfo                                 | GET, POST | bearer access token | —                        | userinfo_endpoint        |
 * | /end-session                              | GET    | none (a browser; served with the pages) | —        | end_session_endpoint     |
 * | /device_authorization                     | POST   | public allowed       | device_authorization_client, _address | device_authorization_endpoint |
 * | /par                                      | POST   | public allowed       | pushed_authorization_client, _address | pushed_authorization_request_endpoint |
 * | /register                                 | POST (JSON) | none (initial access token, or open) | register_address | registration_endpoint |
 * | /register/:client_id                      | GET, PUT, DELETE | registration access token | client_configuration_address | — |
 * | /.well-known/oauth-authorization-server   | GET    | none                 | —                         | —                        |
 * | /.well-known/openid-configuration         | GET    | none                 | —                         | —                        |
 *
 * Adding an endpoint is a file in this folder and a line in this list.
 */
const SERVED = [
  authorizationEndpoint,
  tokenEndpoint,
  introspectEndpoint,
  revokeEndpoint,
  jwksEndpoint,
  userinfoEndpoint,
  endSessionEndpoint,
  deviceAuthorizationEndpoint,
  pushedAuthorizationEndpoint,
  registrationEndpoint,
  clientConfigurationEndpoint,
] as const satisfies readonly OAuthEndpoint[];

/** The whole surface: the endpoints above, and the metadata document that describes them all. */
export const OAUTH_ENDPOINTS: readonly OAuthEndpoint[] = [
  ...SERVED,
  discoveryEndpoint(() => OAUTH_ENDPOINTS),
  openIdDiscoveryEndpoint(() => OAUTH_ENDPOINTS),
];

type ClientLimited = Extract<(typeof SERVED)[number], { rateLimits: { client: RatePolicy } }>;
type AddressLimited = Extract<(typeof SERVED)[number], { rateLimits: { address: RatePolicy } }>;

/** `<endpoint>_client` of every client-authenticating endpoint, `<endpoint>_address` of every limited one. */
export type EndpointRateLimitName = `${ClientLimited['name']}_client` | `${AddressLimited['name']}_address`;

/** The default policy of each endpoint limit, by name. */
export const ENDPOINT_RATE_LIMITS = Object.fromEntries(
  OAUTH_ENDPOINTS.flatMap((e) =>
    e.rateLimits === null ? [] : Object.entries(e.rateLimits).map(([kind, policy]) => [`${e.name}_${kind}`, policy]),
  ),
) as Readonly<Record<EndpointRateLimitName, RatePolicy>>;

/**
 * The paths whose errors, even those the HTTP parser meets, are RFC 6749 §5.2 bodies: the form
 * endpoints served here (not /authorize, whose POST is a browser's, answered with the pages in HTML).
 */
export const OAUTH_FORM_PATHS: ReadonlySet<string> = new Set(
  OAUTH_ENDPOINTS.filter((e) => e.method === 'POST' && e.handle !== undefined).map((e) => e.path),
);

export type { ClientAuthentication, OAuthEndpoint } from './endpoint.js';
