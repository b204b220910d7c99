/**
 * Translates Schema Objects into what Ajv 8 compiles, for validating REQUEST bodies: OpenAPI
 * 3.0.3 (§4.7.24) into JSON Schema draft-07, OpenAPI 3.1 (JSON Schema 2020-12) into 2020-12.
 *
 * - 3.0 `nullable: true` adds "null" to `type`, and only when `type` is set: 3.0.3 says other
 *   constraints keep their behaviour, so an `enum` must list null itself to accept it. 3.0 boolean
 *   `exclusiveMaximum`/`exclusiveMinimum` become the numeric form. 3.1 keywords are kept as they are.
 * - `required` becomes {@link REQUIRED_KEYWORD}, which treats a present-but-null value as missing
 *   unless the property's schema explicitly allows null ({@link allowsNull}; docs/architecture.md)
 *   and checks own properties only. Required `readOnly` properties are dropped: `required` then
 *   applies to responses only (OpenAPI 3.0.3 §4.7.24, readOnly).
 * - `additionalProperties` means what JSON Schema says: absent, extra fields are accepted. The
 *   shipped document writes `additionalProperties: false` where it refuses unknown fields.
 * - annotations (`title`, `example`, `examples`, `xml`, `externalDocs`, `discriminator`,
 *   `readOnly`, `writeOnly`, `deprecated`, `default`, `$comment`, `x-*`) are dropped: Ajv strict
 *   mode refuses unknown keywords, and `default` must never fill a body (no useDefaults).
 * - `$ref: '#/components/schemas/X…'` points into one shared schema ({@link COMPONENTS_ID}),
 *   so every component is compiled once and recursive schemas work.
 */
import type { AnySchemaObject } from 'ajv';
import { OpenApiDocumentError, own, type DocumentLocation } from './document-error.js';
import { resolveSchema } from './document.js';
import { componentNameOfRef } from './schema-check.js';
import type { OpenApiDocument, OpenApiVersion, SchemaObject, SchemaOrReference } from './types.js';

/** The custom Ajv keyword replacing `required`; see validator.ts. */
export const REQUIRED_KEYWORD = 'gatehouseRequired';
/** `$id` of the schema holding every translated component under `definitions`. */
const COMPONENTS_ID = 'urn:gatehouse:openapi:components';

export interface RequiredEntry {
  readonly name: string;
  /** A nullable required field sent as null is present and valid; otherwise null means missing. */
  readonly nullable: boolean;
}

export interface TranslateContext {
  readonly doc: OpenApiDocument;
  readonly version: OpenApiVersion;
  readonly isKnownFormat: (format: string) => boolean;
}

/** Keywords whose meaning is identical in OpenAPI 3.0 and draft-07, copied verbatim. */
const SHARED_KEYWORDS = [
  'multipleOf',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'enum',
] as const;

/** 2020-12 keywords a 3.1 document may use, whose values are not schemas: copied verbatim. */
const VALUE_KEYWORDS_31 = [
  'const',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'minContains',
  'maxContains',
  'dependentRequired',
  'contentMediaType',
  'contentEncoding',
] as const;
/** 2020-12 keywords whose value is one schema (or a boolean). */
const SCHEMA_KEYWORDS_31 = [
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
] as const;
/** 2020-12 keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS_31 = ['$defs', 'patternProperties', 'dependentSchemas'] as const;

/** `{ $id: COMPONENTS_ID, definitions: { Contact: ..., ... } }` (`$defs` in 2020-12) for `ajv.addSchema`. */
export function translateComponents(context: TranslateContext): AnySchemaObject {
  const schemas = context.doc.components?.schemas ?? {};
  const definitions = Object.fromEntries(
    Object.keys(schemas).map((name) => [
      name,
      translateSchema(schemas[name] ?? {}, ['components', 'schemas', name], context),
    ]),
  );
  return { $id: COMPONENTS_ID, [containerOf(context)]: definitions };
}

function containerOf(context: TranslateContext): string {
  return context.version === '3.0' ? 'definitions' : '$defs';
}

/** Translates one schema; `at` locates it in the document for error messages. */
export function translateSchema(
  schema: SchemaOrReference,
  at: DocumentLocation,
  context: TranslateContext,
): AnySchemaObject {
  const out: Record<string, unknown> = {};
  if ('$ref' in schema) {
    out['$ref'] = componentRef(schema.$ref, at, context);
    // 3.0: a Reference Object's siblings are ignored; 3.1: `$ref` is one keyword among others.
    if (context.version === '3.0') return out;
  }
  const object = schema as SchemaObject;
  for (const keyword of SHARED_KEYWORDS) if (object[keyword] !== undefined) out[keyword] = object[keyword];
  if (object.format !== undefined) out['format'] = checkFormat(object.format, [...at, 'format'], context);
  if (context.version === '3.0') Object.assign(out, translateNumbers30(object));
  else Object.assign(out, translateKeywords31(object, at, context));
  Object.assign(out, translateObjectKeywords(object, at, context), translateSubschemas(object, at, context));
  return out;
}

/** 3.0 `type` + `nullable`, and the boolean exclusive bounds. */
function translateNumbers30(schema: SchemaObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (schema.type !== undefined) out['type'] = schema.nullable === true ? [schema.type, 'null'] : schema.type;
  if (schema.maximum !== undefined)
    out[schema.exclusiveMaximum === true ? 'exclusiveMaximum' : 'maximum'] = schema.maximum;
  if (schema.minimum !== undefined)
    out[schema.exclusiveMinimum === true ? 'exclusiveMinimum' : 'minimum'] = schema.minimum;
  return out;
}

/** 3.1: `type` (a list included), the numeric bounds and the other 2020-12 keywords. */
function translateKeywords31(
  schema: SchemaObject,
  at: DocumentLocation,
  context: TranslateContext,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const source = schema as Readonly<Record<string, unknown>>;
  for (const keyword of ['type', 'maximum', 'minimum', ...VALUE_KEYWORDS_31])
    if (Object.hasOwn(source, keyword)) out[keyword] = source[keyword];
  for (const keyword of SCHEMA_KEYWORDS_31) {
    const value = source[keyword];
    if (typeof value === 'boolean') out[keyword] = value;
    else if (value !== undefined) out[keyword] = translateSchema(value as SchemaOrReference, [...at, keyword], context);
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS_31) {
    const map = source[keyword] as Readonly<Record<string, SchemaOrReference>> | undefined;
    if (map !== undefined)
      out[keyword] = Object.fromEntries(
        Object.keys(map).map((key) => [key, translateSchema(map[key] ?? {}, [...at, keyword, key], context)]),
      );
  }
  const prefix = source['prefixItems'] as readonly SchemaOrReference[] | undefined;
  if (prefix !== undefined)
    out['prefixItems'] = prefix.map((part, index) => translateSchema(part, [...at, 'prefixItems', index], context));
  return out;
}

function translateObjectKeywords(
  schema: SchemaObject,
  at: DocumentLocation,
  context: TranslateContext,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = schema.properties;
  if (properties !== undefined) {
    // Object.fromEntries defines own properties, so a property named `__proto__` stays data.
    out['properties'] = Object.fromEntries(
      Object.keys(properties).map((key) => [
        key,
        translateSchema(properties[key] ?? {}, [...at, 'properties', key], context),
      ]),
    );
  }
  const required = requiredEntries(schema, context);
  if (required.length > 0) out[REQUIRED_KEYWORD] = required;
  const additional = schema.additionalProperties;
  if (typeof additional === 'object')
    out['additionalProperties'] = translateSchema(additional, [...at, 'additionalProperties'], context);
  else if (additional !== undefined) out['additionalProperties'] = additional;
  return out;
}

function translateSubschemas(
  schema: SchemaObject,
  at: DocumentLocation,
  context: TranslateContext,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (schema.items !== undefined) out['items'] = translateSchema(schema.items, [...at, 'items'], context);
  if (schema.not !== undefined) out['not'] = translateSchema(schema.not, [...at, 'not'], context);
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[keyword];
    if (list !== undefined)
      out[keyword] = list.map((part, index) => translateSchema(part, [...at, keyword, index], context));
  }
  return out;
}

function requiredEntries(schema: SchemaObject, context: TranslateContext): RequiredEntry[] {
  const entries: RequiredEntry[] = [];
  for (const name of new Set(schema.required ?? [])) {
    const declared = schema.properties === undefined ? undefined : own(schema.properties, name);
    const property = declared === undefined ? {} : resolveSchema(context.doc, declared as SchemaOrReference);
    if (property.readOnly === true) continue;
    const nullable = declared !== undefined && allowsNull(context.doc, declared as SchemaOrReference);
    entries.push({ name, nullable });
  }
  return entries;
}

/**
 * Whether a property's schema explicitly allows null, so that a required field sent as null is a
 * value rather than missing: 3.0 `nullable: true` with a `type`; 3.1 a `type` that is or lists
 * "null", `const: null`, or an `anyOf`/`oneOf` branch that does. An unconstrained schema (`{}`)
 * does not count: null for a required field is missing unless the document says otherwise.
 */
export function allowsNull(doc: OpenApiDocument, schema: SchemaOrReference, seen = new Set<object>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const resolved = resolveSchema(doc, schema);
  if (doc.openapi.startsWith('3.0.')) return resolved.nullable === true && resolved.type !== undefined;
  const type = resolved.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Object.hasOwn(resolved, 'const') && resolved.const === null) return true;
  return [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])].some((branch) => allowsNull(doc, branch, seen));
}

/** `#/components/schemas/X/rest…` → the same place inside the shared compiled components. */
function componentRef(ref: string, at: DocumentLocation, context: TranslateContext): string {
  const match = /^#\/components\/schemas\/([^/]+)((?:\/.*)?)$/.exec(ref);
  if (match?.[1] === undefined || componentNameOfRef(`#/components/schemas/${match[1]}`) === undefined)
    throw new OpenApiDocumentError([...at, '$ref'], `must refer to #/components/schemas/<name>, got '${ref}'`);
  return `${COMPONENTS_ID}#/${containerOf(context)}/${match[1]}${match[2] ?? ''}`;
}

function checkFormat(format: string, at: DocumentLocation, context: TranslateContext): string {
  // OpenAPI lets tools ignore unknown formats; we refuse them so a typo ("emial") cannot
  // silently switch validation off.
  if (!context.isKnownFormat(format)) throw new OpenApiDocumentError(at, `names the unknown format '${format}'`);
  return format;
}
