/**
 * Whether `requested` is one of the client's registered redirect URIs. The comparison is an exact
 * string match (RFC 6749 §3.1.2.3, RFC 9700 §4.1.3: no pattern, no prefix), with one exception: a
 * registered loopback IP literal URI (`http://127.0.0.1/…` or `http://[::1]/…`, with or without a
 * port) matches the same scheme, host, path and query on any port, since a native app listens on
 * whatever port the operating system gives it (RFC 8252 §7.3). `localhost` gets no such exception:
 * a name may resolve elsewhere (RFC 8252 §8.3).
 */
export function isRegisteredRedirectUri(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const asked = loopbackWithoutPort(requested);
  return asked !== undefined && registered.some((uri) => loopbackWithoutPort(uri) === asked);
}

/**
 * Whether `uri` is an http loopback IP literal redirect URI (RFC 8252 §7.3), the kind that matches on
 * any port; dynamic registration accepts these as the only plain-http redirect URIs.
 */
export function isLoopbackIpRedirectUri(uri: string): boolean {
  return loopbackWithoutPort(uri) !== undefined;
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]']);

/** The URI without its port when it is an http loopback IP literal URI; undefined otherwise. */
function loopbackWithoutPort(uri: string): string | undefined {
  // Only URIs already in the normal form a URL parser gives compare as equal strings below.
  if (!/^http:\/\/(127\.0\.0\.1|\[::1\])(:\d{1,5})?\//.test(uri)) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (!LOOPBACK_HOSTS.has(url.hostname) || url.username !== '' || url.password !== '' || url.hash !== '') {
    return undefined;
  }
  return `http://${url.hostname}${url.pathname}${url.search}`;
}
