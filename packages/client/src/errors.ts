/**
 * The SDK's errors, by class. Each has a stable `code`. Two families, as in oauth4webapi:
 * - the server said no: {@link OAuthResponseError}, {@link ProblemResponseError};
 * - we refused or could not go on locally: {@link LocalValidationError},
 *   {@link AuthorizationCallbackError}, {@link InvalidResponseError}, {@link TransportError}.
 * And two that tell the application what to do next: {@link ReauthenticationRequired} (send the
 * user through the authorization flow again) and {@link ClientConfigurationError} (fix the client's
 * registration or credentials; the tokens were kept).
 */
import type {
  FieldProblem,
  IntrospectionResponse,
  OAuthErrorBody,
  ProblemBody,
  ProblemCode,
  ProblemFieldError,
} from '@gatehouse/contract';

export const CLIENT_ERROR_CODES = [
  'ERR_OAUTH_RESPONSE',
  'ERR_PROBLEM_RESPONSE',
  'ERR_INVALID_RESPONSE',
  'ERR_TRANSPORT',
  'ERR_REAUTHENTICATION_REQUIRED',
  'ERR_CLIENT_CONFIGURATION',
  'ERR_LOCAL_VALIDATION',
  'ERR_AUTHORIZATION_CALLBACK',
  'ERR_TOKEN_STORE',
] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** The base of every error this SDK throws. */
export class GatehouseClientError extends Error {
  readonly code: ClientErrorCode;
  constructor(code: ClientErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * The authorization server refused: an RFC 6749 §5.2 error body, or an error delivered to the
 * redirect URI (RFC 6749 §4.1.2.1), which has no HTTP status.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2 RFC 6749 §5.2
 */
export class OAuthResponseError extends GatehouseClientError {
  readonly error: string;
  readonly error_description: string | undefined;
  readonly error_uri: string | undefined;
  /** The HTTP status; undefined for an error delivered to the redirect URI. */
  readonly status: number | undefined;
  /** How long the server asked us to wait (Retry-After), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(body: OAuthErrorBody, status?: number, retryAfterMs?: number) {
    super(
      'ERR_OAUTH_RESPONSE',
      body.error_description === undefined ? body.error : `${body.error}: ${body.error_description}`,
    );
    this.error = body.error;
    this.error_description = body.error_description;
    this.error_uri = body.error_uri;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }

  /** Reads an error response of the token, introspection or revocation endpoint. */
  static async fromResponse(
    response: Response,
    retryAfterMs?: number,
  ): Promise<OAuthResponseError | InvalidResponseError> {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const fields = isRecord(body) ? body : {};
    const { error, error_description: description, error_uri: uri } = fields;
    if (typeof error !== 'string' || error === '') {
      return new InvalidResponseError(
        `HTTP ${response.status} without an OAuth 2.0 error body`,
        response.status,
        retryAfterMs,
      );
    }
    return new OAuthResponseError(
      {
        error,
        error_description: typeof description === 'string' ? description : undefined,
        error_uri: typeof uri === 'string' ? uri : undefined,
      },
      response.status,
      retryAfterMs,
    );
  }
}

/**
 * The REST API refused with an RFC 9457 problem. `problemCode` is the catalog's code when the
 * `type` is one of Gatehouse's pages.
 */
export class ProblemResponseError extends GatehouseClientError {
  readonly status: number;
  readonly problem: ProblemBody;
  readonly problemCode: ProblemCode | undefined;
  readonly retryAfterMs: number | undefined;
  constructor(status: number, problem: ProblemBody, problemCode: ProblemCode | undefined, retryAfterMs?: number) {
    super('ERR_PROBLEM_RESPONSE', problem.detail);
    this.status = status;
    this.problem = problem;
    this.problemCode = problemCode;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The server answered something that is not the protocol: wrong status, not JSON, missing members. */
export class InvalidResponseError extends GatehouseClientError {
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  constructor(message: string, status?: number, retryAfterMs?: number) {
    super('ERR_INVALID_RESPONSE', message);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/** No answer at all (connection refused, reset, DNS, timeout), after every retry. */
export class TransportError extends GatehouseClientError {
  readonly url: string;
  readonly attempts: number;
  constructor(url: string, cause: unknown, attempts = 1) {
    const reason =
      cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
    super('ERR_TRANSPORT', `could not reach ${url} (${attempts} attempt${attempts === 1 ? '' : 's'}): ${reason}`, {
      cause,
    });
    this.url = url;
    this.attempts = attempts;
  }
}

/**
 * The grant is gone (`invalid_grant`, or no refresh token was ever stored): retrying cannot help.
 * The stored tokens were discarded; send the user to `authorizationUrl`, then hand the callback URL
 * to `TokenManager.completeAuthorization`. The PKCE verifier and `state` are in the token store.
 */
export class ReauthenticationRequired extends GatehouseClientError {
  /**
   * Where to send the user to sign in again (the authorization code flow, PKCE and `state` ready);
   * undefined for a manager without a `redirectUri` (device flow, refresh-only): start its own flow again.
   */
  readonly authorizationUrl: string | undefined;
  readonly state: string | undefined;
  /** The refusal of the refresh token; undefined when there was no refresh token to try. */
  readonly refusal: OAuthResponseError | undefined;
  /** The introspection of the refused token, when the manager was asked to introspect. */
  readonly introspection: IntrospectionResponse | undefined;
  /** True when introspection confirmed the token is no longer active; undefined when not asked. */
  readonly revocationConfirmed: boolean | undefined;

  constructor(
    start: { readonly authorizationUrl: string; readonly state: string } | undefined,
    refusal?: OAuthResponseError,
    introspection?: IntrospectionResponse,
  ) {
    const why =
      refusal === undefined ? 'no refresh token is stored' : `the refresh token was refused (${refusal.message})`;
    const next = start === undefined ? 'sign in again' : 'send the user to the authorization URL';
    super('ERR_REAUTHENTICATION_REQUIRED', `re-authentication required: ${why}; ${next}`, { cause: refusal });
    this.authorizationUrl = start?.authorizationUrl;
    this.state = start?.state;
    this.refusal = refusal;
    this.introspection = introspection;
    this.revocationConfirmed = introspection === undefined ? undefined : introspection.active === false;
  }
}

/**
 * The client's setup is wrong, not the user's grant: the server answered `invalid_client` or
 * `unauthorized_client` (`refusal`), or the manager was asked for a flow it is not configured for
 * (no `redirectUri` for the authorization code flow, no `clientSecret` for client credentials, a
 * server without a device authorization endpoint; `refusal` undefined). The stored tokens are kept.
 */
export class ClientConfigurationError extends GatehouseClientError {
  /** The server's refusal; undefined when the SDK refused locally. */
  readonly refusal: OAuthResponseError | undefined;
  constructor(refusal: OAuthResponseError | string) {
    super(
      'ERR_CLIENT_CONFIGURATION',
      typeof refusal === 'string'
        ? `client configuration error: ${refusal}`
        : `client configuration error (${refusal.message}): check the client id, secret, ` +
            'authentication method and registered grant types; the stored tokens were kept',
      typeof refusal === 'string' ? undefined : { cause: refusal },
    );
    this.refusal = typeof refusal === 'string' ? undefined : refusal;
  }
}

/**
 * A request body the server would refuse, refused before sending: the same catalog code, status
 * and messages the server would have answered (`Missing required field '<field_name>' in request body`).
 */
export class LocalValidationError extends GatehouseClientError {
  readonly problemCode: 'missing_required_field' | 'invalid_field_value' | 'malformed_json';
  /** The status the server would have answered. */
  readonly status: 400 | 422;
  readonly detail: string;
  readonly errors: readonly ProblemFieldError[];

  /** `malformed`: the body itself is refused (nested too deep); `detail` is then the first field's message. */
  constructor(
    kind: 'missing' | 'invalid' | 'malformed',
    fields: readonly FieldProblem[],
    alsoInvalid: readonly FieldProblem[] = [],
  ) {
    const first = fields[0]?.message ?? 'Request body is invalid';
    const detail =
      kind !== 'invalid' || fields.length === 1
        ? first
        : `${fields.length} fields have unacceptable values; see errors.`;
    super('ERR_LOCAL_VALIDATION', detail);
    this.problemCode =
      kind === 'missing' ? 'missing_required_field' : kind === 'invalid' ? 'invalid_field_value' : 'malformed_json';
    this.status = kind === 'invalid' ? 422 : 400;
    this.detail = detail;
    const code: ProblemCode = kind === 'missing' ? 'missing_required_field' : 'invalid_field_value';
    // A malformed body has no field errors, as the server's malformed-json problem has none.
    this.errors =
      kind === 'malformed'
        ? []
        : [
            ...fields.map((f) => ({ code, field: f.field, pointer: f.pointer, detail: f.message })),
            ...alsoInvalid.map((f) => ({
              code: 'invalid_field_value' as const,
              field: f.field,
              pointer: f.pointer,
              detail: f.message,
            })),
          ];
  }
}

export type CallbackProblem = 'unknown_state' | 'missing_code' | 'issuer_mismatch';

/** A redirect to the callback that this client must not accept (RFC 6749 §10.12, RFC 9207 §2.4). */
export class AuthorizationCallbackError extends GatehouseClientError {
  readonly reason: CallbackProblem;
  constructor(reason: CallbackProblem, message: string) {
    super('ERR_AUTHORIZATION_CALLBACK', message);
    this.reason = reason;
  }
}

/** A token store that cannot be read or written: a missing or wrong key, a damaged file, loose permissions, a lock not obtained in time. */
export class TokenStoreError extends GatehouseClientError {
  constructor(message: string, options?: ErrorOptions) {
    super('ERR_TOKEN_STORE', message, options);
  }
}

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
