import { readFileSync } from 'node:fs';
import {
  HTTP_METHODS,
  checkOpenApiDocument,
  compileBodyValidator,
  type BodyValidator,
  type OpenApiDocument,
  type OperationObject,
} from '@gatehouse/contract';
import { parse as parseYaml } from 'yaml';

/** One operation of the API's document, as the kit enforces it. */
export interface Operation {
  readonly method: string;
  readonly path: string;
  /**
   * The OpenAPI security requirement, as alternatives: each is the list of scopes one requirement
   * object asks for (RFC 6749 §3.3 scopes of every scheme it names). `[]` alone means anonymous
   * access is allowed; no alternatives at all means the operation is public.
   */
  readonly security: readonly (readonly string[])[];
  /** The `application/json` request body's validator, when the operation declares one. */
  readonly body: BodyValidator | undefined;
  readonly bodyRequired: boolean;
}

interface PathMatcher {
  readonly pattern: RegExp;
  readonly templated: number;
  readonly operations: ReadonlyMap<string, Operation>;
}

/** Finds the operation of a request: `(method, path) => Operation | undefined`. */
export type OperationFinder = (method: string, path: string) => Operation | undefined;

/** Reads an OpenAPI 3.0 or 3.1 document from a YAML or JSON file, or takes one already parsed. */
export function loadDocument(source: string | object): OpenApiDocument {
  const raw: unknown = typeof source === 'string' ? parseYaml(readFileSync(source, 'utf8')) : source;
  // Any API's paths, not only the collections Gatehouse serves.
  return checkOpenApiDocument(raw, { anyShape: true });
}

/**
 * Compiles every operation of `doc` once. Concrete paths win over templated ones (OpenAPI 3.1
 * §4.8.8: "when matching URLs, concrete (non-templated) paths would be matched before their
 * templated counterparts").
 */
export function operationFinder(doc: OpenApiDocument, basePath = ''): OperationFinder {
  // Concrete paths by the path itself (one lookup, however many the document has), also with one
  // trailing slash more; templated ones tried in order, fewest parameters first.
  const concrete = new Map<string, ReadonlyMap<string, Operation>>();
  const matchers: PathMatcher[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const operations = new Map<string, Operation>();
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (operation) operations.set(method.toUpperCase(), compileOperation(doc, path, method, operation));
    }
    const templated = (path.match(/\{/g) ?? []).length;
    if (templated === 0) {
      // The first path of the document that matches wins, as it did when every path was a pattern.
      for (const key of [basePath + path, `${basePath}${path}/`]) if (!concrete.has(key)) concrete.set(key, operations);
    } else matchers.push({ pattern: pathPattern(basePath + path), templated, operations });
  }
  matchers.sort((a, b) => a.templated - b.templated);
  return (method, path) => {
    const verb = method.toUpperCase();
    const exact = concrete.get(path);
    if (exact !== undefined) return exact.get(verb);
    for (const matcher of matchers) {
      if (matcher.pattern.test(path)) return matcher.operations.get(verb);
    }
    return undefined;
  };
}

function compileOperation(doc: OpenApiDocument, path: string, method: string, operation: OperationObject): Operation {
  const schema = operation.requestBody?.content['application/json']?.schema;
  const at = ['paths', path, method, 'requestBody', 'content', 'application/json', 'schema'];
  return {
    method: method.toUpperCase(),
    path,
    security: securityOf(operation, doc),
    body: schema === undefined ? undefined : compileBodyValidator(doc, schema, at),
    bodyRequired: operation.requestBody?.required === true,
  };
}

type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/** The operation's own `security`, else the document's (OpenAPI 3.1 §4.8.10 `security`). */
function securityOf(operation: OperationObject, doc: OpenApiDocument): string[][] {
  const requirements = (operation['security'] ??
    (doc as { security?: unknown }).security ??
    []) as SecurityRequirement[];
  return requirements.map((requirement) => [...new Set(Object.values(requirement).flat())]);
}

function pathPattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}
