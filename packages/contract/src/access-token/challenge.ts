/** What a resource server names in its challenges, whatever the refusal. */
export interface ChallengeParameters {
  /** RFC 6750 §3 `realm`. */
  readonly realm: string;
  /**
   * The URL of the resource's protected resource metadata (RFC 9728 §5.1), from which a client
   * that has no token yet discovers the authorization server.
   */
  readonly resourceMetadata?: string;
}

/** The error attributes of one refusal (RFC 6750 §3.1). */
export interface ChallengeError {
  readonly error:
    | 'invalid_request'
    | 'invalid_token'
    | 'insufficient_scope'
    | 'invalid_dpop_proof'
    | 'use_dpop_nonce'
    | 'insufficient_user_authentication';
  readonly errorDescription?: string;
  /** The scope the request needs, space-delimited (RFC 6750 §3). */
  readonly scope?: string;
  /** RFC 9470 §3: how recent, in seconds, the user's sign-in must be (with `insufficient_user_authentication`). */
  readonly maxAge?: number;
}

/**
 * An RFC 9110 §5.6.4 quoted-string: `"` and `\` escaped as quoted-pairs. RFC 6750 §3 limits its
 * values to printable ASCII without those two; a value that has them is still a well-formed header.
 */
export function quotedString(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * The `WWW-Authenticate` value of a bearer challenge: `realm`, then `resource_metadata`, then the
 * error attributes. A request without any credentials gets no error attributes (RFC 6750 §3.1).
 * A step-up refusal adds `max_age` (RFC 9470 §3).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3 RFC 6750 §3
 * @see https://www.rfc-editor.org/rfc/rfc9728#section-5.1 RFC 9728 §5.1
 * @see https://www.rfc-editor.org/rfc/rfc9470#section-3 RFC 9470 §3
 */
export function bearerChallenge(parameters: ChallengeParameters, refusal?: ChallengeError): string {
  let challenge = `Bearer realm=${quotedString(parameters.realm)}`;
  if (parameters.resourceMetadata !== undefined)
    challenge += `, resource_metadata=${quotedString(parameters.resourceMetadata)}`;
  if (refusal === undefined) return challenge;
  challenge += `, error=${quotedString(refusal.error)}`;
  if (refusal.errorDescription !== undefined)
    challenge += `, error_description=${quotedString(refusal.errorDescription)}`;
  if (refusal.scope !== undefined) challenge += `, scope=${quotedString(refusal.scope)}`;
  if (refusal.maxAge !== undefined) challenge += `, max_age=${quotedString(String(refusal.maxAge))}`;
  return challenge;
}

/**
 * The `WWW-Authenticate` value of a DPoP challenge (RFC 9449 §7.1): `realm`, `algs` (the proof
 * algorithms accepted, space-delimited), then the error attributes as in a bearer challenge;
 * `invalid_dpop_proof` and `use_dpop_nonce` are its own errors (§7.1, §9).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9449#section-7.1 RFC 9449 §7.1
 */
export function dpopChallenge(
  parameters: ChallengeParameters,
  algorithms: readonly string[],
  refusal?: ChallengeError,
): string {
  const bearer = bearerChallenge(parameters, refusal);
  const attributes = bearer.slice('Bearer '.length);
  const [realm, ...rest] = attributes.split(', ');
  return ['DPoP ' + realm, `algs=${quotedString(algorithms.join(' '))}`, ...rest].join(', ');
}
