import assert from 'node:assert/strict';
import { OAUTH_ERRORS, type OAuthErrorCode } from '@gatehouse/contract';

export const ISSUER = 'http://gatehouse.test';

export interface ExpectedOAuthError {
  readonly status?: number;
  readonly error: OAuthErrorCode;
  readonly description?: string;
}

/**
 * Asserts an RFC 6749 §5.2 error answer from the catalog: its status (the catalog's unless given),
 * exactly the keys error, error_description and error_uri, the page of the error under the issuer,
 * and the no-cache headers. Returns the body.
 */
export async function assertOAuthError(
  response: Response,
  expected: ExpectedOAuthError,
): Promise<Record<string, unknown>> {
  const entry = OAUTH_ERRORS[expected.error];
  const text = await response.text();
  assert.equal(response.status, expected.status ?? entry.status, `status of ${text}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.equal(response.headers.get('pragma'), 'no-cache');
  const body = JSON.parse(text) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description', 'error_uri']);
  assert.equal(body.error, expected.error);
  assert.equal(body.error_uri, `${ISSUER}/problems/${entry.page}`);
  assert.equal(typeof body.error_description, 'string');
  if (expected.description !== undefined) assert.equal(body.error_description, expected.description);
  return body;
}

/** Asserts a 200 JSON answer with the no-cache headers and returns its body. */
export async function assertOkJson(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  assert.equal(response.status, 200, `status of ${text}`);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.equal(response.headers.get('pragma'), 'no-cache');
  return JSON.parse(text) as Record<string, unknown>;
}
