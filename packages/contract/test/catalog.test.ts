import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ERRORS_DOC_PATH, renderErrorsDoc } from '../scripts/errors-doc.js';
import {
  OAUTH_ERRORS,
  OAUTH_REASONS,
  OAuthError,
  PROBLEMS,
  ProblemError,
  describeOAuthReason,
  isOAuthErrorCode,
  missingFieldMessage,
  problemCodeOfType,
  statusOfOAuthReason,
  type OAuthErrorReason,
  type ProblemCode,
} from '../src/index.js';

const reasons = Object.keys(OAUTH_REASONS) as OAuthErrorReason[];

describe('the error catalog', () => {
  it('docs/errors.md is the rendering of the catalog (run npm run docs:errors after changing it)', () => {
    assert.equal(readFileSync(ERRORS_DOC_PATH, 'utf8'), renderErrorsDoc());
  });

  it('every OAuth reason names a catalog error and yields a printable-ASCII description (RFC 6749 §5.2)', () => {
    for (const reason of reasons) {
      assert.ok(OAUTH_ERRORS[OAUTH_REASONS[reason].error], reason);
      assert.match(describeOAuthReason(reason, 'grant_type'), /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/, reason);
    }
  });

  it('descriptions are unique, so each cause is recognisable on the wire', () => {
    const descriptions = reasons.map((r) => OAUTH_REASONS[r].description);
    assert.equal(new Set(descriptions).size, descriptions.length);
  });

  it('invalid_grant has one stable description per refused state', () => {
    assert.equal(OAUTH_REASONS.refresh_token_expired.description, 'refresh token has expired');
    assert.equal(OAUTH_REASONS.refresh_token_revoked.description, 'refresh token has been revoked');
    assert.equal(
      OAUTH_REASONS.refresh_token_past_rotation_limit.description,
      'refresh token is past its rotation limit',
    );
    assert.equal(OAUTH_REASONS.refresh_token_client_mismatch.description, 'refresh token was issued to another client');
    assert.equal(OAUTH_REASONS.refresh_token_invalid.description, 'refresh token is invalid');
  });

  it('invalid_client is 401, invalid_grant is 400 and not transient, a body over the limit is 413', () => {
    assert.equal(statusOfOAuthReason('client_authentication_failed'), 401);
    assert.equal(statusOfOAuthReason('refresh_token_revoked'), 400);
    assert.equal(OAUTH_ERRORS.invalid_grant.transient, false);
    assert.equal(statusOfOAuthReason('body_too_large'), 413);
  });

  it("an OAuthError becomes the RFC 6749 §5.2 body with error_uri on the server's own page", () => {
    const error = new OAuthError('parameter_missing', 'grant_type');
    assert.deepEqual(error.toBody('https://auth.example'), {
      error: 'invalid_request',
      error_description: "missing required parameter 'grant_type'",
      error_uri: 'https://auth.example/problems/invalid-request',
    });
    assert.equal(error.status, 400);
  });

  it("the missing-field message is word for word the contract's", () => {
    assert.equal(missingFieldMessage('email'), "Missing required field 'email' in request body");
    assert.equal(PROBLEMS.missing_required_field.status, 400);
    assert.notEqual(PROBLEMS.invalid_field_value.status, 400);
  });

  it('a problem type read from the wire names its catalog code, relative or absolute; any other type names none', () => {
    for (const code of Object.keys(PROBLEMS) as ProblemCode[]) {
      const { type } = new ProblemError(code).toBody('/');
      assert.equal(problemCodeOfType(type), code);
      assert.equal(problemCodeOfType(`https://auth.example${type}`), code);
    }
    for (const type of ['about:blank', '/problems/no-such-page', '/problems/', 'missing-required-field'])
      assert.equal(problemCodeOfType(type), undefined, type);
  });

  it("an OAuth error read from the wire is a catalog code only if it is one of the catalog's own", () => {
    for (const code of Object.keys(OAUTH_ERRORS)) assert.ok(isOAuthErrorCode(code), code);
    for (const other of ['mfa_required', 'toString', '__proto__', 'constructor', ''])
      assert.ok(!isOAuthErrorCode(other), other);
  });

  it('every page slug is unique across OAuth errors and problems', () => {
    const slugs = [...Object.values(OAUTH_ERRORS).map((e) => e.page), ...Object.values(PROBLEMS).map((p) => p.slug)];
    assert.equal(new Set(slugs).size, slugs.length);
  });
});

describe('a problem on the wire', () => {
  it('property: toJson is JSON.stringify(toBody) byte for byte, for every code, detail, instance and field errors', () => {
    const codes = Object.keys(PROBLEMS) as ProblemCode[];
    const fieldError = fc.record({
      code: fc.constantFrom(...codes),
      field: fc.string(),
      pointer: fc.string(),
      detail: fc.string(),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...codes),
        fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
        fc.string({ unit: 'binary' }),
        fc.option(fc.array(fieldError, { maxLength: 3 }), { nil: undefined }),
        (code, detail, instance, errors) => {
          const problem = new ProblemError(code, detail, errors);
          assert.equal(problem.toJson(instance), JSON.stringify(problem.toBody(instance)));
          // The stackless answer (a refused body's) is the same problem on the wire.
          const answer = ProblemError.answer(code, detail, errors);
          assert.equal(answer.toJson(instance), problem.toJson(instance));
          assert.deepEqual(answer.toBody(instance), problem.toBody(instance));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('ProblemError.answer is a ProblemError and an Error, with name, message, code and status, and no stack', () => {
    const answer = ProblemError.answer('missing_required_field', "Missing required field 'email' in request body");
    assert.ok(answer instanceof ProblemError);
    assert.ok(answer instanceof Error);
    assert.equal(answer.name, 'ProblemError');
    assert.equal(answer.message, "Missing required field 'email' in request body");
    assert.equal(String(answer), "ProblemError: Missing required field 'email' in request body");
    assert.equal(answer.code, 'missing_required_field');
    assert.equal(answer.status, 400);
    assert.equal(answer.stack, undefined);
    assert.equal(ProblemError.answer('not_found').detail, PROBLEMS.not_found.summary);
    assert.throws(() => {
      throw answer;
    }, ProblemError);
  });
});
