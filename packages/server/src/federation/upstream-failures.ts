import * as oidc from 'openid-client';
import { UpstreamRequestRefused, UpstreamUnreachable } from './upstream-fetch.js';

/**
 * The one classifier of what goes wrong in an upstream sign-in, from openid-client v6's errors to
 * the catalog. The line it draws: what anyone can put in a callback URL (an error parameter, a
 * code from another sign-in, a tampered `iss`) is the user's 4xx page; only the upstream itself
 * failing to answer Gatehouse (unreachable, 5xx, an unusable document or answer) is a 503 or 502;
 * and a request Gatehouse itself refused to send is the operator's configuration, never "down".
 *
 * - `upstream_misconfigured` (500): a request Gatehouse refused to send: `UpstreamRequestRefused`
 *   (upstream-fetch.ts), `OAUTH_HTTP_REQUEST_FORBIDDEN`, `OAUTH_REQUEST_PROTOCOL_FORBIDDEN`;
 * - `upstream_unavailable` (503): `UpstreamUnreachable`, `OAUTH_TIMEOUT`, `OAUTH_ABORT`, any 5xx
 *   answer, a `ResponseBodyError` `temporarily_unavailable` or `server_error` (RFC 6749 §5.2);
 * - in the callback, an `AuthorizationResponseError` (RFC 6749 §4.1.2.1): `access_denied` is
 *   `upstream_access_denied` (403), OIDC Core §3.1.2.6's `login_required` and its kin
 *   `upstream_login_required` (401), any other `upstream_sign_in_failed` (400);
 * - at the token endpoint, a `ResponseBodyError` `invalid_grant` or `invalid_request` (RFC 6749
 *   §5.2: the code is another sign-in's, used or expired) is `upstream_code_refused` (400);
 * - `upstream_error` (502): any other `ResponseBodyError` (`invalid_client`, `unauthorized_client`:
 *   the registration there), a `WWWAuthenticateChallengeError` at userinfo, an answer that is not
 *   the protocol's (`OAUTH_RESPONSE_IS_NOT_CONFORM`, `_NOT_JSON`, `OAUTH_PARSE_ERROR`), and
 *   anything refused in the discovery document (another `issuer`, RFC 8414 §3.3);
 * - `upstream_token_invalid` (400): a callback or ID token refused (`OAUTH_INVALID_RESPONSE`: state,
 *   `iss` per RFC 9207 §2.4, a signature; `OAUTH_JWT_*`, `OAUTH_KEY_SELECTION_FAILED`,
 *   `OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED`, `OAUTH_UNSUPPORTED_OPERATION`: OIDC Core §3.1.3.7).
 *
 * Anything else (openid-client's `TypeError`s for arguments, `ERR_*` codes) is a defect of
 * Gatehouse and is thrown on, to the server's own 500.
 */

/** Why an upstream sign-in failed, as the catalog names it. */
export type UpstreamFailureCode =
  | 'upstream_unavailable'
  | 'upstream_misconfigured'
  | 'upstream_access_denied'
  | 'upstream_login_required'
  | 'upstream_sign_in_failed'
  | 'upstream_code_refused'
  | 'upstream_error'
  | 'upstream_token_invalid';

export class UpstreamFailure extends Error {
  readonly code: UpstreamFailureCode;
  /** What the audit trail and the page's detail say: an error code or a check that failed, never a token. */
  readonly reason: string;
  constructor(code: UpstreamFailureCode, reason: string, options?: ErrorOptions) {
    super(`${code}: ${reason}`, options);
    this.name = 'UpstreamFailure';
    this.code = code;
    this.reason = reason;
  }
}

/** Where in the sign-in the error came from: `callback` is the response's checks and the code exchange. */
export type UpstreamStep = 'discovery' | 'callback' | 'userinfo';

/** OIDC Core §3.1.2.6 errors that mean "the upstream would need to show a page". */
const LOGIN_REQUIRED = ['login_required', 'interaction_required', 'consent_required', 'account_selection_required'];
/** RFC 6749 §4.1.2.1, §5.2 errors that say the upstream itself is in trouble. */
const UPSTREAM_TROUBLE = ['temporarily_unavailable', 'server_error'];
/** RFC 6749 §5.2 token endpoint errors about the code the browser brought (another sign-in's, used, expired). */
const CODE_REFUSED = ['invalid_grant', 'invalid_request'];
/** openid-client codes of an answer that is not the protocol's at all. */
const NOT_THE_PROTOCOL = ['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON', 'OAUTH_PARSE_ERROR'];
/** openid-client codes of a response it read and refused: the callback's parameters, the ID token, userinfo. */
const REFUSED = [
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_KEY_SELECTION_FAILED',
  'OAUTH_UNSUPPORTED_OPERATION',
  'OAUTH_JWT_USERINFO_EXPECTED',
];
/** openid-client codes of a request it refused to send (an endpoint that is not http or https). */
const NOT_SENT = ['OAUTH_HTTP_REQUEST_FORBIDDEN', 'OAUTH_REQUEST_PROTOCOL_FORBIDDEN'];

/** The first error of `error`'s cause chain that is a `type`. */
function causeOf<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    if (e instanceof type) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}

/** The answer's status when openid-client refused it for its status (the cause is the Response). */
function refusedStatus(error: unknown): number | undefined {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Response ? cause.status : undefined;
}

function fromAuthorizationError(error: oidc.AuthorizationResponseError): UpstreamFailure {
  const options = { cause: error };
  if (error.error === 'access_denied') return new UpstreamFailure('upstream_access_denied', 'access_denied', options);
  if (LOGIN_REQUIRED.includes(error.error)) return new UpstreamFailure('upstream_login_required', error.error, options);
  return new UpstreamFailure('upstream_sign_in_failed', `the provider answered ${error.error}`, options);
}

function fromResponseBody(error: oidc.ResponseBodyError, step: UpstreamStep): UpstreamFailure {
  const reason = `${step}: ${error.error} (HTTP ${error.status})`;
  if (error.status >= 500 || UPSTREAM_TROUBLE.includes(error.error))
    return new UpstreamFailure('upstream_unavailable', reason, { cause: error });
  if (step === 'callback' && CODE_REFUSED.includes(error.error))
    return new UpstreamFailure('upstream_code_refused', reason, { cause: error });
  return new UpstreamFailure('upstream_error', reason, { cause: error });
}

/** One failure of openid-client (or of the fetch under it) as the catalog's kind; undefined: a defect. */
export function classifyUpstreamError(error: unknown, step: UpstreamStep): UpstreamFailure | undefined {
  if (error instanceof UpstreamFailure) return error;
  const refused = causeOf(error, UpstreamRequestRefused);
  if (refused) return new UpstreamFailure('upstream_misconfigured', refused.message, { cause: error });
  const unreachable = causeOf(error, UpstreamUnreachable);
  if (unreachable) return new UpstreamFailure('upstream_unavailable', `${step}: ${unreachable.message}`);
  if (error instanceof oidc.AuthorizationResponseError) return fromAuthorizationError(error);
  if (error instanceof oidc.ResponseBodyError) return fromResponseBody(error, step);
  if (error instanceof oidc.WWWAuthenticateChallengeError)
    return new UpstreamFailure('upstream_error', `${step}: HTTP ${error.status} challenge`, { cause: error });
  if (!(error instanceof oidc.ClientError) || error.code === undefined) return undefined;
  const reason = `${step}: ${messageOf(error)}`;
  const options = { cause: error };
  if (NOT_SENT.includes(error.code)) return new UpstreamFailure('upstream_misconfigured', reason, options);
  if (error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT' || (refusedStatus(error) ?? 0) >= 500)
    return new UpstreamFailure('upstream_unavailable', reason, options);
  if (step === 'discovery' || NOT_THE_PROTOCOL.includes(error.code))
    return new UpstreamFailure('upstream_error', reason, options);
  if (REFUSED.includes(error.code)) return new UpstreamFailure('upstream_token_invalid', reason, options);
  return undefined;
}
