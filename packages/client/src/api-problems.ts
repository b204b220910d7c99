import { problemCodeOfType, type ProblemBody } from '@gatehouse/contract';
import { InvalidResponseError, ProblemResponseError, isRecord } from './errors.js';
import { parseRetryAfter } from './retry.js';

/**
 * The error an unsuccessful API answer is: an RFC 9457 problem as ProblemResponseError (with the
 * catalog code when its `type` is a Gatehouse page), anything else as InvalidResponseError.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9457#section-3 RFC 9457 §3
 */
export async function problemErrorOf(response: Response): Promise<ProblemResponseError | InvalidResponseError> {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const isProblem = /^application\/problem\+json\b/i.test(response.headers.get('content-type') ?? '');
  const body: unknown = isProblem ? await response.json().catch(() => undefined) : await response.body?.cancel();
  if (!isRecord(body) || typeof body.type !== 'string' || typeof body.title !== 'string') {
    return new InvalidResponseError(
      `the API answered ${response.status} without a problem body`,
      response.status,
      retryAfter,
    );
  }
  const problem: ProblemBody = {
    type: body.type,
    title: body.title,
    status: typeof body.status === 'number' ? body.status : response.status,
    detail: typeof body.detail === 'string' ? body.detail : body.title,
    ...(typeof body.instance === 'string' ? { instance: body.instance } : {}),
    ...(Array.isArray(body.errors) ? { errors: body.errors as ProblemBody['errors'] } : {}),
  };
  return new ProblemResponseError(response.status, problem, problemCodeOfType(body.type), retryAfter);
}
