import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkOpenApiDocument, compileBodyValidator, type BodyValidator } from '../src/openapi/index.js';
import { documentWith } from './openapi-fixtures.js';

const MISSING = (field: string): string => `Missing required field '${field}' in request body`;

function validatorOf(version: '3.0' | '3.1', properties: Record<string, unknown>): BodyValidator {
  const schema = { type: 'object', required: Object.keys(properties), properties };
  const doc = checkOpenApiDocument({
    ...documentWith({ Thing: schema }, { things: 'Thing' }),
    openapi: version === '3.0' ? '3.0.3' : '3.1.1',
  });
  return compileBodyValidator(doc, { $ref: '#/components/schemas/Thing' });
}

function assertMissing(validate: BodyValidator, body: unknown, field: string): void {
  const result = validate(body);
  assert.ok(!result.ok && result.kind === 'missing', `expected missing, got ${JSON.stringify(result)}`);
  assert.equal(result.fields[0]?.message, MISSING(field));
}

describe('null for a required field is missing unless the schema explicitly allows null', () => {
  const allowing: [string, '3.0' | '3.1', unknown][] = [
    ['3.0 nullable: true with a type', '3.0', { type: 'string', nullable: true }],
    ['3.1 a type list with "null"', '3.1', { type: ['string', 'null'] }],
    ['3.1 type "null"', '3.1', { type: 'null' }],
    ['3.1 const: null', '3.1', { const: null }],
    ['3.1 an anyOf branch of type "null"', '3.1', { anyOf: [{ type: 'string' }, { type: 'null' }] }],
    [
      '3.1 a oneOf branch through $defs',
      '3.1',
      { oneOf: [{ type: 'integer' }, { $ref: '#/components/schemas/Thing/$defs/Nothing' }] },
    ],
  ];
  for (const [what, version, property] of allowing)
    test(`${what}: null is a value`, () => {
      const validate = what.includes('$defs')
        ? compileBodyValidator(
            checkOpenApiDocument({
              ...documentWith(
                {
                  Thing: {
                    type: 'object',
                    required: ['f'],
                    properties: { f: property },
                    $defs: { Nothing: { type: 'null' } },
                  },
                },
                { things: 'Thing' },
              ),
              openapi: '3.1.1',
            }),
            { $ref: '#/components/schemas/Thing' },
          )
        : validatorOf(version, { f: property });
      assert.deepEqual(validate({ f: null }), { ok: true, value: { f: null } });
    });

  const refusing: [string, '3.0' | '3.1', unknown][] = [
    ['3.0 a plain type', '3.0', { type: 'string' }],
    ['3.0 nullable: true without a type (3.0.3: nullable needs a type)', '3.0', { nullable: true }],
    ['3.0 an unconstrained schema', '3.0', {}],
    ['3.1 a plain type', '3.1', { type: 'string' }],
    ['3.1 an unconstrained schema', '3.1', {}],
  ];
  for (const [what, version, property] of refusing)
    test(`${what}: null is the missing-field 400`, () =>
      assertMissing(validatorOf(version, { f: property }), { f: null }, 'f'));
});

describe('OpenAPI 3.1 schemas are validated as JSON Schema 2020-12', () => {
  test('a numeric exclusiveMinimum, const and prefixItems are enforced; a violation is invalid, not missing', () => {
    const validate = validatorOf('3.1', {
      n: { type: 'integer', exclusiveMinimum: 0 },
      k: { const: 'a' },
      p: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] },
    });
    assert.equal(validate({ n: 1, k: 'a', p: ['x', 1] }).ok, true);
    for (const body of [
      { n: 0, k: 'a', p: [] },
      { n: 1, k: 'b', p: [] },
      { n: 1, k: 'a', p: [1] },
    ]) {
      const result = validate(body);
      assert.ok(!result.ok && result.kind === 'invalid', JSON.stringify(body));
    }
  });

  test('examples are annotations: they never refuse a value', () => {
    assert.equal(validatorOf('3.1', { s: { type: 'string', examples: ['a'] } })({ s: 'b' }).ok, true);
  });
});
