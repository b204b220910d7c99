import { bearerTokenOf } from './authorization-header.js';
import { bearerChallenge, dpopChallenge, type ChallengeParameters } from './challenge.js';
import type { AccessTokenClaims } from './claims.js';
import { DpopNonceRequired, dpopTokenOf, InvalidDpopProof, type DpopExpectations } from './dpop.js';
import { BearerChallenge, InvalidAccessToken } from './refusals.js';
import { challengeScope, hasRequiredScope, insufficientScopeDetail, type RequiredScopes } from './scope.js';

/**
 * How the verifier reads a request of the caller's framework, given once so that no request is
 * copied: everything a proof-of-possession check (RFC 9449 §4.3: `htm`, `htu`, the `DPoP` header)
 * will compare, next to the `Authorization` header read today.
 */
export interface RequestReader<R> {
  readonly method: (request: R) => string;
  /** A header's value by its lower-case name; undefined when absent. */
  readonly header: (request: R, name: string) => string | undefined;
  /** The absolute URL of the request, built only when a check reads it. */
  readonly absoluteUrl: (request: R) => string;
}

/**
 * Whether a verified token is still live (its grant not revoked, its client not removed): `read`
 * fetches its state (a store read, an introspection), `judge` refuses a dead one by throwing
 * InvalidAccessToken. Two steps, so that waiting for the state costs the request one promise.
 * `judge` may return the claims as the state corrects them (the server: a token minted before its
 * grant named the user by the opaque subject carries the grant's subject as `sub`); nothing keeps them.
 */
export interface Liveness<C extends AccessTokenClaims, S> {
  readonly read: (token: string, claims: C) => S | Promise<S>;
  readonly judge: (state: S, claims: C) => C | void;
}

export interface AccessTokenVerifierOptions<R, C extends AccessTokenClaims, S = unknown> {
  readonly challenge: ChallengeParameters;
  readonly request: RequestReader<R>;
  /**
   * RFC 9068 §4: the claims of a token whose signature, `typ`, `alg`, `iss`, `aud` and lifetime
   * verify, at once when nothing has to wait. Refuses by throwing (or rejecting with)
   * InvalidAccessToken; any other error is passed on as it is (an unreachable key set, say).
   */
  readonly verify: (token: string) => C | Promise<C>;
  /** The claims of a token verified before and still valid, else undefined: the cheap first look. */
  readonly known?: (token: string) => C | undefined;
  readonly liveness?: Liveness<C, S>;
  /** Accept `Authorization: DPoP` with a proof (RFC 9449 §7); absent: bearer tokens only. */
  readonly dpop?: DpopStep;
}

/**
 * The resource's DPoP step: `algorithms` for its challenges, and `check`, which verifies the proof
 * against the request (RFC 9449 §4.3 and §7.1, through the contract's `checkDpopProof`), its nonce
 * and the replay of its `jti`, refusing with InvalidDpopProof or DpopNonceRequired.
 */
export interface DpopStep {
  readonly algorithms: readonly string[];
  /** Throws (or rejects with) the refusal; returns at once when nothing has to wait. */
  readonly check: (proof: string | undefined, expected: Omit<DpopExpectations, 'now'>) => void | Promise<void>;
}

export interface AccessTokenVerifier<R, C extends AccessTokenClaims> {
  /**
   * The claims of the request's RFC 6750 §2.1 bearer token, once verified, live and holding one of
   * the `required` alternatives. A refusal is a BearerChallenge, thrown when known at once; a
   * promise only when a step has to wait.
   */
  (request: R, required: RequiredScopes): C | Promise<C>;
  /** The same checks for a token the request carries elsewhere (a form body, RFC 6750 §2.2). */
  readonly token: (token: string, request: R, required: RequiredScopes) => C | Promise<C>;
}

const NO_TOKEN = 'The request carries no bearer access token.';
const NOT_BEARER = 'The Authorization header is not a bearer access token.';
const BOUND_AS_BEARER = 'The access token is DPoP-bound: send it as Authorization: DPoP with a proof.';
const NOT_BOUND = 'The access token is not DPoP-bound: send it as Authorization: Bearer.';
const PREFIX = 'Bearer ';
const DPOP_PREFIX = 'DPoP ';

/**
 * The one access-token check of Gatehouse: the server's `/v2`, `/admin/v1` and `/userinfo` and the
 * resource-server kit call it, each injecting its signature step (local keys, or a JWKS) and its
 * liveness step. Steps: the header (RFC 6750 §2.1), the token (RFC 9068 §4), its liveness, the scope
 * (RFC 6750 §3.1); the refusals are RFC 6750 §3 challenges.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3 RFC 6750 §3
 * @see https://www.rfc-editor.org/rfc/rfc9068#section-4 RFC 9068 §4
 */
export function accessTokenVerifier<R, C extends AccessTokenClaims, S = unknown>(
  options: AccessTokenVerifierOptions<R, C, S>,
): AccessTokenVerifier<R, C> {
  const { verify, known, liveness, request: reader, dpop } = options;
  // RFC 6750 §3.1: a request without credentials gets a challenge without an error code.
  const bare = bearerChallenge(options.challenge);
  const invalid = bearerChallenge(options.challenge, { error: 'invalid_token' });
  const invalidToken = (detail: string, refusal?: InvalidAccessToken) =>
    new BearerChallenge('invalid_token', detail, invalid, refusal);
  const refused = (error: unknown): never => {
    throw error instanceof InvalidAccessToken ? invalidToken(error.message, error) : error;
  };

  function checkRequest(request: R, required: RequiredScopes): C | Promise<C> {
    const authorization = reader.header(request, 'authorization');
    if (!authorization) throw new BearerChallenge('invalid_token', NO_TOKEN, bare);
    // The usual request, `Bearer <a token verified before>`, found without parsing the header: only a
    // token exactly as verified is known, so this skips no check.
    if (known !== undefined && authorization.startsWith(PREFIX)) {
      const presented = authorization.slice(PREFIX.length);
      const claims = known(presented);
      if (claims !== undefined) return bearerLiveInScope(presented, claims, required);
    }
    // The same for `DPoP <a token verified before>` (RFC 9449 §7.1): its proof is still checked in full.
    if (known !== undefined && dpop !== undefined && authorization.startsWith(DPOP_PREFIX)) {
      const presented = authorization.slice(DPOP_PREFIX.length);
      const claims = known(presented);
      if (claims !== undefined) return proven(presented, claims, request, required);
    }
    const token = bearerTokenOf(authorization);
    if (token !== undefined) return checkToken(token, request, required);
    const bound = dpop === undefined ? undefined : dpopTokenOf(authorization);
    if (bound === undefined) throw invalidToken(NOT_BEARER);
    return checkDpopToken(bound, request, required);
  }

  function checkToken(token: string, _request: R, required: RequiredScopes): C | Promise<C> {
    let claims: C | Promise<C>;
    try {
      claims = verify(token);
    } catch (error) {
      return refused(error);
    }
    return claims instanceof Promise
      ? claims.then((verified) => bearerLiveInScope(token, verified, required), refused)
      : bearerLiveInScope(token, claims, required);
  }

  // RFC 9449 §7.1: a DPoP-bound token, with a proof of the key it is bound to for this request.
  // Synchronous when the token was verified before and the proof's check needs no wait (the usual
  // request at a resource): no promise, no microtask. A refusal is thrown, or rejected when a step waited.
  function checkDpopToken(token: string, request: R, required: RequiredScopes): C | Promise<C> {
    let claims: C | Promise<C>;
    try {
      claims = verify(token);
    } catch (error) {
      return dpopRefused(error);
    }
    return claims instanceof Promise
      ? claims.then((verified) => proven(token, verified, request, required), dpopRefused)
      : proven(token, claims, request, required);
  }

  /** The token's refusal with the DPoP challenge (RFC 9449 §7.1); any other error as it is. */
  function dpopRefused(error: unknown): never {
    throw error instanceof InvalidAccessToken ? dpopInvalid(error.message, error) : error;
  }

  function dpopInvalid(detail: string, refusal?: InvalidAccessToken): BearerChallenge {
    return new BearerChallenge(
      'invalid_token',
      detail,
      dpopChallenge(options.challenge, (dpop as DpopStep).algorithms, { error: 'invalid_token' }),
      refusal,
    );
  }

  /** §7.1: the token is bound (`cnf.jkt`) and the request's proof is signed by that key; then its liveness and scope. */
  function proven(token: string, claims: C, request: R, required: RequiredScopes): C | Promise<C> {
    const step = dpop as DpopStep;
    const jkt = claims.cnf?.jkt;
    if (jkt === undefined) throw dpopInvalid(NOT_BOUND);
    let checked: void | Promise<void>;
    try {
      checked = step.check(reader.header(request, 'dpop'), {
        method: reader.method(request),
        url: reader.absoluteUrl(request),
        accessToken: token,
        jkt,
      });
    } catch (error) {
      throw proofRefusal(error, step.algorithms);
    }
    return checked instanceof Promise
      ? checked.then(
          () => live(token, claims, required),
          (error: unknown) => {
            throw proofRefusal(error, step.algorithms);
          },
        )
      : live(token, claims, required);
  }

  /** §7.1 `invalid_dpop_proof`, §9 `use_dpop_nonce` (with the nonce for the DPoP-Nonce header). */
  function proofRefusal(error: unknown, algorithms: readonly string[]): unknown {
    if (error instanceof DpopNonceRequired)
      return new BearerChallenge(
        'use_dpop_nonce',
        error.message,
        dpopChallenge(options.challenge, algorithms, { error: 'use_dpop_nonce', errorDescription: error.message }),
        undefined,
        error.nonce,
      );
    if (error instanceof InvalidDpopProof)
      return new BearerChallenge(
        'invalid_dpop_proof',
        error.message,
        dpopChallenge(options.challenge, algorithms, { error: 'invalid_dpop_proof', errorDescription: error.message }),
      );
    return error;
  }

  /** RFC 9449 §7.2: a DPoP-bound token presented as a bearer token is refused. */
  function notBoundOrRefused(claims: C): void {
    if (claims.cnf?.jkt === undefined) return;
    throw new BearerChallenge(
      'invalid_token',
      BOUND_AS_BEARER,
      dpopChallenge(options.challenge, dpop?.algorithms ?? [], { error: 'invalid_token' }),
    );
  }

  function bearerLiveInScope(token: string, claims: C, required: RequiredScopes): C | Promise<C> {
    notBoundOrRefused(claims);
    return live(token, claims, required);
  }

  function live(token: string, claims: C, required: RequiredScopes): C | Promise<C> {
    if (liveness === undefined) return inScope(claims, required);
    let state: S | Promise<S>;
    try {
      state = liveness.read(token, claims);
    } catch (error) {
      return refused(error);
    }
    return state instanceof Promise
      ? state.then((read) => judged(read, claims, required), refused)
      : judged(state, claims, required);
  }

  function judged(state: S, claims: C, required: RequiredScopes): C {
    let live: C | void;
    try {
      live = liveness?.judge(state, claims);
    } catch (error) {
      return refused(error);
    }
    return inScope(live ?? claims, required);
  }

  function inScope(claims: C, required: RequiredScopes): C {
    if (hasRequiredScope(claims, required)) return claims;
    // RFC 6750 §3: the challenge names the scope to ask for, the first alternative.
    const scope = challengeScope(required);
    throw new BearerChallenge(
      'insufficient_scope',
      insufficientScopeDetail(required),
      bearerChallenge(options.challenge, { error: 'insufficient_scope', scope }),
    );
  }

  return Object.assign(checkRequest, { token: checkToken });
}
