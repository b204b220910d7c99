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

  constructor(
    problem: 'invalid_token' | 'insufficient_scope',
    detail: string,
    challenge: string,
    refusal?: InvalidAccessToken,
  ) {
    super(problem, detail);
    this.name = 'BearerChallenge';
    this.challenge = challenge;
    this.refusal = refusal;
  }
}
