/**
 * RFC 6750 §2.1 `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`, the
 * token of the Bearer and DPoP (RFC 9449 §7.1) schemes: a regular expression's source, unanchored.
 */
export const B64TOKEN = '[A-Za-z0-9\\-._~+/]+=*';

/**
 * RFC 6750 §2.1: `credentials = "Bearer" 1*SP b64token`, the scheme case-insensitive (RFC 9110
 * §11.1). The only definition of the bearer header's syntax in Gatehouse.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-2.1 RFC 6750 §2.1
 */
export const BEARER_CREDENTIALS = new RegExp(`^Bearer +${B64TOKEN}$`, 'i');

const SPACE = 0x20;
const SCHEME_LENGTH = 'Bearer'.length;

/**
 * The token of an RFC 6750 §2.1 `Authorization: Bearer <token>` header value, or undefined when the
 * value is not bearer credentials. Tested, not matched: no match array is made per request.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-2.1 RFC 6750 §2.1
 */
export function bearerTokenOf(authorization: string): string | undefined {
  if (!BEARER_CREDENTIALS.test(authorization)) return undefined;
  let start = SCHEME_LENGTH;
  while (authorization.charCodeAt(start) === SPACE) start++;
  return authorization.slice(start);
}
