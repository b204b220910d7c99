/**
 * Retrying transient failures: exponential backoff with full jitter, `Retry-After` honoured, every
 * wait capped. What is transient is the catalog's to say (`temporarily_unavailable`, `server_error`,
 * `request_timeout`, `service_unavailable`, …); a permanent refusal such as `invalid_grant` never is.
 */
import { OAUTH_ERRORS, PROBLEMS, isOAuthErrorCode } from '@gatehouse/contract';
import { InvalidResponseError, OAuthResponseError, ProblemResponseError, TransportError } from './errors.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** The backoff before the first retry is drawn from [0, baseDelayMs). */
  readonly baseDelayMs: number;
  /** No wait is longer: a Retry-After beyond it ends the retries instead of waiting. */
  readonly maxDelayMs: number;
  /** [0, 1); Math.random by default. */
  readonly random?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 200, maxDelayMs: 30_000 };

/**
 * "Full jitter": a delay drawn uniformly from [0, min(maxDelayMs, baseDelayMs · 2^retry)), so that
 * clients refused together do not come back together.
 */
export function backoffDelay(retry: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor((policy.random ?? Math.random)() * ceiling);
}

/**
 * The wait a `Retry-After` value asks for, in milliseconds: delay-seconds or an HTTP-date.
 * Undefined when absent or unreadable; a date in the past is 0.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3 RFC 9110 §10.2.3
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // IMF-fixdate (and the obsolete forms Date.parse also reads); anything else is ignored.
  if (!/^[A-Za-z]{3},? /.test(trimmed) && !/^[A-Za-z]+day, /.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * Whether a failure may go away by itself: no answer at all, or an error the catalog calls transient.
 * An answer the catalog cannot name (another server's error code, a problem type that is not
 * Gatehouse's, no error body) is judged by its status alone.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof TransportError) return true;
  if (error instanceof OAuthResponseError)
    return isOAuthErrorCode(error.error) ? OAUTH_ERRORS[error.error].transient : isTransientStatus(error.status);
  if (error instanceof ProblemResponseError)
    return error.problemCode === undefined ? isTransientStatus(error.status) : PROBLEMS[error.problemCode].transient;
  if (error instanceof InvalidResponseError) return isTransientStatus(error.status);
  return false;
}

/**
 * 408 (the server gave up waiting for the request, RFC 9110 §15.5.9), 429 (RFC 6585 §4) and any 5xx:
 * the statuses whose answer says to try again later.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.5.9 RFC 9110 §15.5.9
 */
function isTransientStatus(status: number | undefined): boolean {
  return status !== undefined && (status === 408 || status === 429 || status >= 500);
}

function retryAfterOf(error: unknown): number | undefined {
  return error instanceof OAuthResponseError ||
    error instanceof ProblemResponseError ||
    error instanceof InvalidResponseError
    ? error.retryAfterMs
    : undefined;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `operation`, retrying while `shouldRetry` says the failure is transient and attempts remain.
 * The wait is the server's Retry-After when it gave one, else the jittered backoff; a wait longer
 * than `maxDelayMs` is not made and the failure is thrown. A TransportError thrown in the end
 * counts every attempt.
 */
export async function withRetry<T>(
  operation: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  shouldRetry: (error: unknown) => boolean = isTransient,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= policy.maxAttempts || !shouldRetry(error)) throw withAttempts(error, attempt);
      const delay = retryAfterOf(error) ?? backoffDelay(attempt - 1, policy);
      if (delay > policy.maxDelayMs) throw withAttempts(error, attempt);
      await (policy.sleep ?? defaultSleep)(delay);
    }
  }
}

function withAttempts(error: unknown, attempts: number): unknown {
  return error instanceof TransportError && attempts > 1 ? new TransportError(error.url, error.cause, attempts) : error;
}
