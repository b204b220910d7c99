import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GRANT_TYPES, REGISTRY_IMPLEMENTS_VOCABULARY } from '../src/oauth/grants/index.js';
import { GRANT_TYPE_NAMES } from '../src/primitives/grant-types.js';

describe('the grant type vocabulary (RFC 6749 §4, RFC 8628 §3.4)', () => {
  it('the grant registry implements exactly the names a client may be registered for, in their order', () => {
    assert.equal(REGISTRY_IMPLEMENTS_VOCABULARY, true);
    assert.deepEqual([...GRANT_TYPES], [...GRANT_TYPE_NAMES]);
  });
});
