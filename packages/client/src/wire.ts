/**
 * What travels on the wire, in the RFCs' own snake_case names, that only the client reads. The
 * token, introspection and device authorization responses and the error bodies are the contract's
 * (`@gatehouse/contract`), shared with the server. Everything here is readonly: a response is read,
 * never edited.
 */
import type { TokenResponse } from '@gatehouse/contract';

/**
 * A token response as the client reads it from any server: RFC 6749 §5.1's members and two that
 * say how long the refresh token lives, which Gatehouse does not send.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 RFC 6749 §5.1
 */
export interface TokenEndpointResponse extends TokenResponse {
  /** Not in RFC 6749; some servers (Keycloak) say how long the refresh token lives. */
  readonly refresh_expires_in?: number;
  /** Not in RFC 6749; the name other servers (Entra ID) use for the same. */
  readonly refresh_token_expires_in?: number;
}

/**
 * Authorization server metadata, the members this SDK reads.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-2 RFC 8414 §2
 */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly token_endpoint: string;
  readonly authorization_endpoint?: string;
  readonly introspection_endpoint?: string;
  readonly revocation_endpoint?: string;
  /** RFC 8628 §4. */
  readonly device_authorization_endpoint?: string;
  readonly code_challenge_methods_supported?: readonly string[];
  readonly grant_types_supported?: readonly string[];
  /** RFC 9207 §3: the server sends `iss` with every authorization response. */
  readonly authorization_response_iss_parameter_supported?: boolean;
  readonly [member: string]: unknown;
}
