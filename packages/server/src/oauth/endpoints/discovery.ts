import { GRANT_TYPES } from '../grants/index.js';
import type { ClientAuthentication, OAuthEndpoint } from './endpoint.js';
import { oauthEndpoint } from './endpoint.js';

const AUTH_METHODS: Readonly<Record<Exclude<ClientAuthentication, 'none'>, readonly string[]>> = {
  confidential: ['client_secret_basic', 'client_secret_post'],
  public_allowed: ['client_secret_basic', 'client_secret_post', 'none'],
};

/**
 * The RFC 8414 §2 metadata of the endpoint table: each endpoint's URL under its metadata key, and
 * for a client-authenticating one its `<key>_auth_methods_supported`; the grant types from the
 * grant registry. Authorization responses carry `iss` (RFC 9207 §3), which the metadata announces.
 */
function authorizationServerMetadata(
  issuer: string,
  endpoints: readonly OAuthEndpoint[],
): Readonly<Record<string, unknown>> {
  const metadata: Record<string, unknown> = { issuer };
  for (const endpoint of endpoints) {
    if (endpoint.metadataKey === null) continue;
    metadata[endpoint.metadataKey] = `${issuer}${endpoint.path}`;
    if (endpoint.clientAuthentication !== 'none') {
      metadata[`${endpoint.metadataKey}_auth_methods_supported`] = AUTH_METHODS[endpoint.clientAuthentication];
    }
  }
  return {
    ...metadata,
    grant_types_supported: GRANT_TYPES,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
  };
}

/**
 * GET /.well-known/oauth-authorization-server (RFC 8414 §3). `surface` gives the table it
 * describes, itself included; the document is built once per issuer.
 */
export function discoveryEndpoint(surface: () => readonly OAuthEndpoint[]) {
  // By issuer: one process may serve several (tests do), each with its own document.
  const documents = new Map<string, Readonly<Record<string, unknown>>>();
  return oauthEndpoint({
    name: 'discovery',
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    metadataKey: null,
    clientAuthentication: 'none',
    rateLimits: null,
    async handle({ reply }, { issuer }) {
      let metadata = documents.get(issuer);
      if (metadata === undefined) documents.set(issuer, (metadata = authorizationServerMetadata(issuer, surface())));
      return reply.header('cache-control', 'public, max-age=300').send(metadata);
    },
  });
}
