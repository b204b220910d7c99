import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OpenApiDocumentError, checkOpenApiDocument, listCollections } from '../src/openapi/index.js';
import { documentWith, loadShippedDocument, readShippedDocument } from './openapi-fixtures.js';

const contact = {
  type: 'object',
  required: ['email'],
  properties: { email: { type: 'string', format: 'email' }, name: { type: 'string' } },
};

/** Asserts that checking `doc` throws an OpenApiDocumentError whose message starts with `message` and whose pointer is `pointer`. */
function assertDocumentError(doc: unknown, message: string, pointer: string): void {
  assert.throws(
    () => checkOpenApiDocument(doc),
    (error: unknown) => {
      assert.ok(error instanceof OpenApiDocumentError, `expected OpenApiDocumentError, got ${String(error)}`);
      assert.ok(error.message.startsWith(message), `message was: ${error.message}`);
      assert.equal(error.pointer, pointer);
      assert.ok(error.message.endsWith(`(at #${pointer})`), 'the message names the JSON pointer');
      return true;
    },
  );
}

describe('the shipped openapi.yaml', () => {
  const doc = loadShippedDocument();

  test('is an OpenAPI 3.0.3 document for "Gatehouse REST API" 2.0.0 served under /v2', () => {
    assert.equal(doc.openapi, '3.0.3');
    assert.equal(doc.info.title, 'Gatehouse REST API');
    assert.equal(doc.info.version, '2.0.0');
    assert.deepEqual(doc['servers'], [{ url: '/v2' }]);
  });

  test('declares exactly one collection, contacts, whose schema Contact requires email (format email) and has a string name', () => {
    const collections = listCollections(doc);
    assert.deepEqual(
      collections.map(({ name, schemaName }) => ({ name, schemaName })),
      [{ name: 'contacts', schemaName: 'Contact' }],
    );
    const schema = collections[0]?.schema;
    assert.deepEqual(schema?.required, ['email']);
    assert.deepEqual(schema?.properties?.['email'], { type: 'string', format: 'email', example: 'ada@example.com' });
    assert.equal((schema?.properties?.['name'] as { type?: string } | undefined)?.type, 'string');
  });

  test('serves POST/GET on /contacts and GET/PUT/PATCH/DELETE on /contacts/{id}, PATCH taking a merge patch', () => {
    const methods = (path: string): string[] =>
      Object.keys(doc.paths[path] ?? {})
        // A path item's other keys: its parameters and the server's x- extensions (record ownership).
        .filter((key) => key !== 'parameters' && !key.startsWith('x-'))
        .sort();
    assert.deepEqual(methods('/contacts'), ['get', 'post']);
    assert.deepEqual(methods('/contacts/{id}'), ['delete', 'get', 'patch', 'put']);
    assert.deepEqual(Object.keys(doc.paths['/contacts/{id}']?.patch?.requestBody?.content ?? {}), [
      'application/merge-patch+json',
    ]);
    assert.deepEqual(doc.paths['/contacts/{id}']?.put?.requestBody?.content['application/json']?.schema, {
      $ref: '#/components/schemas/Contact',
    });
    const parameters = doc.paths['/contacts']?.get?.['parameters'] as { name: string; in: string }[];
    assert.deepEqual(
      parameters.map((p) => `${p.in}:${p.name}`),
      ['query:cursor', 'query:limit'],
    );
  });

  test('leaves security to the server, which declares the OAuth 2.0 scheme it enforces (docs/rest-api.md, "REST API")', () => {
    assert.equal(doc.components?.['securitySchemes'], undefined);
    assert.equal(doc['security'], undefined);
  });

  test('says what the server enforces: unknown fields refused, id read-only, If-Match and 412 on every write', () => {
    const contactSchema = doc.components?.schemas?.['Contact'] as Record<string, unknown>;
    assert.equal(contactSchema['additionalProperties'], false);
    assert.deepEqual((contactSchema['properties'] as Record<string, unknown>)['id'], {
      type: 'string',
      readOnly: true,
      example: '0mbx3k2qz000a1b2c3d4e5f6',
    });
    for (const method of ['put', 'patch', 'delete'] as const) {
      const operation = doc.paths['/contacts/{id}']?.[method];
      assert.ok(operation?.responses['412'], `${method} declares 412`);
      assert.deepEqual(operation?.['parameters'], [{ $ref: '#/components/parameters/IfMatch' }]);
    }
    const id = (doc.components?.['parameters'] as Record<string, { example?: string }>)['Id'];
    assert.equal(typeof id?.example, 'string', 'the path parameter id has an example');
  });

  test('describes errors with an RFC 9457 Problem schema whose errors list code, field, pointer and detail', () => {
    const problem = doc.components?.schemas?.['Problem'] as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(problem.properties), ['type', 'title', 'status', 'detail', 'instance', 'errors']);
    assert.equal((problem as Record<string, unknown>)['additionalProperties'], false);
    const fieldError = doc.components?.schemas?.['FieldError'] as { required: string[] };
    assert.deepEqual(fieldError.required, ['code', 'field', 'pointer', 'detail']);
  });

  test('is accepted as JSON too: the check works on any parsed value', () => {
    assert.doesNotThrow(() => checkOpenApiDocument(JSON.parse(JSON.stringify(readShippedDocument()))));
  });
});

describe('collections', () => {
  test('a collection without its item path stops the document, naming the path', () => {
    const doc = documentWith({ Contact: contact }, { contacts: 'Contact' }) as { paths: Record<string, unknown> };
    delete doc.paths['/contacts/{id}'];
    assertDocumentError(
      doc,
      "paths['/contacts'] declares collection 'contacts' without its item path /contacts/{id}: declare both",
      '/paths/~1contacts',
    );
  });

  test('collections are listed in document order with their resolved schema', () => {
    const doc = checkOpenApiDocument(
      documentWith({ Contact: contact, Note: { type: 'object' } }, { notes: 'Note', contacts: 'Contact' }),
    );
    const declared = { collectionMethods: ['post'], itemMethods: ['get'] };
    assert.deepEqual(listCollections(doc), [
      { name: 'notes', itemPath: '/notes/{id}', schemaName: 'Note', schema: { type: 'object' }, ...declared },
      { name: 'contacts', itemPath: '/contacts/{id}', schemaName: 'Contact', schema: contact, ...declared },
    ]);
  });

  test('an inline POST schema declares a collection whose schemaName is null', () => {
    const doc = documentWith({}, {}) as { paths: Record<string, unknown> };
    doc.paths['/tags'] = {
      post: { requestBody: { content: { 'application/json': { schema: contact } } }, responses: {} },
    };
    doc.paths['/tags/{tagId}'] = { delete: { responses: {} } };
    assert.deepEqual(listCollections(checkOpenApiDocument(doc)), [
      {
        name: 'tags',
        itemPath: '/tags/{tagId}',
        schemaName: null,
        schema: contact,
        collectionMethods: ['post'],
        itemMethods: ['delete'],
      },
    ]);
  });

  test('a component alias ($ref to another component) is followed to the record schema', () => {
    const doc = checkOpenApiDocument(
      documentWith({ Contact: contact, Person: { $ref: '#/components/schemas/Contact' } }, { people: 'Person' }),
    );
    assert.deepEqual(listCollections(doc)[0]?.schema, contact);
  });
});

describe('a broken document is refused with the problem and its JSON pointer', () => {
  const withContact = (patch: Record<string, unknown>): unknown =>
    documentWith({ Contact: { ...contact, ...patch } }, { contacts: 'Contact' });

  test('the example of the brief: a required that is not an array of strings', () => {
    assertDocumentError(
      withContact({ required: 'email' }),
      'components.schemas.Contact.required must be an array of strings',
      '/components/schemas/Contact/required',
    );
  });

  const cases: [string, unknown, string, string][] = [
    ['a document that is not an object', [], 'The document must be an object', ''],
    [
      'an OpenAPI 3.2 document',
      { ...documentWith({}), openapi: '3.2.0' },
      "openapi must be an OpenAPI 3.0.x or 3.1.x version such as '3.0.3' or '3.1.1'",
      '/openapi',
    ],
    [
      'a missing info.title',
      { ...documentWith({}), info: { version: '1' } },
      'info.title must be a string',
      '/info/title',
    ],
    ['missing paths', { openapi: '3.0.3', info: { title: 't', version: '1' } }, 'paths must be an object', '/paths'],
    [
      'a dangling $ref',
      withContact({ properties: { address: { $ref: '#/components/schemas/Address' } } }),
      "components.schemas.Contact.properties.address.$ref refers to '#/components/schemas/Address', which does not exist",
      '/components/schemas/Contact/properties/address/$ref',
    ],
    [
      'a non-local $ref',
      withContact({ properties: { address: { $ref: 'common.yaml#/Address' } } }),
      'components.schemas.Contact.properties.address.$ref must be a local reference of the form #/components/schemas/<name>',
      '/components/schemas/Contact/properties/address/$ref',
    ],
    [
      'a misspelt keyword',
      withContact({ properties: { name: { type: 'string', minLenght: 1 } } }),
      'components.schemas.Contact.properties.name.minLenght is not an OpenAPI 3.0 Schema Object keyword',
      '/components/schemas/Contact/properties/name/minLenght',
    ],
    [
      'a 3.1-style type list',
      withContact({ properties: { name: { type: ['string', 'null'] } } }),
      'components.schemas.Contact.properties.name.type must be one of string, number, integer, boolean, array, object',
      '/components/schemas/Contact/properties/name/type',
    ],
    [
      'an array schema without items',
      withContact({ properties: { tags: { type: 'array' } } }),
      'components.schemas.Contact.properties.tags.items must be present when type is array',
      '/components/schemas/Contact/properties/tags/items',
    ],
    [
      'a pattern that is not a regular expression',
      withContact({ properties: { name: { type: 'string', pattern: '(' } } }),
      'components.schemas.Contact.properties.name.pattern must be a valid regular expression',
      '/components/schemas/Contact/properties/name/pattern',
    ],
    [
      'a negative minLength',
      withContact({ properties: { name: { type: 'string', minLength: -1 } } }),
      'components.schemas.Contact.properties.name.minLength must be a non-negative integer',
      '/components/schemas/Contact/properties/name/minLength',
    ],
    [
      'circular component aliases',
      documentWith({ A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } }),
      'components.schemas.A is a dangling or circular reference',
      '/components/schemas/A',
    ],
    [
      'a component name with a space',
      documentWith({ 'My Contact': contact }),
      "components.schemas['My Contact'] must use only letters, digits, '.', '-' and '_'",
      '/components/schemas/My Contact',
    ],
    [
      'a collection whose record schema is not an object',
      documentWith({ Contact: { type: 'array', items: {} } }, { contacts: 'Contact' }),
      "components.schemas.Contact.type must be 'object': collection 'contacts' stores JSON objects",
      '/components/schemas/Contact/type',
    ],
    [
      'a field named __proto__',
      withContact({ properties: JSON.parse('{"__proto__":{"type":"string"}}') as unknown }),
      'components.schemas.Contact.properties.__proto__ cannot be a field name',
      '/components/schemas/Contact/properties/__proto__',
    ],
  ];
  for (const [what, doc, message, pointer] of cases) {
    test(`${what} is refused`, () => assertDocumentError(doc, message, pointer));
  }

  test('a path that does not start with / is refused, with the path quoted in the message', () => {
    const doc = documentWith({}) as { paths: Record<string, unknown> };
    doc.paths['contacts'] = {};
    assertDocumentError(doc, "paths.contacts must start with '/'", '/paths/contacts');
  });

  test('an operation without responses is refused, naming the path readably and escaping "/" in the pointer', () => {
    const doc = documentWith({ Contact: contact }, { contacts: 'Contact' }) as {
      paths: Record<string, { get: Record<string, unknown> }>;
    };
    doc.paths['/contacts/{id}'] = { get: {} };
    assertDocumentError(
      doc,
      "paths['/contacts/{id}'].get.responses must be an object",
      '/paths/~1contacts~1{id}/get/responses',
    );
  });

  test('a request body given as a $ref is refused: only schema references are supported', () => {
    const doc = documentWith({}) as { paths: Record<string, unknown> };
    doc.paths['/things'] = { post: { requestBody: { $ref: '#/components/requestBodies/Thing' }, responses: {} } };
    doc.paths['/things/{id}'] = { get: { responses: {} } };
    assertDocumentError(
      doc,
      "paths['/things'].post.requestBody.$ref is not supported",
      '/paths/~1things/post/requestBody/$ref',
    );
  });

  test('a dangling $ref outside schemas (a response) is refused too', () => {
    const doc = documentWith({}) as { paths: Record<string, unknown> };
    doc.paths['/things/{id}'] = { get: { responses: { '404': { $ref: '#/components/responses/NotFound' } } } };
    assertDocumentError(
      doc,
      "paths['/things/{id}'].get.responses['404'].$ref refers to '#/components/responses/NotFound', which is not a local reference that resolves",
      '/paths/~1things~1{id}/get/responses/404/$ref',
    );
  });

  test('a "$ref" inside example data is just data', () => {
    assert.doesNotThrow(() => checkOpenApiDocument(withContact({ example: { $ref: 'elsewhere.yaml' } })));
  });
});

describe('a document the server cannot serve as declared stops it, naming the path', () => {
  const served = (): { paths: Record<string, Record<string, unknown>> } =>
    documentWith({ Contact: contact }, { contacts: 'Contact' }) as { paths: Record<string, Record<string, unknown>> };

  test('an item path without its collection path', () => {
    const doc = served();
    doc.paths['/things/{id}'] = { get: { responses: {} } };
    assertDocumentError(
      doc,
      "paths['/things/{id}'] is the item path of collection 'things', but /things is not declared",
      '/paths/~1things~1{id}',
    );
  });

  test('a path of another shape', () => {
    const doc = served();
    doc.paths['/contacts/{id}/notes'] = { get: { responses: {} } };
    assertDocumentError(
      doc,
      "paths['/contacts/{id}/notes'] is not a path Gatehouse serves",
      '/paths/~1contacts~1{id}~1notes',
    );
  });

  test('an operation the server does not serve on the path (PUT on the collection)', () => {
    const doc = served();
    (doc.paths['/contacts'] as Record<string, unknown>)['put'] = { responses: {} };
    assertDocumentError(doc, "paths['/contacts'].put is not an operation Gatehouse serves", '/paths/~1contacts/put');
  });

  test('a PATCH body of another media type than application/merge-patch+json', () => {
    const doc = served();
    doc.paths['/contacts/{id}'] = {
      patch: { requestBody: { content: { 'application/json': { schema: {} } } }, responses: {} },
    };
    assertDocumentError(
      doc,
      "paths['/contacts/{id}'].patch.requestBody.content['application/json'] is not served: a patch body is application/merge-patch+json",
      '/paths/~1contacts~1{id}/patch/requestBody/content/application~1json',
    );
  });

  test('a PUT body schema that is not the POST schema', () => {
    const doc = served();
    doc.paths['/contacts/{id}'] = {
      put: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: {} },
    };
    assertDocumentError(
      doc,
      "paths['/contacts/{id}'].put.requestBody.content['application/json'].schema must be the schema of POST /contacts",
      '/paths/~1contacts~1{id}/put/requestBody/content/application~1json/schema',
    );
  });

  test('a query parameter the server does not read', () => {
    const doc = served();
    (doc.paths['/contacts'] as Record<string, unknown>)['get'] = {
      parameters: [{ name: 'filter', in: 'query', schema: { type: 'string' } }],
      responses: {},
    };
    assertDocumentError(
      doc,
      "paths['/contacts'].get.parameters[0] declares the query parameter 'filter', which is not served",
      '/paths/~1contacts/get/parameters/0',
    );
  });
});

describe('OpenAPI 3.1 documents (JSON Schema 2020-12)', () => {
  const v31 = (schemas: Record<string, unknown>): Record<string, unknown> => ({
    ...documentWith(schemas, { contacts: 'Contact' }),
    openapi: '3.1.1',
  });

  test('type lists, const, examples, $defs and numeric exclusive bounds are accepted', () => {
    const doc = v31({
      Contact: {
        type: 'object',
        required: ['email'],
        properties: {
          email: { type: 'string', examples: ['ada@example.com'] },
          name: { type: ['string', 'null'] },
          kind: { const: 'person' },
          age: { type: 'integer', exclusiveMinimum: 0 },
          address: { $ref: '#/components/schemas/Contact/$defs/Address' },
        },
        $defs: { Address: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    });
    assert.doesNotThrow(() => checkOpenApiDocument(doc));
  });

  test("3.0's nullable is refused in a 3.1 document, pointing at the 3.1 spelling", () => {
    assertDocumentError(
      v31({ Contact: { type: 'object', properties: { name: { type: 'string', nullable: true } } } }),
      "components.schemas.Contact.properties.name.nullable is OpenAPI 3.0 only: in 3.1 write type: [<type>, 'null']",
      '/components/schemas/Contact/properties/name/nullable',
    );
  });

  test('a 3.1 keyword in a 3.0 document is refused', () => {
    assertDocumentError(
      documentWith({ Contact: { type: 'object', properties: { kind: { const: 'person' } } } }, { contacts: 'Contact' }),
      'components.schemas.Contact.properties.kind.const is not an OpenAPI 3.0 Schema Object keyword',
      '/components/schemas/Contact/properties/kind/const',
    );
  });
});
