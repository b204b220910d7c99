import { ProblemError } from '../errors/problem-error.js';

/**
 * Thrown by a verifier's injected steps (the signature and claims check, the liveness check) to
 * refuse a token; the verifier answers it with 401 invalid_token and this message as the detail.
 */
export class InvalidAccessToken extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'InvalidAccessToken';
  }
}

/** A refusal of the bearer token, with the RFC 6750 §3 challenge to send in `WWW-Authenticate`. */
export class BearerChallenge extends ProblemError {
  readonly challenge: string;
  /** The injected step's refusal this answers, when one refused the token. */
  readonly refusal: InvalidAccessToken | undefined;

  /** RFC 9449 §9: the nonce to send in the `DPoP-Nonce` header with a `use_dpop_nonce` refusal. */
  readonly nonce: string | undefined;

  constructor(
    problem: 'invalid_token' | 'insufficient_scope' | 'invalid_dpop_proof' | 'use_dpop_nonce' | 'step_up_required',
    detail: string,
    challenge: string,
    refusal?: InvalidAccessToken,
    nonce?: string,
  ) {
    super(problem, detail);
    this.name = 'BearerChallenge';
    this.challenge = challenge;
    this.refusal = refusal;
    this.nonce = nonce;
  }
}
