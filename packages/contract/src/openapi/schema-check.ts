/**
 * Structural check of OpenAPI 3.0.3 Schema Objects (§4.7.24). It catches what would otherwise
 * fail late or, worse, silently: a typo'd keyword (`minLenght`), a 3.1-only keyword, a
 * malformed `required`, a regex that does not compile, a dangling or non-local `$ref`.
 */
import { OpenApiDocumentError, expectObject, own, type DocumentLocation } from './document-error.js';
import { unescapePointerToken } from './json-pointer.js';

type KeywordCheck = (value: unknown, at: DocumentLocation, schemaNames: ReadonlySet<string>) => void;

const SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'];
const COMPONENT_REF = /^#\/components\/schemas\/([^/]+)$/;

/** `#/components/schemas/Contact` → `Contact`; `undefined` for any other reference. */
export function componentNameOfRef(ref: string): string | undefined {
  const match = COMPONENT_REF.exec(ref);
  return match?.[1] === undefined ? undefined : unescapePointerToken(match[1]);
}

/** Throws {@link OpenApiDocumentError} unless `value` is a usable Schema or Reference Object. */
export function checkSchema(value: unknown, at: DocumentLocation, schemaNames: ReadonlySet<string>): void {
  const schema = expectObject(value, at);
  if (Object.hasOwn(schema, '$ref')) {
    // §4.7.23: a Reference Object's other properties SHALL be ignored, so only the ref matters.
    checkSchemaRef(schema['$ref'], [...at, '$ref'], schemaNames);
    return;
  }
  for (const key of Object.keys(schema)) {
    const check = KEYWORD_CHECKS.get(key);
    if (check !== undefined) check(schema[key], [...at, key], schemaNames);
    else if (!key.startsWith('x-'))
      fail([...at, key], 'is not an OpenAPI 3.0 Schema Object keyword (OpenAPI 3.0.3 §4.7.24)');
  }
  if (own(schema, 'type') === 'array' && !Object.hasOwn(schema, 'items')) {
    fail([...at, 'items'], 'must be present when type is array (OpenAPI 3.0.3 §4.7.24)');
  }
  if (own(schema, 'readOnly') === true && own(schema, 'writeOnly') === true) {
    fail([...at, 'readOnly'], 'must not be true together with writeOnly (OpenAPI 3.0.3 §4.7.24)');
  }
}

function checkSchemaRef(ref: unknown, at: DocumentLocation, schemaNames: ReadonlySet<string>): void {
  if (typeof ref !== 'string') fail(at, 'must be a string');
  const name = componentNameOfRef(ref);
  if (name === undefined) fail(at, `must be a local reference of the form #/components/schemas/<name>, got '${ref}'`);
  if (!schemaNames.has(name)) fail(at, `refers to '${ref}', which does not exist`);
}

function fail(at: DocumentLocation, problem: string): never {
  throw new OpenApiDocumentError(at, problem);
}

const schemaCheck: KeywordCheck = (value, at, names) => checkSchema(value, at, names);

const schemaOrBooleanCheck: KeywordCheck = (value, at, names) => {
  if (typeof value !== 'boolean') checkSchema(value, at, names);
};

const schemaListCheck: KeywordCheck = (value, at, names) => {
  if (!Array.isArray(value) || value.length === 0) fail(at, 'must be a non-empty array of schemas');
  value.forEach((item: unknown, index) => checkSchema(item, [...at, index], names));
};

/** JSON parsers disagree on `__proto__` (secure-json-parse strips or refuses it), so no field may be named so. */
const FORBIDDEN_FIELD = '__proto__';

const propertiesCheck: KeywordCheck = (value, at, names) => {
  const properties = expectObject(value, at);
  for (const key of Object.keys(properties)) {
    if (key === FORBIDDEN_FIELD) fail([...at, key], 'cannot be a field name');
    checkSchema(properties[key], [...at, key], names);
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

const typeCheck: KeywordCheck = (value, at) => {
  // OpenAPI 3.0 `type` is a single string; `["string", "null"]` is 3.1 and is spelled `nullable` here.
  if (typeof value !== 'string' || !SCHEMA_TYPES.includes(value)) fail(at, `must be one of ${SCHEMA_TYPES.join(', ')}`);
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

/** Every keyword OpenAPI 3.0.3 §4.7.24 allows, with the check its value must pass. */
const KEYWORD_CHECKS: ReadonlyMap<string, KeywordCheck> = new Map<string, KeywordCheck>([
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
  ['nullable', booleanCheck],
  ['readOnly', booleanCheck],
  ['writeOnly', booleanCheck],
  ['deprecated', booleanCheck],
  ['uniqueItems', booleanCheck],
  ['exclusiveMaximum', booleanCheck], // a boolean modifier of `maximum` in 3.0, not a number
  ['exclusiveMinimum', booleanCheck],
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
]);
