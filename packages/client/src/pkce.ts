/**
 * PKCE with S256 and the `state` value, on WebCrypto (`crypto.getRandomValues`, `crypto.subtle`),
 * which Node 20 and browsers both provide.
 */
import { base64UrlEncode, randomBytes } from './base64.js';

/**
 * A code verifier: 32 random bytes, base64url, 43 characters of the unreserved set.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.1 RFC 7636 §4.1
 */
export function generateCodeVerifier(): string {
  return base64UrlEncode(randomBytes(32));
}

/**
 * BASE64URL(SHA256(ASCII(code_verifier))).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.2 RFC 7636 §4.2
 */
export async function codeChallengeS256(codeVerifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier));
  return base64UrlEncode(new Uint8Array(digest));
}

/**
 * An unguessable `state`, bound to this client's pending request, against CSRF on the callback.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12 RFC 6749 §10.12
 */
export function generateState(): string {
  return base64UrlEncode(randomBytes(32));
}
