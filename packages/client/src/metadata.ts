import { InvalidResponseError } from './errors.js';
import { jsonObjectOf, send, type FetchFunction } from './http.js';
import type { AuthorizationServerMetadata } from './wire.js';

/**
 * The metadata URL of an issuer: the well-known segment goes between the host and the issuer's path.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3.1 RFC 8414 §3.1
 */
export function metadataUrlOf(issuer: string): string {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}/.well-known/oauth-authorization-server${path}`;
}

/**
 * OpenID Connect's metadata URL, which servers that are OpenID Providers (node-oidc-provider,
 * Keycloak) serve instead: the well-known segment is appended to the issuer.
 *
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfig OpenID Connect Discovery 1.0 §4
 */
export function openIdConfigurationUrlOf(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

/**
 * Reads the authorization server's metadata (RFC 8414, or OpenID Connect Discovery when the server
 * answers 404 there, as RFC 8414 §5 allows) and checks it names the issuer we asked for and a
 * token endpoint.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3.3 RFC 8414 §3.3
 */
export async function discoverAuthorizationServer(
  issuer: string,
  fetchFn: FetchFunction,
): Promise<AuthorizationServerMetadata> {
  let url = metadataUrlOf(issuer);
  let response = await send(fetchFn, url, { headers: { accept: 'application/json' } });
  if (response.status === 404) {
    await response.body?.cancel();
    url = openIdConfigurationUrlOf(issuer);
    response = await send(fetchFn, url, { headers: { accept: 'application/json' } });
  }
  const body = await jsonObjectOf(response, 'metadata endpoint');
  if (body.issuer !== issuer) {
    throw new InvalidResponseError(
      `the metadata at ${url} names the issuer ${JSON.stringify(body.issuer)}, not ${issuer} (RFC 8414 §3.3)`,
    );
  }
  if (typeof body.token_endpoint !== 'string')
    throw new InvalidResponseError(`the metadata at ${url} names no token_endpoint`);
  return body as AuthorizationServerMetadata;
}
