import { isHttpsOrLoopbackHttp, LOOPBACK_HTTP_RULE } from './loopback.js';

/**
 * The redirect URI rule, shared by the server's authorization endpoint (which matches a request's
 * `redirect_uri` and `post_logout_redirect_uri`), its registration (which refuses what could never
 * match, and accepts plain http on loopback IP literals only) and the admin console (which says so
 * while the operator types). Equality is decided on the strings, never by a URL parser: the
 * WHATWG parser drops tabs, newlines and leading or trailing controls and spaces, so two different
 * strings can parse to one URL, and the string the browser is sent to is the one asked for.
 */

/**
 * A native app is a public client (RFC 8252 §8.4: it cannot keep a secret); a web client is
 * confidential. Only a native app's loopback redirect URIs match on any port, as node-oidc-provider
 * does: a web server's port is known when it registers (RFC 8252 §7.3).
 */
export type RedirectUriClientKind = 'native' | 'web';

/**
 * What may appear in a redirect URI the browser is sent to: the characters of a URI (RFC 3986 §2),
 * printable ASCII without space. Anything else (a control, a space, a non-ASCII character) is no
 * URI, and a raw control in a `Location` header is refused by Node (a 500), so it never matches.
 */
const URI_CHARACTERS = /^[\x21-\x7e]+$/;

/** The characters {@link hasOnlyUriCharacters} allows, in words, for the messages that refuse a URI. */
export const URI_CHARACTERS_RULE = 'printable ASCII only (RFC 3986 §2): no control, space or non-ASCII character';

/**
 * Whether `uri` holds nothing but URI characters (RFC 3986 §2, printable ASCII without space): the
 * one character rule of matching ({@link isRegisteredRedirectUri},
 * {@link isRegisteredPostLogoutRedirectUri}) and of registration, which refuses a URI that could
 * never match rather than let it register and fail at the first sign-in.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-2 RFC 3986 §2
 */
export function hasOnlyUriCharacters(uri: string): boolean {
  return URI_CHARACTERS.test(uri);
}

/**
 * A loopback IP literal redirect URI split exactly: `http://`, `127.0.0.1` or `[::1]`, an optional
 * port of digits, and the rest (empty, or from the `/` or `?` that ends the authority).
 */
const LOOPBACK_PARTS = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?([/?][\x21-\x7e]*)?$/;

/**
 * Whether `requested` is one of the `registered` redirect URIs. The comparison is an exact string
 * match, byte for byte (RFC 6749 §3.1.2.3, RFC 9700 §4.1.3: no pattern, no prefix, no
 * normalisation), with one exception for a native client: a registered loopback IP literal URI
 * (`http://127.0.0.1/…` or `http://[::1]/…`, with or without a port) matches the same string on any
 * port, since a native app listens on whatever port the operating system gives it (RFC 8252 §7.3).
 * `localhost` gets no such exception: a name may resolve elsewhere (RFC 8252 §8.3).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2.3 RFC 6749 §3.1.2.3
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-7.3 RFC 8252 §7.3
 */
export function isRegisteredRedirectUri(
  registered: readonly string[],
  requested: string,
  client: RedirectUriClientKind,
): boolean {
  // RFC 6749 §3.1.2: a redirect URI has no fragment.
  if (!hasOnlyUriCharacters(requested) || requested.includes('#')) return false;
  if (registered.includes(requested)) return true;
  if (client !== 'native') return false;
  const asked = loopbackWithoutPort(requested);
  return asked !== undefined && registered.some((uri) => loopbackWithoutPort(uri) === asked);
}

/**
 * Whether `requested` is one of the client's post-logout redirect URIs: registered in advance and
 * compared exactly, byte for byte (RP-Initiated Logout 1.0 §3), and a URI the browser can be sent to.
 *
 * @see https://openid.net/specs/openid-connect-rpinitiated-1_0.html#RedirectionAfterLogout RP-Initiated Logout §3
 */
export function isRegisteredPostLogoutRedirectUri(registered: readonly string[], requested: string): boolean {
  return hasOnlyUriCharacters(requested) && registered.includes(requested);
}

/** The URI without its port when it is an http loopback IP literal URI; undefined otherwise. */
function loopbackWithoutPort(uri: string): string | undefined {
  const parts = LOOPBACK_PARTS.exec(uri);
  if (!parts) return undefined;
  const [, host, port, rest = ''] = parts;
  if (port !== undefined && Number(port) > 65535) return undefined;
  return `http://${host}${rest}`;
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]']);

/**
 * Whether `uri` is an http loopback IP literal redirect URI (RFC 8252 §7.3, §8.3: not `localhost`);
 * dynamic registration accepts these as the only plain-http redirect URIs. A check of what may be
 * registered, unchanged from before; matching is {@link isRegisteredRedirectUri}'s.
 */
export function isLoopbackIpRedirectUri(uri: string): boolean {
  if (!/^http:\/\/(127\.0\.0\.1|\[::1\])(:\d{1,5})?\//.test(uri)) return false;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  return LOOPBACK_HOSTS.has(url.hostname) && url.username === '' && url.password === '' && url.hash === '';
}

/** Why a redirect URI cannot be registered by an operator, as {@link redirectUriRefusal} says it. */
export type RedirectUriRefusal = 'characters' | 'not-absolute' | 'fragment' | 'plain-http';

/**
 * Why an operator cannot register `uri` as a redirect URI, or undefined when it can: URI
 * characters only (RFC 3986 §2, the rule matching goes by: a URL parser would drop a tab or a trailing
 * NUL and encode a space or `é`, so such a URI would register and never match), absolute and without
 * a fragment (RFC 6749 §3.1.2), plain http only on loopback (RFC 8252 §7.3).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2 RFC 6749 §3.1.2
 */
export function redirectUriRefusal(uri: string): RedirectUriRefusal | undefined {
  if (!hasOnlyUriCharacters(uri)) return 'characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'not-absolute';
  }
  if (url.hash !== '' || uri.includes('#')) return 'fragment';
  if (url.protocol === 'http:' && !isHttpsOrLoopbackHttp(url)) return 'plain-http';
  return undefined;
}

/** {@link redirectUriRefusal}'s reasons in words (English, the operator API's language). */
export function redirectUriRefusalMessage(uri: string, refusal: RedirectUriRefusal): string {
  switch (refusal) {
    case 'characters':
      return `redirect URI ${JSON.stringify(uri)} must hold ${URI_CHARACTERS_RULE}`;
    case 'not-absolute':
      return `redirect URI '${uri}' is not an absolute URI`;
    case 'fragment':
      return `redirect URI '${uri}' must not have a fragment`;
    case 'plain-http':
      return `redirect URI '${uri}' must use ${LOOPBACK_HTTP_RULE}`;
  }
}
