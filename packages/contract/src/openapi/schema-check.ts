/**
 * Structural check of Schema Objects, OpenAPI 3.0.3 (§4.7.24) or 3.1 (JSON Schema 2020-12). It
 * catches what would otherwise fail late or, worse, silently: a typo'd keyword (`minLenght`), a
 * keyword of the other version, a malformed `required`, a regex that does not compile, a dangling or non-local `$ref`.
 */
import { OpenApiDocumentError, expectObject, own, type DocumentLocation } from './document-error.js';
import { fromPointer, getAtPointer, unescapePointerToken } from './json-pointer.js';
import type { OpenApiVersion } from './types.js';

/** What a Schema Object is checked against: the document's version and its component names. */
export interface SchemaCheckContext {
  readonly version: OpenApiVersion;
  readonly schemaNames: ReadonlySet<string>;
  /** The whole document, to resolve references that point inside a component (`…/X/$defs/Y`). */
  readonly root: unknown;
}

type KeywordCheck = (value: unknown, at: DocumentLocation, context: SchemaCheckContext) => void;

const SCHEMA_TYPES_30 = ['string', 'number', 'integer', 'boolean', 'array', 'object'];
const SCHEMA_TYPES_31 = [...SCHEMA_TYPES_30, 'null'];
const COMPONENT_REF = /^#\/components\/schemas\/([^/]+)$/;
const COMPONENT_POINTER = /^#\/components\/schemas\/[^/]+(\/.*)?$/;

/** `#/components/schemas/Contact` → `Contact`; `undefined` for any other reference. */
export function componentNameOfRef(ref: string): string | undefined {
  const match = COMPONENT_REF.exec(ref);
  return match?.[1] === undefined ? undefined : unescapePointerToken(match[1]);
}

/** Whether `ref` points at or inside a component schema (`#/components/schemas/X/$defs/Y`). */
export function isComponentPointer(ref: string): boolean {
  return COMPONENT_POINTER.test(ref);
}

/** Throws {@link OpenApiDocumentError} unless `value` is a usable Schema or Reference Object. */
export function checkSchema(value: unknown, at: DocumentLocation, context: SchemaCheckContext): void {
  const schema = expectObject(value, at);
  if (Object.hasOwn(schema, '$ref')) {
    checkSchemaRef(schema['$ref'], [...at, '$ref'], context);
    // 3.0 §4.7.23: a Reference Object's other properties SHALL be ignored. In 3.1 (JSON Schema
    // 2020-12 §8.2.3.1) `$ref` is one keyword among others, so its siblings apply and are checked.
    if (context.version === '3.0') return;
  }
  const table = context.version === '3.0' ? KEYWORDS_30 : KEYWORDS_31;
  const spec = context.version === '3.0' ? 'OpenAPI 3.0.3 §4.7.24' : 'OpenAPI 3.1 / JSON Schema 2020-12';
  for (const key of Object.keys(schema)) {
    if (key === '$ref') continue;
    const check = table.get(key);
    if (check !== undefined) check(schema[key], [...at, key], context);
    else if (key === 'nullable') fail([...at, key], "is OpenAPI 3.0 only: in 3.1 write type: [<type>, 'null']");
    else if (!key.startsWith('x-'))
      fail([...at, key], `is not an OpenAPI ${context.version} Schema Object keyword (${spec})`);
  }
  if (context.version === '3.0' && own(schema, 'type') === 'array' && !Object.hasOwn(schema, 'items')) {
    fail([...at, 'items'], 'must be present when type is array (OpenAPI 3.0.3 §4.7.24)');
  }
  if (own(schema, 'readOnly') === true && own(schema, 'writeOnly') === true) {
    fail([...at, 'readOnly'], 'must not be true together with writeOnly (OpenAPI 3.0.3 §4.7.24)');
  }
}

function checkSchemaRef(ref: unknown, at: DocumentLocation, context: SchemaCheckContext): void {
  if (typeof ref !== 'string') fail(at, 'must be a string');
  const name = componentNameOfRef(ref);
  if (name !== undefined) {
    if (!context.schemaNames.has(name)) fail(at, `refers to '${ref}', which does not exist`);
    return;
  }
  if (!isComponentPointer(ref))
    fail(at, `must be a local reference of the form #/components/schemas/<name>, got '${ref}'`);
  if (getAtPointer(context.root, fromPointer(ref.slice(1))) === undefined)
    fail(at, `refers to '${ref}', which does not exist`);
}

function fail(at: DocumentLocation, problem: string): never {
  throw new OpenApiDocumentError(at, problem);
}

const schemaCheck: KeywordCheck = (value, at, context) => checkSchema(value, at, context);

const schemaOrBooleanCheck: KeywordCheck = (value, at, context) => {
  if (typeof value !== 'boolean') checkSchema(value, at, context);
};

const schemaListCheck: KeywordCheck = (value, at, context) => {
  if (!Array.isArray(value) || value.length === 0) fail(at, 'must be a non-empty array of schemas');
  value.forEach((item: unknown, index) => checkSchema(item, [...at, index], context));
};

/** `$defs`, `patternProperties`, `dependentSchemas`: a map of names to schemas. */
const schemaMapCheck: KeywordCheck = (value, at, context) => {
  const map = expectObject(value, at);
  for (const key of Object.keys(map)) checkSchema(map[key], [...at, key], context);
};

/** JSON parsers disagree on `__proto__` (secure-json-parse strips or refuses it), so no field may be named so. */
const FORBIDDEN_FIELD = '__proto__';

const propertiesCheck: KeywordCheck = (value, at, context) => {
  const properties = expectObject(value, at);
  for (const key of Object.keys(properties)) {
    if (key === FORBIDDEN_FIELD) fail([...at, key], 'cannot be a field name');
    checkSchema(properties[key], [...at, key], context);
  }
};

const requiredCheck: KeywordCheck = (value, at) => {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    fail(at, 'must be an array of strings');
  }
  if (value.includes(FORBIDDEN_FIELD)) fail(at, `cannot list '${FORBIDDEN_FIELD}'`);
};

const enumCheck: KeywordCheck = (value, at) => {
  if (!Array.isArray(value) || value.length === 0) fail(at, 'must be a non-empty array');
};

const typeCheck: KeywordCheck = (value, at, { version }) => {
  // OpenAPI 3.0 `type` is a single string (null is spelled `nullable`); 3.1 also takes a list with "null".
  const types = version === '3.0' ? SCHEMA_TYPES_30 : SCHEMA_TYPES_31;
  const list = version === '3.1' && Array.isArray(value) ? (value as unknown[]) : [value];
  const valid = list.length > 0 && list.every((t) => typeof t === 'string' && types.includes(t));
  if (!valid || new Set(list).size !== list.length) {
    fail(at, `must be one of ${types.join(', ')}${version === '3.1' ? ', or a list of distinct ones' : ''}`);
  }
};

const patternCheck: KeywordCheck = (value, at) => {
  if (typeof value !== 'string') fail(at, 'must be a string');
  try {
    new RegExp(value, 'u'); // Ajv compiles patterns with the `u` flag (unicodeRegExp).
  } catch {
    fail(at, 'must be a valid regular expression');
  }
};

const stringCheck: KeywordCheck = (value, at) => {
  if (typeof value !== 'string') fail(at, 'must be a string');
};

const booleanCheck: KeywordCheck = (value, at) => {
  if (typeof value !== 'boolean') fail(at, 'must be true or false');
};

const arrayCheck: KeywordCheck = (value, at) => {
  if (!Array.isArray(value)) fail(at, 'must be an array');
};

const numberCheck: KeywordCheck = (value, at) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(at, 'must be a number');
};

const positiveNumberCheck: KeywordCheck = (value, at) => {
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) fail(at, 'must be a number greater than 0');
};

const countCheck: KeywordCheck = (value, at) => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    fail(at, 'must be a non-negative integer');
};

const annotation: KeywordCheck = () => undefined;

/** The keywords both versions share, with the check its value must pass. */
const SHARED_KEYWORDS: readonly (readonly [string, KeywordCheck])[] = [
  ['type', typeCheck],
  ['properties', propertiesCheck],
  ['required', requiredCheck],
  ['items', schemaCheck],
  ['not', schemaCheck],
  ['additionalProperties', schemaOrBooleanCheck],
  ['allOf', schemaListCheck],
  ['anyOf', schemaListCheck],
  ['oneOf', schemaListCheck],
  ['enum', enumCheck],
  ['pattern', patternCheck],
  ['format', stringCheck],
  ['title', stringCheck],
  ['description', stringCheck],
  ['readOnly', booleanCheck],
  ['writeOnly', booleanCheck],
  ['deprecated', booleanCheck],
  ['uniqueItems', booleanCheck],
  ['maximum', numberCheck],
  ['minimum', numberCheck],
  ['multipleOf', positiveNumberCheck],
  ['maxLength', countCheck],
  ['minLength', countCheck],
  ['maxItems', countCheck],
  ['minItems', countCheck],
  ['maxProperties', countCheck],
  ['minProperties', countCheck],
  ['default', annotation],
  ['example', annotation],
  ['discriminator', annotation],
  ['xml', annotation],
  ['externalDocs', annotation],
];

/** Every keyword OpenAPI 3.0.3 §4.7.24 allows. */
const KEYWORDS_30: ReadonlyMap<string, KeywordCheck> = new Map<string, KeywordCheck>([
  ...SHARED_KEYWORDS,
  ['nullable', booleanCheck],
  ['exclusiveMaximum', booleanCheck], // a boolean modifier of `maximum` in 3.0, not a number
  ['exclusiveMinimum', booleanCheck],
]);

/**
 * The JSON Schema 2020-12 keywords a 3.1 document may use here. Not supported: `$id`, `$anchor`,
 * `$dynamicRef` and `$dynamicAnchor` (they move references out of the document) and `$schema`
 * (a document has one dialect).
 */
const KEYWORDS_31: ReadonlyMap<string, KeywordCheck> = new Map<string, KeywordCheck>([
  ...SHARED_KEYWORDS,
  ['exclusiveMaximum', numberCheck], // a number in JSON Schema 2020-12
  ['exclusiveMinimum', numberCheck],
  ['const', annotation], // any JSON value
  ['examples', arrayCheck],
  ['$comment', stringCheck],
  ['$defs', schemaMapCheck],
  ['patternProperties', schemaMapCheck],
  ['dependentSchemas', schemaMapCheck],
  ['propertyNames', schemaCheck],
  ['prefixItems', schemaListCheck],
  ['contains', schemaCheck],
  ['minContains', countCheck],
  ['maxContains', countCheck],
  ['if', schemaCheck],
  ['then', schemaCheck],
  ['else', schemaCheck],
  ['unevaluatedProperties', schemaOrBooleanCheck],
  ['unevaluatedItems', schemaOrBooleanCheck],
  ['dependentRequired', annotation],
  ['contentMediaType', stringCheck],
  ['contentEncoding', stringCheck],
]);
