import { ORGANIZATION_SCOPE } from '../../organizations/index.js';
import { DPOP_SIGNING_ALGORITHMS } from '@gatehouse/contract';
import { ACR_VALUES } from '../../primitives/acr.js';
import { RESPONSE_MODES } from '../../primitives/response-modes.js';
import { SCOPE_CLAIMS } from '../../users/claims.js';
import { SUPPORTED_LOCALES } from '../../i18n/index.js';
import { GRANT_TYPES } from '../grants/index.js';
import type { OAuthServices } from '../services.js';
import type { ClientAuthentication, OAuthEndpoint } from './endpoint.js';
import type { ClientAuthMethod } from '../clients/index.js';
import { CLIENT_SIGNING_ALGS } from '../keys/index.js';
import { oauthEndpoint } from './endpoint.js';

const AUTH_METHODS: Readonly<Record<Exclude<ClientAuthentication, 'none'>, readonly ClientAuthMethod[]>> = {
  confidential: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
  public_allowed: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
};

/**
 * The RFC 8414 §2 metadata of the endpoint table: each endpoint's URL under its metadata key, and
 * for a client-authenticating one its `<key>_auth_methods_supported`; the grant types from the
 * grant registry. Authorization responses carry `iss` (RFC 9207 §3), which the metadata announces.
 */
function authorizationServerMetadata(
  services: Pick<OAuthServices, 'issuer' | 'requirePushedAuthorizationRequests' | 'clientIdMetadataDocuments'>,
  endpoints: readonly OAuthEndpoint[],
): Readonly<Record<string, unknown>> {
  const { issuer } = services;
  const metadata: Record<string, unknown> = { issuer };
  for (const endpoint of endpoints) {
    if (endpoint.metadataKey === null) continue;
    metadata[endpoint.metadataKey] = `${issuer}${endpoint.path}`;
    if (endpoint.clientAuthentication !== 'none') {
      const stem = endpoint.metadataKey.replace(/_endpoint$/, '');
      // RFC 8414 §2: the methods, and for private_key_jwt the algorithms, of every authenticating endpoint.
      metadata[`${stem}_endpoint_auth_methods_supported`] = AUTH_METHODS[endpoint.clientAuthentication];
      metadata[`${stem}_endpoint_auth_signing_alg_values_supported`] = CLIENT_SIGNING_ALGS;
    }
  }
  return {
    // RFC 9126 §5: whether every authorization request must be pushed (clients may be required one by one).
    require_pushed_authorization_requests: services.requirePushedAuthorizationRequests,
    // RFC 9101 §10.5 / OIDC Discovery §3: request objects by value, signed by the client's keys.
    request_parameter_supported: true,
    request_object_signing_alg_values_supported: CLIENT_SIGNING_ALGS,
    // Only the request_uri values of the PAR endpoint; none is fetched (RFC 9101 §5.2 by reference is not served).
    request_uri_parameter_supported: false,
    ...metadata,
    grant_types_supported: GRANT_TYPES,
    response_types_supported: ['code'],
    // RFC 8414 §2 and OIDC Discovery §3: `query` (the code flow's default) and `form_post`.
    response_modes_supported: RESPONSE_MODES,
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    // draft-ietf-oauth-client-id-metadata-document §5: an https URL may be sent as client_id.
    client_id_metadata_document_supported: services.clientIdMetadataDocuments.supported,
    // RFC 9449 §5.1: the proof algorithms /token and the resources accept.
    dpop_signing_alg_values_supported: DPOP_SIGNING_ALGORITHMS,
  };
}

/**
 * The scopes whose meaning OpenID Connect defines (OIDC Core §5.4, §11), and `roles` and `groups`,
 * which release those claims (RFC 9068 §2.2.3.1); the REST API adds its own per client.
 */
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access', 'roles', 'groups'];

/**
 * The OpenID Provider Metadata (OIDC Discovery 1.0 §3): the RFC 8414 document, the same endpoint
 * URLs included, plus what OpenID Connect requires (`subject_types_supported`,
 * `id_token_signing_alg_values_supported`) and recommends (`scopes_supported`, `claims_supported`).
 */
function openIdProviderMetadata(
  services: Pick<OAuthServices, 'issuer' | 'requirePushedAuthorizationRequests' | 'clientIdMetadataDocuments'>,
  endpoints: readonly OAuthEndpoint[],
): Readonly<Record<string, unknown>> {
  return {
    ...authorizationServerMetadata(services, endpoints),
    // docs/organizations.md: `organization` asks for the user's organization (a chooser for several).
    scopes_supported: [...OIDC_SCOPES, ORGANIZATION_SCOPE],
    subject_types_supported: ['public'],
    // §15.1: RS256 first, the default for a client that registered none.
    id_token_signing_alg_values_supported: ['RS256', 'ES256'],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'azp',
      'at_hash',
      'amr',
      'acr',
      ...new Set(Object.values(SCOPE_CLAIMS).flat()),
      // RFC 9068 §2.2.3.1, released by the `roles` and `groups` scopes (oauth/tokens/access-claims.ts).
      'roles',
      'groups',
      // The organization a sign-in was for (docs/organizations.md).
      'org_id',
      'org_name',
      'org_roles',
    ],
    claim_types_supported: ['normal'],
    // OIDC Core §3.1.2.1 acr_values: `mfa` asks for a second factor (step-up); primitives/acr.ts.
    acr_values_supported: ACR_VALUES,
    prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    claims_parameter_supported: false,
    // §3: the languages of the pages, which `ui_locales` (OIDC Core §3.1.2.1) chooses from. No
    // `claims_locales_supported`: claims are stored in one language (no `name#de`, OIDC Core §5.2),
    // so `claims_locales` could choose nothing, and the metadata does not promise it.
    ui_locales_supported: SUPPORTED_LOCALES,
    // RP-Initiated Logout 1.0 §3 needs the end_session_endpoint, which the table names.
  };
}

/** GET /.well-known/openid-configuration (OIDC Discovery 1.0 §4), derived from the same table. */
export function openIdDiscoveryEndpoint(surface: () => readonly OAuthEndpoint[]) {
  return metadataEndpoint('openid_discovery', '/.well-known/openid-configuration', surface, openIdProviderMetadata);
}

/**
 * GET /.well-known/oauth-authorization-server (RFC 8414 §3). `surface` gives the table it
 * describes, itself included; the document is built once per issuer.
 */
export function discoveryEndpoint(surface: () => readonly OAuthEndpoint[]) {
  return metadataEndpoint('discovery', '/.well-known/oauth-authorization-server', surface, authorizationServerMetadata);
}

function metadataEndpoint<const Name extends string>(
  name: Name,
  path: `/${string}`,
  surface: () => readonly OAuthEndpoint[],
  build: (services: OAuthServices, endpoints: readonly OAuthEndpoint[]) => Readonly<Record<string, unknown>>,
) {
  // By server: one process may serve several (tests do), each with its own issuer and endpoints.
  const documents = new WeakMap<OAuthServices, Readonly<Record<string, unknown>>>();
  return oauthEndpoint({
    name,
    method: 'GET',
    path,
    metadataKey: null,
    clientAuthentication: 'none',
    rateLimits: null,
    async handle({ reply }, services) {
      let metadata = documents.get(services);
      if (metadata === undefined) {
        const endpoints = surface().filter((e) => e.servedWhen?.(services) ?? true);
        documents.set(services, (metadata = build(services, endpoints)));
      }
      return reply.header('cache-control', 'public, max-age=300').send(metadata);
    },
  });
}
