import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validate as validate30 } from '@hyperjump/json-schema/openapi-3-0';
import { validate as validate31 } from '@hyperjump/json-schema/openapi-3-1';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { apiDefinitionFrom } from '../src/api/definition.js';
import { api, assertInvalidValue, assertMissingFields, clientWithToken, type Api } from './_api.js';
import { API_DOCUMENTS, widgetsDocument } from './_documents.js';
import { assertDescribed } from './_openapi.js';
import { startTestServer, type TestServer } from './_server.js';

type Json = Record<string, any>;

/** Validates `document` against the official OpenAPI meta-schema of its version (with its schema dialect). */
async function assertValidOpenApi(document: unknown, label: string): Promise<void> {
  const version = String((document as Json)['openapi']);
  const output = version.startsWith('3.0.')
    ? await validate30('https://spec.openapis.org/oas/3.0/schema', document as never, 'BASIC')
    : await validate31('https://spec.openapis.org/oas/3.1/schema-base', document as never, 'BASIC');
  if (!output.valid)
    assert.fail(`${label} is not a valid OpenAPI ${version} document: ${JSON.stringify(output.errors)}`);
}

const readYaml = (path: string): Json => parseYaml(readFileSync(path, 'utf8')) as Json;

describe('the documents pass an OpenAPI validator (@hyperjump/json-schema, the official meta-schemas)', () => {
  for (const { version, api: path } of API_DOCUMENTS) {
    it(`the ${version === '3.0' ? 'shipped openapi.yaml' : '3.1 twin'} (OpenAPI ${version}), and what the server serves from it`, async () => {
      await assertValidOpenApi(readYaml(path), path);
      const server = await startTestServer({ api: path });
      try {
        await assertValidOpenApi(await (await fetch(`${server.url}/v2/openapi.json`)).json(), 'the served document');
      } finally {
        await server.close();
      }
    });
  }

  it('the second collection (widgets), as written and as served', async () => {
    await assertValidOpenApi(widgetsDocument(), 'widgets');
    const server = await startTestServer({ api: apiDefinitionFrom(widgetsDocument(), 'widgets') });
    try {
      await assertValidOpenApi(await (await fetch(`${server.url}/v2/openapi.json`)).json(), 'served widgets');
    } finally {
      await server.close();
    }
  });

  it('the 3.1 twin declares the same paths, operations and statuses as the shipped document', () => {
    const [shipped, twin] = API_DOCUMENTS.map(({ api: path }) => readYaml(path));
    const outline = (doc: Json | undefined): string[] =>
      Object.entries(doc?.['paths'] as Record<string, Json>).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([key]) => key !== 'parameters' && !key.startsWith('x-'))
          .map(([method, operation]) => `${method} ${path} ${Object.keys(operation.responses).join(',')}`),
      );
    assert.deepEqual(outline(twin), outline(shipped));
  });
});

describe('a response the served document does not describe fails the test that got it', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const json = (body: unknown, type = 'application/json', headers: Record<string, string> = {}) => ({
    headers: new Headers({ 'content-type': type, ...headers }),
    text: JSON.stringify(body),
    body,
  });
  const problem = { type: '/problems/x', title: 'X', status: 418, detail: 'x', instance: '/v2/contacts' };
  const page = { items: [], next_cursor: null };

  it('a page as declared passes', async () => {
    await assertDescribed(server.url, 'GET', '/v2/contacts', { status: 200, ...json(page) });
  });

  for (const [what, method, path, response, message] of [
    [
      'a status not declared',
      'GET',
      '/v2/contacts',
      { status: 418, ...json(problem, 'application/problem+json') },
      /does not declare/,
    ],
    ['a body off the schema', 'GET', '/v2/contacts', { status: 200, ...json({ items: [] }) }, /does not match/],
    ['a media type not declared', 'GET', '/v2/contacts', { status: 200, ...json(page, 'text/plain') }, /text\/plain/],
    [
      'a header not declared',
      'GET',
      '/v2/contacts',
      { status: 200, ...json(page, 'application/json', { etag: '"1"' }) },
      /etag/,
    ],
    [
      'a 412 on GET',
      'GET',
      '/v2/contacts/abc',
      { status: 412, ...json(problem, 'application/problem+json') },
      /does not declare/,
    ],
    [
      'a 200 on a path the document does not have',
      'GET',
      '/v2/other',
      { status: 200, ...json(page) },
      /no such operation/,
    ],
  ] as const) {
    it(`${what} fails`, async () => {
      await assert.rejects(assertDescribed(server.url, method, path, response), { message });
    });
  }
});

/** A collection with a required field that allows null and one that does not, in each version's spelling. */
function nullableDocument(version: '3.0' | '3.1'): Json {
  const nullableString = version === '3.0' ? { type: 'string', nullable: true } : { type: ['string', 'null'] };
  const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } };
  const note: Json = {
    type: 'object',
    required: ['title', 'subtitle'],
    additionalProperties: false,
    properties: { title: { type: 'string' }, subtitle: nullableString },
  };
  if (version === '3.1') {
    note['properties'].kind = { const: 'note' };
    note['properties'].author = { $ref: '#/components/schemas/Note/$defs/Author' };
    note['$defs'] = { Author: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } };
  }
  return {
    openapi: version === '3.0' ? '3.0.3' : '3.1.1',
    info: { title: `Notes ${version}`, version: '1' },
    paths: {
      '/notes': {
        post: {
          requestBody: body,
          // A problem response declared with another media type: the server adds application/problem+json.
          responses: {
            '201': { description: 'Created' },
            '400': { description: 'Refused', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
      '/notes/{id}': { put: { requestBody: body, responses: { '200': { description: 'Replaced' } } } },
    },
    components: { schemas: { Note: note } },
  };
}

for (const version of ['3.0', '3.1'] as const)
  describe(`null for a required field, OpenAPI ${version}: missing unless the schema allows null`, () => {
    let server: TestServer;
    let rest: Api;
    before(async () => {
      server = await startTestServer({ api: apiDefinitionFrom(nullableDocument(version), `notes-${version}`) });
      rest = api(server, (await clientWithToken(server, 'notes', ['notes:read', 'notes:write'])).access_token);
    });
    after(() => server.close());

    it(`null where the schema allows it (${version === '3.0' ? 'nullable: true' : 'type: [string, "null"]'}) is a value: 201`, async () => {
      const created = await rest.post('/v2/notes', { title: 'T', subtitle: null });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.subtitle, null);
    });

    it("null where it does not is the missing-field 400, POST and PUT alike: Missing required field 'title' in request body", async () => {
      assertMissingFields(await rest.post('/v2/notes', { title: null, subtitle: 'S' }), [
        { field: 'title', pointer: '/title' },
      ]);
      const created = await rest.post('/v2/notes', { title: 'T', subtitle: 'S' });
      assertMissingFields(await rest.put(`/v2/notes/${String(created.body.id)}`, { title: null, subtitle: null }), [
        { field: 'title', pointer: '/title' },
      ]);
    });

    if (version === '3.1')
      it('2020-12 keywords are enforced: const, and a $ref into $defs with its own required field', async () => {
        assertInvalidValue(await rest.post('/v2/notes', { title: 'T', subtitle: null, kind: 'memo' }), 'kind');
        assertMissingFields(await rest.post('/v2/notes', { title: 'T', subtitle: null, author: {} }), [
          { field: 'author.name', pointer: '/author/name' },
        ]);
        const created = await rest.post('/v2/notes', {
          title: 'T',
          subtitle: null,
          kind: 'note',
          author: { name: 'A' },
        });
        assert.equal(created.status, 201, created.text);
      });
  });

describe('a document the server cannot serve stops it, with a message naming the path', () => {
  const base = (): Json => nullableDocument('3.0');
  const cases: [string, (doc: Json) => void, string][] = [
    [
      'a collection without its item path',
      (doc) => delete doc['paths']['/notes/{id}'],
      "paths['/notes'] declares collection 'notes' without its item path /notes/{id}",
    ],
    [
      'an operation shape it does not support',
      (doc) => (doc['paths']['/notes'].delete = { responses: { '204': { description: 'Gone' } } }),
      "paths['/notes'].delete is not an operation Gatehouse serves",
    ],
    [
      'a $ref it cannot resolve',
      (doc) => (doc['paths']['/notes'].post.responses['400'] = { $ref: '#/components/responses/Missing' }),
      "paths['/notes'].post.responses['400'].$ref refers to '#/components/responses/Missing'",
    ],
    [
      'a writable id in the record schema',
      (doc) => (doc['components'].schemas.Note.properties.id = { type: 'string' }),
      'components.schemas.Note.properties.id must be readOnly: the server assigns record ids',
    ],
  ];
  for (const [what, breakIt, message] of cases)
    it(`${what}: ${message}`, async () => {
      const doc = base();
      breakIt(doc);
      const dir = mkdtempSync(join(tmpdir(), 'gatehouse-doc-'));
      const path = join(dir, 'notes.yaml');
      writeFileSync(path, toYaml(doc));
      after(() => rmSync(dir, { recursive: true, force: true }));
      await assert.rejects(startTestServer({ api: path }), (error: Error) => {
        assert.equal(error.name, 'ApiDefinitionError');
        assert.ok(error.message.startsWith(`the OpenAPI document ${path} is broken: `), error.message);
        assert.ok(error.message.includes(message), error.message);
        return true;
      });
    });
});
