/**
 * The console's check of the ID token it got from the token endpoint. The token came over TLS
 * straight from the server, so its signature need not be checked (OIDC Core §3.1.3.7 point 6); its
 * issuer, audience, nonce and expiry are (§3.1.3.7 points 2, 3, 9, 11), and the second factor the
 * console requires: `acr` `mfa`, or `amr` naming `mfa` (RFC 8176 §2).
 */
export interface IdTokenClaims {
  readonly sub: string;
  readonly iss: string;
  readonly aud: string | readonly string[];
  readonly exp: number;
  readonly nonce?: string;
  readonly acr?: string;
  readonly amr?: readonly string[];
  readonly auth_time?: number;
  readonly preferred_username?: string;
  readonly name?: string;
}

export type IdTokenVerdict =
  | { readonly ok: true; readonly claims: IdTokenClaims }
  | { readonly ok: false; readonly reason: 'invalid' | 'second-factor' | 'not-fresh' };

export function decodeJwtPayload(jwt: string): Record<string, unknown> | undefined {
  const part = jwt.split('.')[1];
  if (part === undefined) return undefined;
  try {
    const text = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the sign-in counted two factors (RFC 8176 §2; the server's acr values: `sfa`, `mfa`). */
export function isMultiFactor(claims: Pick<IdTokenClaims, 'acr' | 'amr'>): boolean {
  return claims.acr === 'mfa' || (claims.amr ?? []).includes('mfa');
}

export function checkIdToken(
  idToken: string | undefined,
  expected: {
    readonly issuer: string;
    readonly clientId: string;
    readonly nonce: string;
    readonly now: number;
    /** A step-up's `max_age` (OIDC Core §3.1.2.1): the sign-in must be at most this old. */
    readonly maxAge?: number;
  },
): IdTokenVerdict {
  const payload = idToken === undefined ? undefined : decodeJwtPayload(idToken);
  if (payload === undefined) return { ok: false, reason: 'invalid' };
  const claims = payload as unknown as IdTokenClaims;
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
  if (
    claims.iss !== expected.issuer ||
    !audiences.includes(expected.clientId) ||
    claims.nonce !== expected.nonce ||
    typeof claims.exp !== 'number' ||
    claims.exp <= expected.now ||
    typeof claims.sub !== 'string'
  )
    return { ok: false, reason: 'invalid' };
  if (!isMultiFactor(claims)) return { ok: false, reason: 'second-factor' };
  // OIDC Core §3.1.2.1: with max_age the ID token carries auth_time, which must be recent enough.
  if (
    expected.maxAge !== undefined &&
    (typeof claims.auth_time !== 'number' || expected.now - claims.auth_time > expected.maxAge + 30)
  )
    return { ok: false, reason: 'not-fresh' };
  return { ok: true, claims };
}
