/**
 * What the server adds to the operator's OpenAPI document so that the document it validates with
 * and serves describes every answer (docs/rest-api.md, "REST API"). The document controls the collections,
 * their schemas and everything it declares; the server adds only what is missing:
 * - the record id: `properties.id` (`readOnly`) on each record schema, so that a record as GET
 *   returned it can be PUT back, and so that the server's id is never a body field;
 * - every status each operation can answer, with the problem schema, and the success responses'
 *   content when the document leaves it out;
 * - the headers: `ETag`, `Location`, `WWW-Authenticate`, `Retry-After`, and the `If-Match` parameter;
 * - an example for the path parameter, and the parameter itself when the document omits it;
 * - whose records a caller reaches (ownership.ts): both extensions on the collection's path item,
 *   defaults written out, and a line of each path item's description saying the rule;
 * - the roles an operation declares (`x-required-roles`, operation-roles.ts): a line of its
 *   description, and `insufficient_role` among its 403 problems.
 * Runs once at startup on a copy; the request path never sees it.
 */
import {
  OpenApiDocumentError,
  listCollections,
  openApiVersion,
  resolveSchema,
  type CollectionDeclaration,
  type HttpMethod,
  type OpenApiDocument,
} from '@gatehouse/contract';
import { EXAMPLE_ID, problemResponse, PROBLEM_SCHEMAS, SUCCESS_HEADERS } from '../json-api/document-parts.js';
import { declaredRoles } from '../json-api/required-roles.js';
import { rolesDescription } from './operation-roles.js';
import {
  CLIENT_ACCESS_EXTENSION,
  clientMay,
  collectionPolicy,
  OWNERSHIP_EXTENSION,
  policyDescription,
  type CollectionPolicy,
} from './ownership.js';

type Json = Record<string, unknown>;

/** The statuses, besides success, each operation can answer (see routes.ts and records.ts). */
const PROBLEM_STATUSES: Readonly<Record<'collection' | 'item', Partial<Record<HttpMethod, readonly number[]>>>> = {
  collection: {
    get: [400, 401, 403, 500, 503],
    post: [400, 401, 403, 413, 415, 422, 500, 503],
  },
  item: {
    get: [400, 401, 403, 404, 500, 503],
    put: [400, 401, 403, 404, 412, 413, 415, 422, 500, 503],
    patch: [400, 401, 403, 404, 412, 413, 415, 422, 500, 503],
    delete: [400, 401, 403, 404, 412, 413, 415, 500, 503],
  },
};

/** The success status of each operation. */
const SUCCESS: Readonly<Record<'collection' | 'item', Partial<Record<HttpMethod, string>>>> = {
  collection: { get: '200', post: '201' },
  item: { get: '200', put: '200', patch: '200', delete: '204' },
};

/** A deep copy of the checked `document` with what the server adds (see the module comment). */
export function enrichDocument(document: OpenApiDocument): Json {
  const copy = structuredClone(document) as unknown as Json;
  const collections = listCollections(document);
  const components = objectAt(copy, 'components');
  const schemas = objectAt(components, 'schemas');
  // The document's own `Problem` is used as it is; otherwise the server's, with its `FieldError`.
  if (!Object.hasOwn(schemas, 'Problem'))
    for (const [name, schema] of Object.entries(PROBLEM_SCHEMAS)) schemas[name] ??= structuredClone(schema);
  const paths = copy['paths'] as Json;
  for (const collection of collections) {
    const recordSchema = addRecordId(copy as unknown as OpenApiDocument, collection);
    const idName = /\{([^}]+)\}$/.exec(collection.itemPath)?.[1] ?? 'id';
    const collectionPath = paths[`/${collection.name}`] as Json;
    const itemPath = paths[collection.itemPath] as Json;
    const policy = collectionPolicy(document, collection.name);
    statePolicy(collectionPath, itemPath, policy);
    const collectionAt = ['paths', `/${collection.name}`];
    for (const method of collection.collectionMethods)
      enrichOperation(copy, collectionPath[method] as Json, 'collection', method, recordSchema, policy, collectionAt);
    const itemAt = ['paths', collection.itemPath];
    for (const method of collection.itemMethods)
      enrichOperation(copy, itemPath[method] as Json, 'item', method, recordSchema, policy, itemAt);
    addPathParameter(copy, itemPath, idName);
  }
  return copy;
}

/** The record schema (a `$ref` or inline) with a read-only `id`; the schema object is changed in place. */
function addRecordId(copy: OpenApiDocument, collection: CollectionDeclaration): unknown {
  const post = copy.paths[`/${collection.name}`]?.post?.requestBody?.content['application/json']?.schema;
  if (post === undefined) throw new Error(`collection ${collection.name} has no POST schema`);
  const target = resolveSchema(copy, post) as Json;
  const properties = objectAt(target, 'properties');
  const id = properties['id'];
  if (id === undefined) {
    properties['id'] = { type: 'string', readOnly: true, description: 'The record id, assigned by the server.' };
  } else if (resolveSchema(copy, id as Json).readOnly !== true) {
    const at =
      collection.schemaName === null
        ? ['paths', `/${collection.name}`, 'post', 'requestBody', 'content', 'application/json', 'schema']
        : ['components', 'schemas', collection.schemaName];
    throw new OpenApiDocumentError([...at, 'properties', 'id'], 'must be readOnly: the server assigns record ids');
  }
  return post;
}

/**
 * The collection's rule, stated where a reader of the document looks: both extensions on the
 * collection's path item (the defaults written out), and a line of each path item's description.
 */
function statePolicy(collectionPath: Json, itemPath: Json, policy: CollectionPolicy): void {
  collectionPath[OWNERSHIP_EXTENSION] = policy.ownership;
  collectionPath[CLIENT_ACCESS_EXTENSION] = policy.clientAccess;
  const line = policyDescription(policy);
  for (const item of [collectionPath, itemPath]) {
    const own = item['description'];
    item['description'] = typeof own === 'string' ? `${own}\n\n${line}` : line;
  }
}

function enrichOperation(
  copy: Json,
  operation: Json,
  kind: 'collection' | 'item',
  method: HttpMethod,
  recordSchema: unknown,
  policy: CollectionPolicy,
  at: readonly string[],
): void {
  const responses = objectAt(operation, 'responses');
  const roles = declaredRoles(operation, [...at, method]);
  if (roles !== undefined) {
    const own = operation['description'];
    operation['description'] =
      typeof own === 'string' ? `${own}\n\n${rolesDescription(roles)}` : rolesDescription(roles);
  }
  const success = SUCCESS[kind][method];
  if (success !== undefined) enrichSuccess(copy, responses, success, kind, method, recordSchema);
  // A token with no user may be refused here by the collection's rule (ownership.ts).
  const forbidden = [
    ...(clientMay(policy, method === 'get' ? 'read' : 'write') ? [] : (['owner_required'] as const)),
    ...(roles === undefined ? [] : (['insufficient_role'] as const)),
  ];
  for (const status of PROBLEM_STATUSES[kind][method] ?? []) {
    const declared = responses[String(status)];
    if (declared === undefined) {
      responses[String(status)] = problemResponse(status, status === 403 ? forbidden : []);
      continue;
    }
    addHeaders(copy, declared as Json, problemResponse(status)['headers'] as Json | undefined);
    // The answer is always application/problem+json, whatever else the document lists.
    const content = objectAt(resolved(copy, declared as Json), 'content');
    content['application/problem+json'] ??= (problemResponse(status)['content'] as Json)['application/problem+json'];
  }
  if (method === 'put' || method === 'patch' || method === 'delete') addIfMatch(copy, operation);
}

function enrichSuccess(
  copy: Json,
  responses: Json,
  status: string,
  kind: 'collection' | 'item',
  method: HttpMethod,
  recordSchema: unknown,
): void {
  const response = resolved(copy, (responses[status] ??= { description: 'Success' }) as Json);
  if (status !== '204' && response['content'] === undefined) {
    const schema = kind === 'collection' && method === 'get' ? pageSchema(copy, recordSchema) : recordSchema;
    response['content'] = { 'application/json': { schema } };
  }
  const headers: Json = {};
  if (method === 'post') headers['Location'] = SUCCESS_HEADERS['Location'];
  if (status === '200' || status === '201')
    if (kind === 'item' || method === 'post') headers['ETag'] = SUCCESS_HEADERS['ETag'];
  addHeaders(copy, response, headers);
}

function pageSchema(copy: Json, recordSchema: unknown): Json {
  const nullableString =
    openApiVersion(copy as unknown as OpenApiDocument) === '3.0'
      ? { type: 'string', nullable: true }
      : { type: ['string', 'null'] };
  return {
    type: 'object',
    required: ['items', 'next_cursor'],
    properties: { items: { type: 'array', items: recordSchema }, next_cursor: nullableString },
  };
}

/** Adds each header the response does not declare (header names are case-insensitive, RFC 9110 §5.1). */
function addHeaders(copy: Json, response: Json, headers: Json | undefined): void {
  if (headers === undefined) return;
  const target = resolved(copy, response);
  const declared = objectAt(target, 'headers');
  const names = new Set(Object.keys(declared).map((name) => name.toLowerCase()));
  for (const [name, header] of Object.entries(headers)) if (!names.has(name.toLowerCase())) declared[name] = header;
}

function addIfMatch(copy: Json, operation: Json): void {
  const parameters = (operation['parameters'] ??= []) as Json[];
  const declared = parameters.some((p) => String(resolved(copy, p)['name']).toLowerCase() === 'if-match');
  if (!declared)
    parameters.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'RFC 9110 §13.1.1: the ETag this change is based on; 412 when it is not the current one.',
      schema: { type: 'string' },
      example: '"1"',
    });
}

function addPathParameter(copy: Json, item: Json, idName: string): void {
  const parameters = (item['parameters'] ??= []) as Json[];
  const operations = Object.values(item).filter(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  );
  const all = [...parameters, ...operations.flatMap((op) => ((op as Json)['parameters'] ?? []) as Json[])];
  const declared = all.map((p) => resolved(copy, p)).filter((p) => p['in'] === 'path' && p['name'] === idName);
  if (declared.length === 0) {
    parameters.push({ name: idName, in: 'path', required: true, schema: { type: 'string' }, example: EXAMPLE_ID });
    return;
  }
  for (const parameter of declared) parameter['example'] ??= EXAMPLE_ID;
}

/** The object a `$ref` points at in `copy` (changed in place), or `value` itself. */
function resolved(copy: Json, value: Json): Json {
  let current = value;
  for (let hops = 0; typeof current['$ref'] === 'string' && hops < 10; hops++) {
    const tokens = current['$ref']
      .slice(2)
      .split('/')
      .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
    current = tokens.reduce<Json>((node, token) => node[token] as Json, copy);
  }
  return current;
}

function objectAt(parent: Json, key: string): Json {
  const value = parent[key];
  if (typeof value === 'object' && value !== null) return value as Json;
  const created: Json = {};
  parent[key] = created;
  return created;
}
