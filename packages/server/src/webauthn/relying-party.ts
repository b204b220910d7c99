import { isIP } from 'node:net';

/**
 * The WebAuthn Relying Party this server is (WebAuthn Level 3 §5.1.2, §13.4.9): its RP ID is the
 * issuer's host name and the one origin it accepts is the issuer's origin. Nothing is configured
 * apart: a passkey made for an issuer works for that issuer only, and moving the issuer to another
 * host name orphans every passkey (browsers refuse an RP ID that is not the page's host or a
 * registrable suffix of it, §5.1.4.1 step 8).
 */
export interface RelyingParty {
  /** The RP ID: the issuer's host name, without port. */
  readonly id: string;
  /** Shown by the authenticator when a passkey is made. */
  readonly name: string;
  /** The issuer's origin (scheme, host, port): the only origin in `clientDataJSON` accepted (§7.1 step 9). */
  readonly origin: string;
}

/**
 * The Relying Party of an issuer, or undefined when its host is an IP address: an RP ID is a
 * valid domain string (§5.1.2, HTML "valid domain"), so a server reached by an IP literal offers no
 * passkeys (serve it under a name, `localhost` included, to offer them).
 */
export function relyingPartyOf(issuer: string): RelyingParty | undefined {
  const url = new URL(issuer);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return undefined;
  return { id: host, name: 'Gatehouse', origin: url.origin };
}
