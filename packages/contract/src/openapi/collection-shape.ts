/**
 * What Gatehouse can serve, checked path by path, so that a document never advertises an operation
 * the server would answer with 404 or serve differently from what it says. A collection `{name}`:
 *   /{name}          post (required: its application/json schema is the record schema), get (a page)
 *   /{name}/{param}  get, put (application/json, the record schema), patch (application/merge-patch+json),
 *                    delete
 * Parameters: the path template's own, `cursor` and `limit` in the query of the list, `If-Match`
 * in the header of put, patch and delete. Nothing else is served, so nothing else may be declared.
 */
import { OpenApiDocumentError, isObject, own, type DocumentLocation } from './document-error.js';
import { fromPointer, getAtPointer } from './json-pointer.js';
import { HTTP_METHODS, type HttpMethod, type OpenApiDocument } from './types.js';

const COLLECTION_PATH = /^\/([^/{}]+)$/;
const ITEM_PATH = /^\/([^/{}]+)\/\{([^/{}]+)\}$/;
const COLLECTION_METHODS: readonly HttpMethod[] = ['get', 'post'];
const ITEM_METHODS: readonly HttpMethod[] = ['get', 'put', 'patch', 'delete'];
/** The request media type each operation with a body takes (routes.ts answers 415 to any other). */
const BODY_MEDIA_TYPE: Partial<Record<HttpMethod, string>> = {
  post: 'application/json',
  put: 'application/json',
  patch: 'application/merge-patch+json',
};

/** Throws {@link OpenApiDocumentError} at the first path or operation the server cannot serve as declared. */
export function checkCollectionShapes(doc: OpenApiDocument): void {
  for (const path of Object.keys(doc.paths)) {
    const item = doc.paths[path] ?? {};
    const collection = COLLECTION_PATH.exec(path);
    const member = ITEM_PATH.exec(path);
    if (collection?.[1] !== undefined) checkCollectionPath(doc, path, collection[1]);
    else if (member?.[1] !== undefined) checkItemPath(doc, path, member[1]);
    else fail(['paths', path], 'is not a path Gatehouse serves: a collection is declared as /{name} and /{name}/{id}');
    const allowed = collection === null ? ITEM_METHODS : COLLECTION_METHODS;
    for (const method of HTTP_METHODS) {
      if (!Object.hasOwn(item, method)) continue;
      if (!allowed.includes(method))
        fail(['paths', path, method], `is not an operation Gatehouse serves (it serves ${allowed.join(', ')} here)`);
      checkOperationShape(doc, path, method, member?.[2]);
    }
  }
}

function checkCollectionPath(doc: OpenApiDocument, path: string, name: string): void {
  const schema = doc.paths[path]?.post?.requestBody?.content['application/json']?.schema;
  if (schema === undefined)
    fail(['paths', path, 'post'], 'must declare the application/json request body schema of the records');
  const items = Object.keys(doc.paths).filter((other) => ITEM_PATH.exec(other)?.[1] === name);
  if (items.length === 0)
    fail(['paths', path], `declares collection '${name}' without its item path /${name}/{id}: declare both`);
  if (items.length > 1) fail(['paths', items[1] ?? path], `is a second item path of collection '${name}'`);
}

function checkItemPath(doc: OpenApiDocument, path: string, name: string): void {
  if (!Object.hasOwn(doc.paths, `/${name}`))
    fail(['paths', path], `is the item path of collection '${name}', but /${name} is not declared`);
}

function checkOperationShape(doc: OpenApiDocument, path: string, method: HttpMethod, idName?: string): void {
  const at: DocumentLocation = ['paths', path, method];
  const operation = doc.paths[path]?.[method];
  const body = operation?.requestBody;
  const mediaType = BODY_MEDIA_TYPE[method];
  if (body !== undefined && mediaType === undefined) fail([...at, 'requestBody'], `is not read by a ${method}`);
  if (body !== undefined && mediaType !== undefined) {
    for (const type of Object.keys(body.content))
      if (type !== mediaType)
        fail([...at, 'requestBody', 'content', type], `is not served: a ${method} body is ${mediaType}`);
  }
  if (method === 'put' && body !== undefined) checkSameRecordSchema(doc, path, idName);
  const parameters = [
    ...listParameters(doc, doc.paths[path]?.['parameters']),
    ...listParameters(doc, operation?.parameters),
  ];
  parameters.forEach((parameter, index) => {
    if (!isServedParameter(parameter, method, idName))
      fail(
        [...at, 'parameters', index],
        `declares the ${parameter.in} parameter '${parameter.name}', which is not served`,
      );
  });
}

/** PUT is validated with the POST schema (records.ts), so it must declare that schema. */
function checkSameRecordSchema(doc: OpenApiDocument, path: string, idName?: string): void {
  const name = path.slice(1, path.length - (idName?.length ?? 0) - 3);
  const post = doc.paths[`/${name}`]?.post?.requestBody?.content['application/json']?.schema;
  const put = doc.paths[path]?.put?.requestBody?.content['application/json']?.schema;
  if (put !== undefined && JSON.stringify(put) !== JSON.stringify(post))
    fail(
      ['paths', path, 'put', 'requestBody', 'content', 'application/json', 'schema'],
      `must be the schema of POST /${name}: a PUT is validated exactly like a POST`,
    );
}

interface ParameterShape {
  readonly name: string;
  readonly in: string;
}

function listParameters(doc: OpenApiDocument, value: unknown): ParameterShape[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry: unknown) => {
    const ref = isObject(entry) ? own(entry, '$ref') : undefined;
    const parameter = typeof ref === 'string' ? getAtPointer(doc, fromPointer(ref.slice(1))) : entry;
    const name = isObject(parameter) ? own(parameter, 'name') : undefined;
    const where = isObject(parameter) ? own(parameter, 'in') : undefined;
    return { name: typeof name === 'string' ? name : '', in: typeof where === 'string' ? where : '' };
  });
}

function isServedParameter({ name, in: where }: ParameterShape, method: HttpMethod, idName?: string): boolean {
  if (where === 'path') return name === idName;
  if (where === 'query') return idName === undefined && method === 'get' && (name === 'cursor' || name === 'limit');
  if (where === 'header') return name.toLowerCase() === 'if-match' && ['put', 'patch', 'delete'].includes(method);
  return false;
}

function fail(at: DocumentLocation, problem: string): never {
  throw new OpenApiDocumentError(at, problem);
}
