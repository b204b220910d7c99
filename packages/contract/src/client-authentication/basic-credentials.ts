/**
 * RFC 6749 §2.3.1 `client_secret_basic`: the client id and secret, each encoded as
 * application/x-www-form-urlencoded (Appendix B), joined by ':', base64-encoded and sent as RFC 7617
 * Basic credentials, the scheme in any case (RFC 9110 §11.1). The only definition of that encoding in
 * Gatehouse: the client SDK and the resource-server kit write it, the server reads it. No Node APIs:
 * it runs in browsers too.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1 RFC 6749 §2.3.1
 * @see https://www.rfc-editor.org/rfc/rfc7617#section-2 RFC 7617 §2
 */
import { quotedString } from '../access-token/challenge.js';

/** RFC 7617 §2: `Basic` (any case), then at least one space before the credentials. */
const BASIC_SCHEME = /^Basic +/i;
/** The Basic scheme named, with or without credentials after it. */
const BASIC_SCHEME_NAMED = /^Basic(?: |$)/i;
/** RFC 7235 §2.1 token68 as base64 (RFC 4648 §4) writes it. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** A character outside printable ASCII: the credentials were sent as raw UTF-8 bytes, not form-encoded. */
const NOT_ASCII = /[^\x20-\x7e]/;

/** The client's id and secret, as the Authorization header carried them. */
export interface BasicCredentials {
  readonly clientId: string;
  readonly secret: string;
}

/** The `Authorization` header value of a client authenticating with `client_secret_basic`. */
export function basicAuthorization(clientId: string, secret: string): string {
  // Form-encoded, the credentials are ASCII: btoa takes them as they are.
  return `Basic ${btoa(`${formEncode(clientId)}:${formEncode(secret)}`)}`;
}

/**
 * The `WWW-Authenticate` value that answers a client whose Basic credentials were refused (RFC 6749
 * §5.2 invalid_client; RFC 7617 §2.1 `charset`: the credentials are read as UTF-8).
 */
export function basicChallenge(realm: string): string {
  return `Basic realm=${quotedString(realm)}, charset="UTF-8"`;
}

/**
 * Whether an Authorization header value is of the Basic scheme, well formed or not (`Basic` alone
 * too): the client attempted Basic authentication (RFC 6749 §5.2 then asks for a challenge).
 */
export function isBasicAuthorization(authorization: string | undefined): boolean {
  return authorization !== undefined && BASIC_SCHEME_NAMED.test(authorization);
}

/**
 * The id and secret of a Basic Authorization header value, or undefined when it is not well-formed
 * Basic credentials (not base64, no ':' after a non-empty id, a bad percent-encoding). A client that
 * sent its id or secret as raw UTF-8, not form-encoded, is read as such.
 */
export function basicCredentialsOf(authorization: string): BasicCredentials | undefined {
  const scheme = BASIC_SCHEME.exec(authorization);
  if (scheme === null) return undefined;
  const encoded = authorization.slice(scheme[0].length).trimEnd();
  if (!BASE64.test(encoded)) return undefined;
  try {
    // atob refuses a length that no base64 has; decodeURIComponent a bad percent-encoding.
    const binary = atob(encoded);
    const decoded = NOT_ASCII.test(binary)
      ? new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
      : binary;
    const colon = decoded.indexOf(':');
    if (colon < 1) return undefined;
    return { clientId: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/** application/x-www-form-urlencoded, exactly as URLSearchParams writes a value (WHATWG URL §5.2). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice('v='.length);
}

function formDecode(value: string): string {
  // Most ids and secrets have nothing to decode: no search and no copy then (a refresh's credentials).
  if (!value.includes('%') && !value.includes('+')) return value;
  return decodeURIComponent(value.replace(/\+/g, ' '));
}
