import { compactVerify } from 'jose';
import type { KeyRing } from '../keys/index.js';

/** What an ID token this server issued says about whom it was for. */
export interface IdTokenHint {
  readonly sub: string;
  readonly aud: string;
}

/**
 * Reads an `id_token_hint` (OIDC Core §3.1.2.1, RP-Initiated Logout 1.0 §2): an ID token this
 * server signed, for this issuer. Its expiry does not matter (the hint is usually an old token);
 * its signature and issuer do. Undefined when it is not one.
 */
export async function readIdTokenHint(token: string, keys: KeyRing, issuer: string): Promise<IdTokenHint | undefined> {
  try {
    const { payload, protectedHeader } = await compactVerify(token, keys.verificationKey, {
      algorithms: ['RS256', 'ES256'],
    });
    // An access token (at+jwt) is signed by the same keys: it is no ID token.
    if (protectedHeader.typ === 'at+jwt') return undefined;
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    const aud: unknown = Array.isArray(claims.aud) ? (claims.aud as unknown[])[0] : claims.aud;
    if (claims.iss !== issuer || typeof claims.sub !== 'string' || typeof aud !== 'string') return undefined;
    return { sub: claims.sub, aud };
  } catch {
    return undefined;
  }
}
