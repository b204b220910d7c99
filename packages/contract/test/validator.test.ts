import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  OpenApiDocumentError,
  compileBodyValidator,
  compileCollectionValidators,
  type BodyValidationResult,
  type BodyValidator,
} from '../src/openapi/index.js';
import { escapePointerToken, unescapePointerToken } from '../src/openapi/json-pointer.js';
import { checkedDocumentWith, loadShippedDocument } from './openapi-fixtures.js';

const MISSING = (field: string): string => `Missing required field '${field}' in request body`;

const email = { type: 'string', format: 'email' };
const SCHEMAS = {
  Person: {
    type: 'object',
    required: ['email', 'address'],
    additionalProperties: false,
    properties: { email, name: { type: 'string' }, address: { $ref: '#/components/schemas/Address' } },
  },
  Address: {
    type: 'object',
    required: ['city'],
    additionalProperties: false,
    properties: { city: { type: 'string' }, street: { type: 'string' } },
  },
  Order: {
    type: 'object',
    required: ['items'],
    properties: {
      items: {
        type: 'array',
        items: {
          type: 'object',
          required: ['sku'],
          additionalProperties: false,
          properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
        },
      },
    },
  },
  Profile: {
    type: 'object',
    required: ['id', 'nickname'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', readOnly: true },
      nickname: { type: 'string', nullable: true },
      note: { type: 'string' },
      status: { type: 'string', enum: ['active', 'archived'] },
      age: { type: 'integer', minimum: 0, maximum: 150, exclusiveMaximum: true },
      title: { type: 'string', minLength: 1, maxLength: 5 },
      tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      extra: { type: 'object', additionalProperties: true, properties: { a: { type: 'string' } } },
      free: { type: 'object' },
    },
  },
  Risky: {
    type: 'object',
    required: ['constructor'],
    properties: { constructor: { type: 'string' }, toString: { type: 'string' } },
  },
  Choice: {
    type: 'object',
    properties: {
      contact: {
        anyOf: [
          { type: 'object', required: ['email'], properties: { email: { type: 'string' } } },
          { type: 'object', required: ['phone'], properties: { phone: { type: 'string' } } },
        ],
      },
    },
  },
  Node: {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
  },
  Odd: { type: 'object', required: ['a/b'], properties: { 'a/b': { type: 'string' }, 'c~d': { type: 'integer' } } },
};
const doc = checkedDocumentWith(SCHEMAS);
const validatorFor = (name: keyof typeof SCHEMAS): BodyValidator =>
  compileBodyValidator(doc, { $ref: `#/components/schemas/${name}` });
const contacts = compileCollectionValidators(loadShippedDocument()).get('contacts');
assert.ok(contacts, 'the shipped document declares contacts');

function expectMissing(result: BodyValidationResult, fields: string[]): void {
  assert.equal(result.ok, false);
  assert.ok(!result.ok && result.kind === 'missing', `expected missing, got ${JSON.stringify(result)}`);
  assert.deepEqual(
    result.fields.map((f) => f.field),
    fields,
  );
  for (const f of result.fields) assert.equal(f.message, MISSING(f.field));
}

function expectInvalid(
  result: BodyValidationResult,
  expected: { field: string; pointer?: string; message: string }[],
): void {
  assert.ok(!result.ok && result.kind === 'invalid', `expected invalid, got ${JSON.stringify(result)}`);
  assert.deepEqual(
    result.fields.map(({ field, message }) => ({ field, message })),
    expected.map(({ field, message }) => ({ field, message })),
  );
  for (const [i, e] of expected.entries())
    if (e.pointer !== undefined) assert.equal(result.fields[i]?.pointer, e.pointer);
  for (const f of result.fields) assert.doesNotMatch(f.message, /Missing required field/);
}

describe('missing required fields (400 missing-required-field)', () => {
  test('an omitted required field is reported missing with the exact contract message', () => {
    const result = contacts({ name: 'Ada' });
    expectMissing(result, ['email']);
    assert.deepEqual(!result.ok && result.fields[0], {
      field: 'email',
      pointer: '/email',
      message: "Missing required field 'email' in request body",
    });
  });

  test('a required field sent as null is reported missing, like an omitted one', () => {
    assert.deepEqual(contacts({ email: null, name: 'Ada' }), contacts({ name: 'Ada' }));
  });

  test('every missing required field is listed, not just the first', () => {
    expectMissing(validatorFor('Person')({ name: 'Ada' }), ['email', 'address']);
  });

  test('a missing nested field is named with dots and pointed to with a JSON pointer', () => {
    const result = validatorFor('Person')({ email: 'ada@example.com', address: { street: 'Main St' } });
    expectMissing(result, ['address.city']);
    assert.equal(!result.ok && result.fields[0]?.pointer, '/address/city');
  });

  test('a missing field inside an array element is named with brackets: items[1].sku', () => {
    const result = validatorFor('Order')({ items: [{ sku: 'A' }, { qty: 2 }, { sku: null }] });
    expectMissing(result, ['items[1].sku', 'items[2].sku']);
    assert.deepEqual(!result.ok && result.fields.map((f) => f.pointer), ['/items/1/sku', '/items/2/sku']);
  });

  test('a required object sent as null is missing once, without a second "must be an object" error', () => {
    const result = validatorFor('Person')({ email: 'ada@example.com', address: null });
    expectMissing(result, ['address']);
    assert.deepEqual(!result.ok && result.kind === 'missing' && result.invalid, []);
  });

  test('missing wins over invalid, and the invalid fields are still listed separately', () => {
    const result = validatorFor('Person')({ name: 42, address: { city: 'Paris' } });
    expectMissing(result, ['email']);
    assert.deepEqual(!result.ok && result.kind === 'missing' && result.invalid, [
      { field: 'name', pointer: '/name', message: "Field 'name' must be a string" },
    ]);
  });

  test('a required field marked nullable and sent as null is present and valid', () => {
    assert.equal(validatorFor('Profile')({ nickname: null }).ok, true);
    expectMissing(validatorFor('Profile')({}), ['nickname']);
  });

  test('a required readOnly field is not required on input (it is set by the server)', () => {
    assert.equal(validatorFor('Profile')({ nickname: 'ada' }).ok, true);
  });

  test("a readOnly field is accepted only with the record's own value, and is left out of the value", () => {
    const profile = validatorFor('Profile');
    assert.deepEqual(profile.readOnly, ['id']);
    const same = profile({ id: 'c1', nickname: 'ada' }, { id: 'c1', nickname: 'grace' });
    assert.deepEqual(same, { ok: true, value: { nickname: 'ada' } });
    const readOnly = "Field 'id' is read-only: send the record's own value or leave it out";
    expectInvalid(profile({ id: 'c2', nickname: 'ada' }, { id: 'c1' }), [{ field: 'id', message: readOnly }]);
    expectInvalid(profile({ id: 'c1', nickname: 'ada' }), [{ field: 'id', message: readOnly }]);
    const both = profile({ id: 'c2' }, { id: 'c1' });
    assert.ok(!both.ok && both.kind === 'missing', 'a missing field still wins');
    assert.deepEqual(both.invalid, [{ field: 'id', pointer: '/id', message: readOnly }]);
  });

  test('a required field is an own property: "constructor" is not inherited from Object.prototype', () => {
    expectMissing(validatorFor('Risky')({}), ['constructor']);
    assert.equal(validatorFor('Risky')({ constructor: 'x' }).ok, true);
  });

  test('a required field inside one anyOf branch is not reported missing (it is only conditionally required)', () => {
    expectInvalid(validatorFor('Choice')({ contact: {} }), [
      { field: 'contact', message: "Field 'contact' must match at least one of the allowed forms" },
    ]);
    assert.equal(validatorFor('Choice')({ contact: { phone: '+33' } }).ok, true);
  });

  test('recursive schemas report missing fields at any depth', () => {
    expectMissing(validatorFor('Node')({ name: 'root', children: [{ name: 'a', children: [{}] }] }), [
      'children[0].children[0].name',
    ]);
  });
});

describe('invalid field values (422 invalid-field-value)', () => {
  test('an empty string for an email-format field is invalid, not missing', () => {
    expectInvalid(contacts({ email: '' }), [
      { field: 'email', pointer: '/email', message: "Field 'email' must be a valid email address" },
    ]);
  });

  test('a malformed email is invalid', () => {
    expectInvalid(contacts({ email: 'not-an-email' }), [
      { field: 'email', message: "Field 'email' must be a valid email address" },
    ]);
  });

  test('a wrong type is invalid and never coerced', () => {
    expectInvalid(contacts({ email: 'ada@example.com', name: 42 }), [
      { field: 'name', message: "Field 'name' must be a string" },
    ]);
    expectInvalid(validatorFor('Order')({ items: [{ sku: 'A', qty: '2' }] }), [
      { field: 'items[0].qty', pointer: '/items/0/qty', message: "Field 'items[0].qty' must be an integer" },
    ]);
  });

  test('an optional field sent as null is invalid (null is not a string), not missing', () => {
    expectInvalid(contacts({ email: 'ada@example.com', name: null }), [
      { field: 'name', message: "Field 'name' must be a string" },
    ]);
  });

  test('an unknown field is refused, at the top level and nested', () => {
    expectInvalid(contacts({ email: 'ada@example.com', foo: 1 }), [
      { field: 'foo', pointer: '/foo', message: "Unknown field 'foo' in request body" },
    ]);
    expectInvalid(validatorFor('Person')({ email: 'ada@example.com', address: { city: 'Paris', zip: '75001' } }), [
      { field: 'address.zip', pointer: '/address/zip', message: "Unknown field 'address.zip' in request body" },
    ]);
  });

  test('unknown fields are accepted where the schema allows them', () => {
    assert.equal(validatorFor('Profile')({ nickname: 'a', extra: { a: 'x', b: 1 }, free: { anything: [1] } }).ok, true);
  });

  test('constraint failures read as sentences', () => {
    const profile = validatorFor('Profile');
    expectInvalid(profile({ nickname: 'a', status: 'gone' }), [
      { field: 'status', message: 'Field \'status\' must be one of "active", "archived"' },
    ]);
    expectInvalid(profile({ nickname: 'a', title: '' }), [
      { field: 'title', message: "Field 'title' must not be empty" },
    ]);
    expectInvalid(profile({ nickname: 'a', title: 'toolong' }), [
      { field: 'title', message: "Field 'title' must be at most 5 characters long" },
    ]);
    expectInvalid(profile({ nickname: 'a', age: 150 }), [
      { field: 'age', message: "Field 'age' must be less than 150" },
    ]);
    expectInvalid(profile({ nickname: 'a', age: -1 }), [{ field: 'age', message: "Field 'age' must be at least 0" }]);
    expectInvalid(profile({ nickname: 'a', tags: ['x', 'x'] }), [
      { field: 'tags', message: "Field 'tags' must not contain duplicate items" },
    ]);
    expectInvalid(profile({ nickname: 'a', tags: ['x', 1] }), [
      { field: 'tags[1]', pointer: '/tags/1', message: "Field 'tags[1]' must be a string" },
    ]);
  });

  test('field names with "/" or "~" are escaped in the pointer (RFC 6901)', () => {
    expectInvalid(validatorFor('Odd')({ 'a/b': 'x', 'c~d': 'y' }), [
      { field: 'c~d', pointer: '/c~0d', message: "Field 'c~d' must be an integer" },
    ]);
    const result = validatorFor('Odd')({});
    expectMissing(result, ['a/b']);
    assert.equal(!result.ok && result.fields[0]?.pointer, '/a~1b');
  });

  for (const body of [[], [{ email: 'ada@example.com' }], 'text', 42, true, null, undefined]) {
    test(`a body that is not a JSON object (${JSON.stringify(body)}) is invalid with field ''`, () => {
      expectInvalid(contacts(body), [{ field: '', pointer: '', message: 'Request body must be a JSON object' }]);
    });
  }
});

describe('robustness', () => {
  test('__proto__ and constructor keys never crash or pollute, and are refused as unknown fields', () => {
    const body: unknown = JSON.parse(
      '{"email":"ada@example.com","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    );
    const result = contacts(body);
    expectInvalid(result, [
      { field: '__proto__', message: "Unknown field '__proto__' in request body" },
      { field: 'constructor', message: "Unknown field 'constructor' in request body" },
    ]);
    assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false);
  });

  test('a body nested thousands of levels deep under a recursive schema is a 422, not a crash', () => {
    const depth = 20_000;
    const body: unknown = JSON.parse(`${'{"name":"n","children":['.repeat(depth)}{"name":"leaf"}${']}'.repeat(depth)}`);
    expectInvalid(validatorFor('Node')(body), [
      { field: '', pointer: '', message: 'Request body is nested too deeply to be validated' },
    ]);
  });

  test('the report stays small however many problems a body has (at most 100, about 64 KiB of text)', () => {
    const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`f${i}`, i]));
    const wide = contacts({ email: 'ada@example.com', ...many });
    assert.ok(!wide.ok && wide.kind === 'invalid' && wide.fields.length === 100);
    const longKey = 'k'.repeat(100_000);
    const deepLong = validatorFor('Person')({
      email: 'ada@example.com',
      address: { city: 'Paris', [longKey]: 1, [`${longKey}2`]: 2 },
    });
    assert.ok(
      !deepLong.ok && deepLong.kind === 'invalid' && deepLong.fields.length === 1,
      'stops once the text budget is spent',
    );
  });

  test('validation neither fills defaults nor changes the body, and returns the body as value', () => {
    const body = { email: 'ada@example.com' };
    const result = contacts(body);
    assert.ok(result.ok);
    assert.equal(result.value, body);
    assert.deepEqual(body, { email: 'ada@example.com' });
  });

  test('each schema is compiled once: the same validator is returned for the same schema', () => {
    assert.equal(validatorFor('Person'), validatorFor('Person'));
    const shipped = loadShippedDocument();
    assert.equal(
      compileCollectionValidators(shipped).get('contacts'),
      compileBodyValidator(shipped, { $ref: '#/components/schemas/Contact' }),
    );
  });

  test('an unknown format is a document error, so a typo cannot switch validation off', () => {
    const broken = checkedDocumentWith({
      X: { type: 'object', properties: { e: { type: 'string', format: 'emial' } } },
    });
    assert.throws(
      () => compileBodyValidator(broken, { $ref: '#/components/schemas/X' }),
      (error: unknown) => {
        assert.ok(error instanceof OpenApiDocumentError);
        assert.match(error.message, /components\.schemas\.X\.properties\.e\.format names the unknown format 'emial'/);
        return true;
      },
    );
    const inline = { type: 'object', properties: { e: { type: 'string', format: 'emial' } } } as const;
    assert.throws(() => compileBodyValidator(doc, inline, ['paths', '/x', 'post']), {
      message:
        "paths['/x'].post.properties.e.format names the unknown format 'emial' (at #/paths/~1x/post/properties/e/format)",
    });
  });
});

/** Values of any JSON type, or the key left out entirely (`undefined` → omitted). */
const anyJsonOrOmitted = fc.option(fc.jsonValue(), { nil: undefined, freq: 3 });
const extraKeys = fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.jsonValue(), { maxKeys: 3 });

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

const isAbsent = (body: Record<string, unknown>, key: string): boolean =>
  !Object.hasOwn(body, key) || body[key] === null;
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function missingNames(result: BodyValidationResult): string[] {
  return !result.ok && result.kind === 'missing' ? result.fields.map((f) => f.field).sort() : [];
}

function assertNoMissingMessage(result: BodyValidationResult): void {
  if (result.ok) return;
  assert.notEqual(result.kind, 'missing');
  for (const f of result.fields) assert.doesNotMatch(f.message, /Missing required field/);
}

describe('properties over generated bodies', () => {
  const contactBody = fc
    .tuple(
      extraKeys,
      fc.record({
        email: fc.oneof(anyJsonOrOmitted, fc.emailAddress()),
        name: fc.oneof(anyJsonOrOmitted, fc.string()),
      }),
    )
    .map(([extra, known]) => ({ ...extra, ...withoutUndefined(known) }));

  test('a contact body without email, or with email null, is ALWAYS reported missing with that exact field and message', () => {
    fc.assert(
      fc.property(contactBody, (body) => {
        const result = contacts(body);
        if (isAbsent(body, 'email')) {
          assert.deepEqual(!result.ok && result.kind === 'missing' && result.fields, [
            { field: 'email', pointer: '/email', message: MISSING('email') },
          ]);
        } else {
          assertNoMissingMessage(result);
        }
      }),
    );
  });

  const address = fc.oneof(
    fc.jsonValue(),
    fc.record({ city: anyJsonOrOmitted, street: anyJsonOrOmitted }).map(withoutUndefined),
  );
  const personBody = fc
    .tuple(
      extraKeys,
      fc.record({
        email: fc.oneof(anyJsonOrOmitted, fc.emailAddress()),
        name: anyJsonOrOmitted,
        address: fc.option(address, { nil: undefined }),
      }),
    )
    .map(([extra, known]) => ({ ...extra, ...withoutUndefined(known) }));

  test('with a nested required field, exactly the absent or null required fields are reported missing; a body with all of them present never is', () => {
    const person = validatorFor('Person');
    fc.assert(
      fc.property(personBody, (body) => {
        const expected: string[] = [];
        if (isAbsent(body, 'email')) expected.push('email');
        if (isAbsent(body, 'address')) expected.push('address');
        else if (isPlainObject(body['address']) && isAbsent(body['address'], 'city')) expected.push('address.city');
        const result = person(body);
        assert.deepEqual(missingNames(result), expected.sort());
        if (expected.length === 0) assertNoMissingMessage(result);
        else for (const f of !result.ok ? result.fields : []) assert.equal(f.message, MISSING(f.field));
      }),
    );
  });

  const item = fc.oneof(
    fc.jsonValue(),
    fc.record({ sku: anyJsonOrOmitted, qty: anyJsonOrOmitted }).map(withoutUndefined),
  );
  const orderBody = fc
    .record({ items: fc.option(fc.oneof(fc.jsonValue(), fc.array(item, { maxLength: 4 })), { nil: undefined }) })
    .map(withoutUndefined);

  test('inside arrays, every element whose required field is absent or null is reported as items[i].sku', () => {
    const order = validatorFor('Order');
    fc.assert(
      fc.property(orderBody, (body) => {
        const items = body['items'];
        const expected = isAbsent(body, 'items')
          ? ['items']
          : Array.isArray(items)
            ? items.flatMap((element: unknown, i) =>
                isPlainObject(element) && isAbsent(element, 'sku') ? [`items[${i}].sku`] : [],
              )
            : [];
        const result = order(body);
        assert.deepEqual(missingNames(result), expected.sort());
        if (expected.length === 0) assertNoMissingMessage(result);
      }),
    );
  });
});

describe('JSON Pointer tokens (RFC 6901 §3, §4)', () => {
  test('property: escaping round-trips, leaves no bare / and no ~ but ~0 or ~1, and keeps a token without either as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '~', '/', '0', '1', 'é') }), (token) => {
        const escaped = escapePointerToken(token);
        assert.equal(unescapePointerToken(escaped), token);
        assert.ok(!escaped.includes('/'));
        assert.doesNotMatch(escaped, /~(?![01])/);
        if (!token.includes('~') && !token.includes('/')) assert.equal(escaped, token);
      }),
    );
    assert.equal(escapePointerToken('a/b~c'), 'a~1b~0c');
  });
});
