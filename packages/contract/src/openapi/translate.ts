/**
 * Translates OpenAPI 3.0.3 Schema Objects (§4.7.24) into the JSON Schema draft-07 that Ajv 8
 * compiles, for validating REQUEST bodies:
 *
 * - `nullable: true` adds "null" to `type`, and only when `type` is set: 3.0.3 says other
 *   constraints keep their behaviour, so an `enum` must list null itself to accept it.
 * - boolean `exclusiveMaximum`/`exclusiveMinimum` (3.0) become draft-07's numeric form.
 * - `required` becomes {@link REQUIRED_KEYWORD}, which treats a present-but-null value of a
 *   non-nullable property as missing (omitted or null → 400, docs/architecture.md) and checks own
 *   properties only. Required `readOnly` properties are dropped: 3.0.3 says `required` then
 *   applies to responses only.
 * - `additionalProperties` absent on a schema that declares `properties` means `false`: the
 *   API refuses unknown fields unless the schema says otherwise. Write
 *   `additionalProperties: true` to accept extra fields, and on each `allOf` part (a part
 *   would otherwise refuse the fields the other parts declare).
 * - annotations (`title`, `example`, `xml`, `externalDocs`, `discriminator`, `readOnly`,
 *   `writeOnly`, `deprecated`, `default`, `x-*`) are dropped: Ajv strict mode refuses unknown
 *   keywords, and `default` must never fill a body (no useDefaults).
 * - `$ref: '#/components/schemas/X'` points into one shared schema ({@link COMPONENTS_ID}),
 *   so every component is compiled once and recursive schemas work.
 */
import type { AnySchemaObject } from 'ajv';
import { OpenApiDocumentError, own, type DocumentLocation } from './document-error.js';
import { resolveSchema } from './document.js';
import { escapePointerToken } from './json-pointer.js';
import { componentNameOfRef } from './schema-check.js';
import type { OpenApiDocument, SchemaObject, SchemaOrReference } from './types.js';

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

/** `{ $id: COMPONENTS_ID, definitions: { Contact: ..., ... } }` for `ajv.addSchema`. */
export function translateComponents(context: TranslateContext): AnySchemaObject {
  const schemas = context.doc.components?.schemas ?? {};
  const definitions = Object.fromEntries(
    Object.keys(schemas).map((name) => [
      name,
      translateSchema(schemas[name] ?? {}, ['components', 'schemas', name], context),
    ]),
  );
  return { $id: COMPONENTS_ID, definitions };
}

/** Translates one schema; `at` locates it in the document for error messages. */
export function translateSchema(
  schema: SchemaOrReference,
  at: DocumentLocation,
  context: TranslateContext,
): AnySchemaObject {
  if ('$ref' in schema) return { $ref: componentRef(schema.$ref, at) };
  const out: Record<string, unknown> = {};
  for (const keyword of SHARED_KEYWORDS) if (schema[keyword] !== undefined) out[keyword] = schema[keyword];
  if (schema.type !== undefined) out['type'] = schema.nullable === true ? [schema.type, 'null'] : schema.type;
  if (schema.format !== undefined) out['format'] = checkFormat(schema.format, [...at, 'format'], context);
  if (schema.maximum !== undefined)
    out[schema.exclusiveMaximum === true ? 'exclusiveMaximum' : 'maximum'] = schema.maximum;
  if (schema.minimum !== undefined)
    out[schema.exclusiveMinimum === true ? 'exclusiveMinimum' : 'minimum'] = schema.minimum;
  Object.assign(out, translateObjectKeywords(schema, at, context), translateSubschemas(schema, at, context));
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
  const required = requiredEntries(schema, context.doc);
  if (required.length > 0) out[REQUIRED_KEYWORD] = required;
  const additional = schema.additionalProperties;
  if (typeof additional === 'object')
    out['additionalProperties'] = translateSchema(additional, [...at, 'additionalProperties'], context);
  else if (additional !== undefined) out['additionalProperties'] = additional;
  else if (properties !== undefined) out['additionalProperties'] = false; // our default, see the module comment
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

function requiredEntries(schema: SchemaObject, doc: OpenApiDocument): RequiredEntry[] {
  const entries: RequiredEntry[] = [];
  for (const name of new Set(schema.required ?? [])) {
    const declared = schema.properties === undefined ? undefined : own(schema.properties, name);
    const property = declared === undefined ? {} : resolveSchema(doc, declared as SchemaOrReference);
    if (property.readOnly === true) continue;
    entries.push({ name, nullable: property.nullable === true && property.type !== undefined });
  }
  return entries;
}

function componentRef(ref: string, at: DocumentLocation): string {
  const name = componentNameOfRef(ref);
  if (name === undefined)
    throw new OpenApiDocumentError([...at, '$ref'], `must refer to #/components/schemas/<name>, got '${ref}'`);
  return `${COMPONENTS_ID}#/definitions/${escapePointerToken(name)}`;
}

function checkFormat(format: string, at: DocumentLocation, context: TranslateContext): string {
  // OpenAPI lets tools ignore unknown formats; we refuse them so a typo ("emial") cannot
  // silently switch validation off.
  if (!context.isKnownFormat(format)) throw new OpenApiDocumentError(at, `names the unknown format '${format}'`);
  return format;
}
