import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OAuthError, ProblemError } from '@gatehouse/contract';
import { classifyError } from '../src/http/error-classifier.js';
import { StoreBusyError } from '../src/store/store.js';

const fastifyError = (code: string, statusCode: number) => Object.assign(new Error(code), { code, statusCode });

describe('one classifier for every thrown error', () => {
  it('a catalog error is answered as it is, in its own catalog', () => {
    const oauth = new OAuthError('grant_type_unsupported');
    const problem = new ProblemError('not_found');
    assert.equal(classifyError(oauth, 'oauth_form'), oauth);
    assert.equal(classifyError(oauth, 'page'), oauth);
    assert.equal(classifyError(problem, 'problem'), problem);
    assert.equal(classifyError(problem, 'page'), problem);
  });

  it('a store outage is the transient 503 of each catalog', () => {
    assert.equal(classifyError(new StoreBusyError(), 'oauth_form').reason, 'store_busy');
    assert.equal(classifyError(new StoreBusyError(), 'problem').code, 'service_unavailable');
  });

  it("Fastify's body errors get each catalog's name: a wrong type is body_not_form, body_not_json or 415", () => {
    const wrongType = fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415);
    assert.equal(classifyError(wrongType, 'oauth_form').reason, 'body_not_form');
    assert.equal(classifyError(wrongType, 'oauth_json').reason, 'body_not_json');
    assert.equal(classifyError(wrongType, 'problem').code, 'unsupported_media_type');
    const emptyJson = fastifyError('FST_ERR_CTP_EMPTY_JSON_BODY', 400);
    assert.equal(classifyError(emptyJson, 'oauth_json').reason, 'request_unreadable');
    assert.equal(classifyError(emptyJson, 'problem').code, 'malformed_json');
  });

  it('anything else is the internal error, whatever its code names', () => {
    for (const code of ['toString', '__proto__', 'constructor']) {
      assert.equal(classifyError(fastifyError(code, 500), 'oauth_form').reason, 'internal_error');
      assert.equal(classifyError(fastifyError(code, 500), 'problem').code, 'internal_error');
    }
    const page = classifyError(new Error('boom'), 'page');
    assert.ok(page instanceof ProblemError && page.code === 'internal_error');
  });
});
