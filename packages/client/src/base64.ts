/**
 * Base64 helpers over `btoa`, which Node 20 and every browser provide; no `Buffer` in the core.
 */

/** base64url without padding (RFC 4648 §5), as PKCE and random secrets use it. */
export function base64UrlEncode(bytes: Uint8Array): string {
  return base64Encode(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Standard base64 with padding (RFC 4648 §4). */
export function base64Encode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `length` random bytes from the platform's CSPRNG (WebCrypto). */
export function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}
