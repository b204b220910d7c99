import { decodeJwt, jwtVerify } from 'jose';
import type { ClientRecord } from '../../primitives/records.js';
import type { Repository } from '../../store/repository.js';
import type { ClientKeys } from '../keys/index.js';
import { clientSigningAlgs, clockSkewOf } from '../sender-constraints/index.js';

/** RFC 7523 §2.2: the `client_assertion_type` of a JWT client assertion. */
export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The longest an assertion may still be valid for: its `jti` is kept that long (seconds). */
export const MAX_ASSERTION_LIFETIME = 600;

/** Leeway for the clocks of client and server, on `exp` and `nbf` (seconds). */
const CLOCK_TOLERANCE = 5;

/** The client a JWT assertion names (its `sub`, RFC 7523 §3 item 2), read without verifying it; undefined if unreadable. */
export function assertedClientId(assertion: string): string | undefined {
  try {
    const { sub } = decodeJwt(assertion);
    return typeof sub === 'string' && sub !== '' ? sub : undefined;
  } catch {
    return undefined;
  }
}

export interface AssertionContext {
  readonly store: Pick<Repository, 'useClientAssertionJti'>;
  readonly clientKeys: ClientKeys;
  /** The issuer identifier; with `endpointUrl`, what `aud` may name. */
  readonly issuer: string;
  /** The token endpoint URL and the URL of the endpoint the assertion was sent to. */
  readonly audiences: readonly string[];
  /** Epoch seconds. */
  readonly now: number;
}

export type AssertionFailure = 'assertion_invalid' | 'assertion_replayed' | 'no_client_keys';

/**
 * Verifies a private_key_jwt client assertion (RFC 7523 §3, OIDC Core §9) for `client`:
 * - signed by one of the client's keys with an asymmetric algorithm (never `none`, never HMAC);
 * - `iss` and `sub` the client_id (§3 items 1, 2);
 * - `aud` the issuer identifier; the token endpoint URL and the URL of the endpoint it was sent to
 *   are accepted too (§3 item 3 allows the token endpoint URL, OIDC Core §9 asks for it, RFC 9126 §2
 *   for the PAR endpoint's);
 * - `exp` required and not past (§3 item 4), at most MAX_ASSERTION_LIFETIME ahead, so the `jti`
 *   store stays bounded; `nbf` honoured (§3 item 5);
 * - `jti` required (OIDC Core §9) and used once (§3 item 7), across every process of the store.
 * Returns null when the assertion authenticates the client, else why not.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-3 RFC 7523 §3
 */
export async function verifyClientAssertion(
  assertion: string,
  client: ClientRecord,
  context: AssertionContext,
): Promise<AssertionFailure | null> {
  const keys = context.clientKeys.keysOf(client);
  if (!keys) return 'no_client_keys';
  // FAPI 2.0 §5.4.1 and §5.3.2.1 for a fapi2 client: PS256, ES256, EdDSA; 10 s of skew.
  const skew = clockSkewOf(client, CLOCK_TOLERANCE);
  let claims: { exp?: number; jti?: string; iat?: number };
  try {
    ({ payload: claims } = await jwtVerify(assertion, keys, {
      algorithms: [...clientSigningAlgs(client)],
      issuer: client.id,
      subject: client.id,
      audience: [context.issuer, ...context.audiences],
      requiredClaims: ['exp', 'jti'],
      currentDate: new Date(context.now * 1000),
      clockTolerance: skew.tolerance,
    }));
  } catch {
    return 'assertion_invalid';
  }
  const { exp, jti, iat } = claims as { exp: number; jti: unknown; iat?: number };
  if (typeof jti !== 'string' || jti === '' || jti.length > 256) return 'assertion_invalid';
  if (exp > context.now + MAX_ASSERTION_LIFETIME) return 'assertion_invalid';
  if (skew.maxFutureIat !== undefined && iat !== undefined && iat > context.now + skew.maxFutureIat)
    return 'assertion_invalid';
  const first = await context.store.useClientAssertionJti(client.id, jti, exp + skew.tolerance, context.now);
  return first ? null : 'assertion_replayed';
}
