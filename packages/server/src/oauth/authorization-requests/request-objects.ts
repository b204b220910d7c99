import { jwtVerify } from 'jose';
import type { ClientRecord } from '../../primitives/records.js';
import type { ClientKeys } from '../keys/index.js';
import { clientSigningAlgs, clockSkewOf } from '../sender-constraints/index.js';

/** Leeway for the clocks of client and server, on `exp` and `nbf` (seconds). */
const CLOCK_TOLERANCE = 5;

/** The claims of a request object that are about the JWT itself, not parameters of the request. */
const JWT_CLAIMS = new Set(['iss', 'aud', 'exp', 'nbf', 'iat', 'jti', 'sub']);

export interface RequestObjectContext {
  readonly clientKeys: ClientKeys;
  readonly issuer: string;
  /** Epoch seconds. */
  readonly now: number;
}

/**
 * The authorization request a request object carries (RFC 9101), as a query string, or why it is
 * refused: `no_keys` when the client registered none, `invalid` otherwise. The object must be signed
 * by one of the client's keys with an asymmetric algorithm (§6.2; never `none`, never HMAC), its
 * `iss` be the client_id and its `aud` the issuer (§4, §6.3 via RFC 7519 §4.1.1/§4.1.3), its `exp`
 * present and not past, its `nbf` not ahead; a `client_id` in it must be the client's (§5).
 * Only the object's parameters make the request (§6.3): nothing outside it is read but `client_id`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9101#section-6.3 RFC 9101 §6.3
 */
export async function requestObjectParameters(
  jwt: string,
  client: ClientRecord,
  context: RequestObjectContext,
): Promise<{ readonly query: string } | 'no_keys' | 'invalid'> {
  const keys = context.clientKeys.keysOf(client);
  if (!keys) return 'no_keys';
  // FAPI 2.0 §5.4.1 and §5.3.2.1 for a fapi2 client: PS256, ES256, EdDSA; 10 s of skew.
  const skew = clockSkewOf(client, CLOCK_TOLERANCE);
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(jwt, keys, {
      algorithms: [...clientSigningAlgs(client)],
      issuer: client.id,
      audience: context.issuer,
      requiredClaims: ['exp'],
      currentDate: new Date(context.now * 1000),
      clockTolerance: skew.tolerance,
    }));
  } catch {
    return 'invalid';
  }
  const iat = claims['iat'];
  if (skew.maxFutureIat !== undefined && typeof iat === 'number' && iat > context.now + skew.maxFutureIat)
    return 'invalid';
  if (claims['client_id'] !== undefined && claims['client_id'] !== client.id) return 'invalid';
  const query = new URLSearchParams({ client_id: client.id });
  for (const [name, value] of Object.entries(claims)) {
    if (JWT_CLAIMS.has(name) || name === 'client_id') continue;
    // A request object holding another one (or a request_uri) would be a second request (RFC 9101 §4).
    if (name === 'request' || name === 'request_uri') return 'invalid';
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) query.append(name, parameterText(item));
  }
  return { query: query.toString() };
}

/** A claim as the parameter it stands for: strings as they are, numbers as digits, objects as JSON. */
function parameterText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
