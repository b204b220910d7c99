import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { OAUTH_ERRORS, PROBLEMS, ProblemError, type OAuthErrorCode, type ProblemCode } from '@gatehouse/contract';
import {
  DEFAULT_RETRY_POLICY,
  InvalidResponseError,
  OAuthResponseError,
  ProblemResponseError,
  TransportError,
  backoffDelay,
  isTransient,
  parseRetryAfter,
  withRetry,
} from '@gatehouse/client';

describe('backoff and Retry-After', () => {
  test('full jitter: every delay lies in [0, min(cap, base * 2^retry))', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, r) => {
          const delay = backoffDelay(retry, { ...DEFAULT_RETRY_POLICY, random: () => r });
          const ceiling = Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs * 2 ** retry);
          return delay >= 0 && delay < Math.max(ceiling, 1);
        },
      ),
    );
  });

  test('Retry-After is read as delay-seconds or as an HTTP-date (RFC 9110 §10.2.3)', () => {
    const now = Date.parse('Sun, 06 Nov 1994 08:49:37 GMT');
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Sun, 06 Nov 1994 08:50:07 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Sunday, 06-Nov-94 08:50:07 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Sat, 05 Nov 1994 08:49:37 GMT', now), 0, 'a date in the past means now');
    for (const bad of ['', '-1', '1.5', 'soon', '2024-01-01', null, undefined])
      assert.equal(parseRetryAfter(bad, now), undefined, String(bad));
  });

  test('transient: no answer, 5xx, 429, temporarily_unavailable; never invalid_grant, invalid_client or a refused body', () => {
    assert.ok(isTransient(new TransportError('http://x', new Error('ECONNREFUSED'))));
    assert.ok(isTransient(new OAuthResponseError({ error: 'temporarily_unavailable' }, 503)));
    assert.ok(isTransient(new OAuthResponseError({ error: 'slow_down' }, 429)));
    assert.ok(isTransient(new InvalidResponseError('bad gateway', 502)));
    assert.ok(
      isTransient(
        new ProblemResponseError(
          503,
          { type: '/problems/service-unavailable', title: 't', status: 503, detail: 'd' },
          'service_unavailable',
        ),
      ),
    );
    assert.ok(!isTransient(new OAuthResponseError({ error: 'invalid_grant' }, 400)));
    assert.ok(!isTransient(new OAuthResponseError({ error: 'invalid_client' }, 401)));
    assert.ok(
      !isTransient(
        new ProblemResponseError(
          400,
          { type: '/problems/missing-required-field', title: 't', status: 400, detail: 'd' },
          'missing_required_field',
        ),
      ),
    );
    assert.ok(!isTransient(new Error('a bug')));
  });

  test('transient is what the catalog says: every problem and OAuth error is retried exactly when its entry is transient', () => {
    for (const code of Object.keys(PROBLEMS) as ProblemCode[]) {
      const { status, transient } = PROBLEMS[code];
      const problem = new ProblemResponseError(status, new ProblemError(code).toBody('/contacts'), code);
      assert.equal(isTransient(problem), transient, code);
    }
    for (const code of Object.keys(OAUTH_ERRORS) as OAuthErrorCode[]) {
      const { status, transient } = OAUTH_ERRORS[code];
      assert.equal(isTransient(new OAuthResponseError({ error: code }, status)), transient, code);
    }
  });

  test('request_timeout (408) is transient: the server gave up waiting and did nothing', () => {
    const body = new ProblemError('request_timeout').toBody('/contacts');
    assert.ok(isTransient(new ProblemResponseError(408, body, 'request_timeout')));
    assert.ok(isTransient(new InvalidResponseError('408 without a problem body', 408)));
  });

  test('invalid_grant is never retried, whatever the status it comes with', () => {
    for (const status of [400, 401, 429, 500, 503])
      assert.ok(!isTransient(new OAuthResponseError({ error: 'invalid_grant' }, status)), String(status));
  });

  test('withRetry waits what Retry-After asks, else the jittered backoff, and counts attempts', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls === 1) throw new OAuthResponseError({ error: 'temporarily_unavailable' }, 503, 1500);
        if (calls === 2) throw new TransportError('http://x', new Error('reset'));
        return 'ok';
      },
      { ...DEFAULT_RETRY_POLICY, random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
    );
    assert.equal(result, 'ok');
    assert.deepEqual(waits, [1500, 200]);

    const gaveUp = await withRetry(() => Promise.reject(new TransportError('http://x', new Error('refused'))), {
      ...DEFAULT_RETRY_POLICY,
      sleep: async () => undefined,
    }).catch((e: unknown) => e);
    assert.ok(gaveUp instanceof TransportError);
    assert.equal(gaveUp.attempts, DEFAULT_RETRY_POLICY.maxAttempts);
  });

  test('a Retry-After beyond the cap ends the retries at once, and a permanent error is never retried', async () => {
    let calls = 0;
    const tooLong = new OAuthResponseError({ error: 'temporarily_unavailable' }, 503, 3_600_000);
    await assert.rejects(
      withRetry(
        async () => {
          calls++;
          throw tooLong;
        },
        { ...DEFAULT_RETRY_POLICY, sleep: async () => assert.fail('no wait') },
      ),
      tooLong,
    );
    assert.equal(calls, 1);
    calls = 0;
    await assert.rejects(
      withRetry(async () => {
        calls++;
        throw new OAuthResponseError({ error: 'invalid_grant' }, 400);
      }),
      { error: 'invalid_grant' },
    );
    assert.equal(calls, 1);
  });
});
