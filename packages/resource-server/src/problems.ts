import { BearerChallenge, PROBLEMS, type ProblemBody, type ProblemError } from '@gatehouse/contract';

/** The contract's refusal of a bearer token, with its RFC 6750 §3 challenge; re-exported by the kit. */
export { BearerChallenge };

/** What the kit answers instead of the route: a catalog problem (RFC 9457), ready to send. */
export interface ProblemResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ProblemBody;
}

/**
 * The response for a catalog problem. `type` is absolute (RFC 9457 §3.1.1 allows a relative URI,
 * but relative to this API it would point at a page the API does not serve): the Gatehouse
 * server's own `/problems/{slug}` page, or `problemBaseUrl` when given.
 */
export function problemResponse(error: ProblemError, instance: string, problemBaseUrl: string): ProblemResponse {
  const body = { ...error.toBody(instance), type: `${problemBaseUrl}/${PROBLEMS[error.code].slug}` };
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (error instanceof BearerChallenge) {
    headers['www-authenticate'] = error.challenge;
    // RFC 9449 §9: a use_dpop_nonce refusal carries the nonce to use.
    if (error.nonce !== undefined) headers['dpop-nonce'] = error.nonce;
  }
  return { status: error.status, headers, body };
}
