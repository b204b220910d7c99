import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { compileCollectionValidators, mergePatch } from '../src/openapi/index.js';
import { loadShippedDocument } from './openapi-fixtures.js';

/** RFC 7396 Appendix A, verbatim: [original, patch, result]. */
const RFC_7396_EXAMPLES: [unknown, unknown, unknown][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [
    ['a', 'b'],
    ['c', 'd'],
    ['c', 'd'],
  ],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe('mergePatch (RFC 7396 JSON Merge Patch)', () => {
  for (const [original, patch, expected] of RFC_7396_EXAMPLES) {
    test(`RFC 7396 Appendix A: ${JSON.stringify(original)} patched with ${JSON.stringify(patch)} gives ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(mergePatch(original, patch), expected);
    });
  }

  test('it is pure: neither the target nor the patch is mutated', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (target, patch) => {
        const [targetCopy, patchCopy] = [structuredClone(target), structuredClone(patch)];
        mergePatch(target, patch);
        assert.deepEqual(target, targetCopy);
        assert.deepEqual(patch, patchCopy);
      }),
    );
  });

  test('it is idempotent, as RFC 7396 §1 notes: applying the same patch twice changes nothing more', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (target, patch) => {
        const once = mergePatch(target, patch);
        assert.deepEqual(mergePatch(once, patch), once);
      }),
    );
  });

  test('a __proto__ or constructor member is plain data and never pollutes a prototype', () => {
    const patch: unknown = JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
    const result = mergePatch({ name: 'Ada' }, patch) as Record<string, unknown>;
    assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false);
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.deepEqual(Object.keys(result), ['name', '__proto__', 'constructor']);
    assert.deepEqual(result['__proto__'], { polluted: true });
    assert.deepEqual(mergePatch(result, JSON.parse('{"__proto__":null}')), {
      name: 'Ada',
      constructor: { prototype: { polluted: true } },
    });
  });

  test('patching a required field to null makes the merged record a missing-field error (PATCH is validated after merging)', () => {
    const contacts = compileCollectionValidators(loadShippedDocument()).get('contacts');
    assert.ok(contacts);
    const merged = mergePatch({ email: 'ada@example.com', name: 'Ada' }, { email: null });
    assert.deepEqual(merged, { name: 'Ada' });
    const result = contacts(merged);
    assert.ok(!result.ok && result.kind === 'missing');
    assert.equal(result.fields[0]?.message, "Missing required field 'email' in request body");
    assert.equal(contacts(mergePatch({ email: 'ada@example.com' }, { name: 'Ada Lovelace' })).ok, true);
  });
});
