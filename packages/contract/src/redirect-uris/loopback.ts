import ipaddr from 'ipaddr.js';

/**
 * The one loopback rule: where Gatehouse accepts or sends plain http (an upstream's issuer and the
 * requests made to it, an upstream's icon, a client's `jwks_uri`, a redirect URI registered by an
 * operator), and which callers count as the machine itself (`GET /metrics` without a token).
 *
 * Loopback is an IP literal in 127.0.0.0/8 or `::1` (RFC 1122 §3.2.1.3, RFC 4291 §2.5.3), an
 * IPv4-mapped form of one (`::ffff:127.0.0.2`, RFC 4291 §2.5.5.2), or, for a host in a URL, the
 * name `localhost` (RFC 6761 §6.3: it resolves to loopback only; the two-process federation example
 * runs its upstream on it, since cookies do not separate ports).
 *
 * Redirect URIs that a client registers itself are stricter (RFC 8252 §7.3, §8.3): only the IP
 * literals `127.0.0.1` and `[::1]`, never `localhost`, and those match on any port; that rule is
 * redirect-uris.ts.
 */

/** The rule in words, for the messages that refuse a URL. */
export const LOOPBACK_HTTP_RULE = 'https, or http on loopback only (127.0.0.0/8, [::1] or localhost)';

/** Whether `address` (an IP literal, with or without IPv6 brackets) is a loopback address. */
export function isLoopbackAddress(address: string): boolean {
  const literal = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(literal)) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(literal);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'loopback';
}

/** Whether the host of a URL (`URL.hostname`: brackets kept, IPv4 already normalised) is loopback. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname.toLowerCase() === 'localhost' || isLoopbackAddress(hostname);
}

/** Whether a URL is https, or plain http to a loopback host: {@link LOOPBACK_HTTP_RULE}. */
export function isHttpsOrLoopbackHttp(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}
