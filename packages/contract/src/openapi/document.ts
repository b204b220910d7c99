/**
 * The subset of OpenAPI 3.0.3 (https://spec.openapis.org/oas/v3.0.3) and 3.1
 * (https://spec.openapis.org/oas/v3.1.1) that Gatehouse serves: types, a structural check that
 * fails fast at startup, and the collection declarations.
 *
 * A collection `{name}` is declared by two paths (§4.7.8 Paths Object):
 *   /{name}       with a `post` whose requestBody.content['application/json'].schema is the
 *                 record schema (usually `$ref: '#/components/schemas/X'`), and
 *   /{name}/{id}  (any single path template parameter).
 * Every path of the document must be one of these, with only the operations the server serves
 * (collection-shape.ts): a document never advertises what the server would answer with 404.
 * Only local references are supported; schemas refer into `#/components/schemas/`.
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
import { checkCollectionShapes } from './collection-shape.js';
import { checkSchema, componentNameOfRef, isComponentPointer, type SchemaCheckContext } from './schema-check.js';
import {
  HTTP_METHODS,
  type HttpMethod,
  type OpenApiVersion,
  type PathItemObject,
  type CollectionDeclaration,
  type OpenApiDocument,
  type SchemaObject,
  type SchemaOrReference,
} from './types.js';

export { OpenApiDocumentError, type DocumentLocation } from './document-error.js';
// The document types live in types.ts to keep files short; this module is their public home.
export { HTTP_METHODS } from './types.js';
export type * from './types.js';

/** How much of a document to check. */
export interface DocumentCheckOptions {
  /**
   * Check only what validating request bodies needs, not the collection shapes Gatehouse itself
   * serves: for other APIs' documents (@gatehouse/resource-server).
   */
  readonly anyShape?: boolean;
}

/** Checks `doc` (parsed JSON or YAML) and returns it typed; throws {@link OpenApiDocumentError}. */
export function checkOpenApiDocument(doc: unknown, options: DocumentCheckOptions = {}): OpenApiDocument {
  const root = expectObject(doc, []);
  const version = versionOf(expectString(own(root, 'openapi'), ['openapi']));
  const info = expectObject(own(root, 'info'), ['info']);
  expectString(own(info, 'title'), ['info', 'title']);
  expectString(own(info, 'version'), ['info', 'version']);
  const schemaNames = checkComponentSchemas(root, version);
  const context: SchemaCheckContext = { version, schemaNames, root };
  checkPaths(expectObject(own(root, 'paths'), ['paths']), context);
  checkReferences(root, root, []);
  const checked = root as OpenApiDocument; // every part we type has been checked above
  if (options.anyShape === true) return checked;
  checkCollectionShapes(checked);
  for (const collection of listCollections(checked)) checkRecordSchema(collection);
  return checked;
}

/** The Schema Object dialect of a document: OpenAPI 3.0.x or 3.1.x. */
export function openApiVersion(doc: OpenApiDocument): OpenApiVersion {
  return doc.openapi.startsWith('3.1.') ? '3.1' : '3.0';
}

function versionOf(openapi: string): OpenApiVersion {
  if (/^3\.0\.\d+$/.test(openapi)) return '3.0';
  if (/^3\.1\.\d+$/.test(openapi)) return '3.1';
  throw new OpenApiDocumentError(['openapi'], "must be an OpenAPI 3.0.x or 3.1.x version such as '3.0.3' or '3.1.1'");
}

/** The collections `doc` declares, in document order (see the module comment). */
export function listCollections(doc: OpenApiDocument): CollectionDeclaration[] {
  const collections: CollectionDeclaration[] = [];
  for (const path of Object.keys(doc.paths)) {
    const name = /^\/([^/{}]+)$/.exec(path)?.[1];
    const schema =
      name === undefined ? undefined : doc.paths[path]?.post?.requestBody?.content['application/json']?.schema;
    const itemPath = name === undefined ? undefined : itemPathOf(doc, name);
    if (name === undefined || schema === undefined || itemPath === undefined) continue;
    // Only a bare reference names a component; a 3.1 `$ref` with siblings is a schema of its own.
    const bare = '$ref' in schema && Object.keys(schema).length === 1;
    const schemaName = bare ? (componentNameOfRef(schema.$ref) ?? null) : null;
    collections.push({
      name,
      itemPath,
      schemaName,
      schema: resolveSchema(doc, schema),
      collectionMethods: declaredMethods(doc.paths[path]),
      itemMethods: declaredMethods(doc.paths[itemPath]),
    });
  }
  return collections;
}

function declaredMethods(item: PathItemObject | undefined): HttpMethod[] {
  return HTTP_METHODS.filter((method) => item !== undefined && Object.hasOwn(item, method));
}

/**
 * Follows `$ref`s (component aliases and pointers inside components included) to a Schema Object;
 * throws on a cycle. A 3.1 `$ref` with sibling keywords is followed too: the siblings narrow the
 * target, and what this returns is used for what the target declares (properties, null).
 */
export function resolveSchema(doc: OpenApiDocument, schema: SchemaOrReference): SchemaObject {
  const seen = new Set<string>();
  let current = schema;
  while ('$ref' in current) {
    const ref = current.$ref;
    const next = isComponentPointer(ref) ? getAtPointer(doc, fromPointer(ref.slice(1))) : undefined;
    if (typeof next !== 'object' || next === null || seen.has(ref)) {
      const name = componentNameOfRef(ref);
      throw new OpenApiDocumentError(['components', 'schemas', name ?? ref], 'is a dangling or circular reference');
    }
    seen.add(ref);
    current = next as SchemaOrReference;
  }
  return current;
}

/** `/{name}/{param}`, the item path of collection `name`, if the document declares it. */
export function itemPathOf(doc: OpenApiDocument, name: string): string | undefined {
  return Object.keys(doc.paths).find(
    (path) => path.startsWith(`/${name}/`) && /^\{[^/{}]+\}$/.test(path.slice(name.length + 2)),
  );
}

function checkComponentSchemas(root: Readonly<Record<string, unknown>>, version: OpenApiVersion): Set<string> {
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
  const context: SchemaCheckContext = { version, schemaNames: names, root };
  for (const name of names) checkSchema(table[name], ['components', 'schemas', name], context);
  for (const name of names) resolveSchema(root as OpenApiDocument, { $ref: `#/components/schemas/${name}` });
  return names;
}

function checkPaths(paths: Readonly<Record<string, unknown>>, context: SchemaCheckContext): void {
  for (const path of Object.keys(paths)) {
    if (!path.startsWith('/'))
      throw new OpenApiDocumentError(['paths', path], "must start with '/' (OpenAPI 3.0.3 §4.7.8)");
    const item = expectObject(paths[path], ['paths', path]);
    for (const method of HTTP_METHODS) {
      if (Object.hasOwn(item, method)) checkOperation(item[method], ['paths', path, method], context);
    }
  }
}

function checkOperation(value: unknown, at: DocumentLocation, context: SchemaCheckContext): void {
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
    if (schema !== undefined) checkSchema(schema, [...at, 'requestBody', 'content', mediaType, 'schema'], context);
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
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.length === 1 && type[0] === 'object')) {
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
