/**
 * The subset of OpenAPI 3.0.3 (https://spec.openapis.org/oas/v3.0.3) that Gatehouse serves:
 * types, a structural check that fails fast at startup, and the collection declarations.
 *
 * A collection `{name}` is declared by two paths (§4.7.8 Paths Object):
 *   /{name}       with a `post` whose requestBody.content['application/json'].schema is the
 *                 record schema (usually `$ref: '#/components/schemas/X'`), and
 *   /{name}/{id}  (any single path template parameter).
 * A top-level path without both is not a collection and is ignored by {@link listCollections}.
 * Only local references are supported; schemas may only refer to `#/components/schemas/<name>`.
 */
import {
  OpenApiDocumentError,
  expectObject,
  expectString,
  isObject,
  own,
  type DocumentLocation,
} from './document-error.js';
import { fromPointer, getAtPointer } from './json-pointer.js';
import { checkSchema, componentNameOfRef } from './schema-check.js';
import {
  HTTP_METHODS,
  type CollectionDeclaration,
  type OpenApiDocument,
  type SchemaObject,
  type SchemaOrReference,
} from './types.js';

export { OpenApiDocumentError, type DocumentLocation } from './document-error.js';
// The document types live in types.ts to keep files short; this module is their public home.
export { HTTP_METHODS } from './types.js';
export type * from './types.js';

/** Checks `doc` (parsed JSON or YAML) and returns it typed; throws {@link OpenApiDocumentError}. */
export function checkOpenApiDocument(doc: unknown): OpenApiDocument {
  const root = expectObject(doc, []);
  if (!/^3\.0\.\d+$/.test(expectString(own(root, 'openapi'), ['openapi']))) {
    throw new OpenApiDocumentError(['openapi'], "must be an OpenAPI 3.0.x version such as '3.0.3'");
  }
  const info = expectObject(own(root, 'info'), ['info']);
  expectString(own(info, 'title'), ['info', 'title']);
  expectString(own(info, 'version'), ['info', 'version']);
  const schemaNames = checkComponentSchemas(root);
  checkPaths(expectObject(own(root, 'paths'), ['paths']), schemaNames);
  checkReferences(root, root, []);
  const checked = root as OpenApiDocument; // every part we type has been checked above
  for (const collection of listCollections(checked)) checkRecordSchema(collection);
  return checked;
}

/** The collections `doc` declares, in document order (see the module comment). */
export function listCollections(doc: OpenApiDocument): CollectionDeclaration[] {
  const collections: CollectionDeclaration[] = [];
  for (const path of Object.keys(doc.paths)) {
    const name = /^\/([^/{}]+)$/.exec(path)?.[1];
    const schema =
      name === undefined ? undefined : doc.paths[path]?.post?.requestBody?.content['application/json']?.schema;
    if (name === undefined || schema === undefined || !hasItemPath(doc, name)) continue;
    const schemaName = '$ref' in schema ? (componentNameOfRef(schema.$ref) ?? null) : null;
    collections.push({ name, schemaName, schema: resolveSchema(doc, schema) });
  }
  return collections;
}

/** Follows `$ref`s (component aliases included) to a Schema Object; throws on a cycle. */
export function resolveSchema(doc: OpenApiDocument, schema: SchemaOrReference): SchemaObject {
  const seen = new Set<string>();
  let current = schema;
  while ('$ref' in current) {
    const name = componentNameOfRef(current.$ref);
    const next = name === undefined ? undefined : doc.components?.schemas?.[name];
    if (name === undefined || next === undefined || seen.has(name)) {
      throw new OpenApiDocumentError(
        ['components', 'schemas', name ?? current.$ref],
        'is a dangling or circular reference',
      );
    }
    seen.add(name);
    current = next;
  }
  return current;
}

function hasItemPath(doc: OpenApiDocument, name: string): boolean {
  return Object.keys(doc.paths).some(
    (path) => path.startsWith(`/${name}/`) && /^\{[^/{}]+\}$/.test(path.slice(name.length + 2)),
  );
}

function checkComponentSchemas(root: Readonly<Record<string, unknown>>): Set<string> {
  const components = own(root, 'components');
  if (components === undefined) return new Set();
  const schemas = own(expectObject(components, ['components']), 'schemas');
  if (schemas === undefined) return new Set();
  const table = expectObject(schemas, ['components', 'schemas']);
  const names = new Set(Object.keys(table));
  for (const name of names) {
    if (!/^[a-zA-Z0-9.\-_]+$/.test(name)) {
      throw new OpenApiDocumentError(
        ['components', 'schemas', name],
        "must use only letters, digits, '.', '-' and '_' (OpenAPI 3.0.3 §4.7.7)",
      );
    }
  }
  for (const name of names) checkSchema(table[name], ['components', 'schemas', name], names);
  for (const name of names) resolveSchema(root as OpenApiDocument, { $ref: `#/components/schemas/${name}` });
  return names;
}

function checkPaths(paths: Readonly<Record<string, unknown>>, schemaNames: ReadonlySet<string>): void {
  for (const path of Object.keys(paths)) {
    if (!path.startsWith('/'))
      throw new OpenApiDocumentError(['paths', path], "must start with '/' (OpenAPI 3.0.3 §4.7.8)");
    const item = expectObject(paths[path], ['paths', path]);
    for (const method of HTTP_METHODS) {
      if (Object.hasOwn(item, method)) checkOperation(item[method], ['paths', path, method], schemaNames);
    }
  }
}

function checkOperation(value: unknown, at: DocumentLocation, schemaNames: ReadonlySet<string>): void {
  const operation = expectObject(value, at);
  expectObject(own(operation, 'responses'), [...at, 'responses']);
  const body = own(operation, 'requestBody');
  if (body === undefined) return;
  const requestBody = expectObject(body, [...at, 'requestBody']);
  if (Object.hasOwn(requestBody, '$ref')) {
    throw new OpenApiDocumentError([...at, 'requestBody', '$ref'], 'is not supported: declare the request body inline');
  }
  const content = expectObject(own(requestBody, 'content'), [...at, 'requestBody', 'content']);
  for (const mediaType of Object.keys(content)) {
    const media = expectObject(content[mediaType], [...at, 'requestBody', 'content', mediaType]);
    const schema = own(media, 'schema');
    if (schema !== undefined) checkSchema(schema, [...at, 'requestBody', 'content', mediaType, 'schema'], schemaNames);
  }
}

/** Keys whose values are example data, not document structure, so a `$ref` in them is just text. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum']);

/** Every `$ref` anywhere (responses, parameters...) must be local and must resolve. */
function checkReferences(root: unknown, node: unknown, at: DocumentLocation): void {
  if (Array.isArray(node)) node.forEach((item: unknown, index) => checkReferences(root, item, [...at, index]));
  if (!isObject(node)) return;
  const ref = own(node, '$ref');
  if (typeof ref === 'string') {
    if (!ref.startsWith('#/') || getAtPointer(root, fromPointer(ref.slice(1))) === undefined) {
      throw new OpenApiDocumentError(
        [...at, '$ref'],
        `refers to '${ref}', which is not a local reference that resolves`,
      );
    }
  }
  for (const key of Object.keys(node)) if (!DATA_KEYS.has(key)) checkReferences(root, node[key], [...at, key]);
}

function checkRecordSchema(collection: CollectionDeclaration): void {
  const type = collection.schema.type;
  if (type !== undefined && type !== 'object') {
    const at =
      collection.schemaName === null
        ? ['paths', `/${collection.name}`, 'post']
        : ['components', 'schemas', collection.schemaName];
    throw new OpenApiDocumentError(
      [...at, 'type'],
      `must be 'object': collection '${collection.name}' stores JSON objects`,
    );
  }
}
