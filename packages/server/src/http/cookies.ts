/** The cookies of the pages: where they are sent, and how one is read. */

export interface CookiePolicy {
  /** `Secure` when the issuer is https (RFC 6265 §4.1.2.5). */
  readonly secure: boolean;
  /** The issuer's path, so that the cookie is sent to every page of this server and no other. */
  readonly path: string;
}

export function cookiePolicyFor(issuer: string): CookiePolicy {
  const url = new URL(issuer);
  return { secure: url.protocol === 'https:', path: url.pathname.replace(/\/+$/, '') || '/' };
}

/** The value of one cookie in a Cookie header (RFC 6265 §5.4), or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/** A Set-Cookie value (RFC 6265 §4.1): HttpOnly, SameSite=Lax, Secure under https. */
export function setCookie(name: string, value: string, maxAge: number, { secure, path }: CookiePolicy): string {
  const attributes = [`${name}=${value}`, `Path=${path}`, `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Lax'];
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}
