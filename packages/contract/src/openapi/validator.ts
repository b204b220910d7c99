/**
 * Request-body validation against the OpenAPI document, compiled once per schema with Ajv 8.
 * Runs in Node and in browsers (no `node:` imports). Ajv generates code with `new Function`,
 * so a browser page needs a CSP that allows it.
 */
import { Ajv, type Options, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { OpenApiDocumentError, type DocumentLocation } from './document-error.js';
import { listCollections, openApiVersion } from './document.js';
import { checkReadOnly, readOnlyProperties, withoutFields } from './read-only.js';
import {
  NOT_A_JSON_OBJECT,
  classifyErrors,
  missingFieldMessage,
  type InvalidField,
  type MissingField,
} from './field-errors.js';
import type { OpenApiDocument, SchemaOrReference } from './types.js';
import {
  REQUIRED_KEYWORD,
  translateComponents,
  translateSchema,
  type RequiredEntry,
  type TranslateContext,
} from './translate.js';

// ajv-formats is CommonJS with `module.exports = plugin; exports.default = plugin`. Under NodeNext
// the default import is `module.exports`, typed as the module, so the plugin is `.default`;
// bundlers that honour `__esModule` hand us `exports.default`, which is the same function and
// carries the same `.default`. `.default` is therefore the plugin under every loader.
const addFormats = addFormatsModule.default;

export type BodyValidationResult =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  /** 400 missing-required-field. `invalid` lists other problems found in the same body. */
  | {
      readonly ok: false;
      readonly kind: 'missing';
      readonly fields: readonly MissingField[];
      readonly invalid: readonly InvalidField[];
    }
  /** 422 invalid-field-value. */
  | { readonly ok: false; readonly kind: 'invalid'; readonly fields: readonly InvalidField[] };

/**
 * Validates a parsed JSON body. Never throws, never mutates the body. `current` is the record as
 * GET shows it, when the body replaces or patches one: a top-level `readOnly` property (such as
 * `id`) is accepted only when equal to the record's own value, and is left out of the value
 * returned; without `current` (a POST) it is refused, since the server assigns it.
 */
export interface BodyValidator {
  (body: unknown, current?: Readonly<Record<string, unknown>>): BodyValidationResult;
  /** The top-level `readOnly` properties of the schema, e.g. `['id']`. */
  readonly readOnly: readonly string[];
}

interface DocumentCompiler {
  readonly ajv: Ajv;
  readonly context: TranslateContext;
  readonly byRef: Map<string, BodyValidator>;
  readonly bySchema: WeakMap<object, BodyValidator>;
}

const compilers = new WeakMap<OpenApiDocument, DocumentCompiler>();

/**
 * The validator for request bodies of `schema` (a Schema Object of `doc`, or a `$ref` to one).
 * `doc` must come from checkOpenApiDocument. Compiled on first use, then cached per document
 * (by `$ref` string or by schema object). Throws OpenApiDocumentError when the schema cannot be
 * compiled, e.g. an unknown `format`; `location` (where `schema` sits in `doc`) names it there.
 */
export function compileBodyValidator(
  doc: OpenApiDocument,
  schema: SchemaOrReference,
  location: DocumentLocation = ['(request body schema)'],
): BodyValidator {
  const compiler = compilerFor(doc);
  const cached = '$ref' in schema ? compiler.byRef.get(schema.$ref) : compiler.bySchema.get(schema);
  if (cached !== undefined) return cached;
  const validate = compileOrThrow(compiler.ajv, () => translateSchema(schema, location, compiler.context), location);
  const readOnly = readOnlyProperties(doc, schema);
  const validator: BodyValidator = Object.assign(
    (body: unknown, current?: Readonly<Record<string, unknown>>) => validateBody(validate, readOnly, body, current),
    { readOnly },
  );
  if ('$ref' in schema) compiler.byRef.set(schema.$ref, validator);
  else compiler.bySchema.set(schema, validator);
  return validator;
}

/** One validator per collection of `doc` (see listCollections), keyed by collection name. */
export function compileCollectionValidators(doc: OpenApiDocument): ReadonlyMap<string, BodyValidator> {
  const validators = new Map<string, BodyValidator>();
  for (const { name, schemaName, schema } of listCollections(doc)) {
    const source = schemaName === null ? schema : { $ref: `#/components/schemas/${schemaName}` };
    const at = ['paths', `/${name}`, 'post', 'requestBody', 'content', 'application/json', 'schema'];
    validators.set(name, compileBodyValidator(doc, source, at));
  }
  return validators;
}

function compilerFor(doc: OpenApiDocument): DocumentCompiler {
  const existing = compilers.get(doc);
  if (existing !== undefined) return existing;
  const version = openApiVersion(doc);
  const ajv = createAjv(version === '3.0' ? Ajv : Ajv2020);
  const context: TranslateContext = { doc, version, isKnownFormat: (format) => Object.hasOwn(ajv.formats, format) };
  ajv.addSchema(translateComponents(context));
  const compiler: DocumentCompiler = { ajv, context, byRef: new Map(), bySchema: new WeakMap() };
  compilers.set(doc, compiler);
  return compiler;
}

/** Draft-07 for OpenAPI 3.0 documents, 2020-12 for 3.1 (its Schema Object is JSON Schema 2020-12). */
function createAjv(Dialect: new (options: Options) => Ajv): Ajv {
  const ajv = new Dialect({
    allErrors: true, // list EVERY missing field, not just the first
    coerceTypes: false, // "42" is not 42: a wrong type is a 422, never silently fixed
    useDefaults: false, // the body is validated, never filled in
    removeAdditional: false,
    strict: true,
    // OpenAPI documents routinely use `properties` without `type: object`; strictTypes would
    // refuse such valid documents. Every other strict check stays on.
    strictTypes: false,
    // Likewise a 2020-12 `prefixItems` without `items`/`minItems` is a valid open tuple.
    strictTuples: false,
    ownProperties: true, // `constructor`, `toString`... on Object.prototype are not fields
  });
  addFormats(ajv);
  ajv.addKeyword({
    keyword: REQUIRED_KEYWORD,
    type: 'object',
    schemaType: 'array',
    errors: true,
    validate: checkRequired,
  });
  return ajv;
}

/**
 * The `required` of this API: a field is missing when it is not an OWN property of the object,
 * or when it is null and the schema does not mark it nullable (docs/architecture.md, "REST API decisions").
 */
const checkRequired: SchemaValidateFunction = (entries: readonly RequiredEntry[], data: Record<string, unknown>) => {
  // A loop, not filter and map: every valid body passes here, and then allocates nothing.
  let missing: RequiredEntry[] | undefined;
  for (const entry of entries)
    if (!Object.hasOwn(data, entry.name) || (data[entry.name] === null && !entry.nullable))
      (missing ??= []).push(entry);
  checkRequired.errors = missing?.map(({ name }) => ({
    keyword: REQUIRED_KEYWORD,
    params: { missingProperty: name },
    message: missingFieldMessage(name),
  }));
  return missing === undefined;
};

function compileOrThrow(ajv: Ajv, translate: () => object, at: DocumentLocation): ValidateFunction {
  try {
    return ajv.compile(translate());
  } catch (error) {
    if (error instanceof OpenApiDocumentError) throw error;
    throw new OpenApiDocumentError(at, `cannot be compiled: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const TOO_DEEP: InvalidField = { field: '', pointer: '', message: 'Request body is nested too deeply to be validated' };

function validateBody(
  validate: ValidateFunction,
  readOnly: readonly string[],
  body: unknown,
  current: Readonly<Record<string, unknown>> | undefined,
): BodyValidationResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, kind: 'invalid', fields: [NOT_A_JSON_OBJECT] };
  }
  const value = body as Record<string, unknown>;
  const { sent, refused } = checkReadOnly(readOnly, value, current);
  try {
    if (validate(value)) {
      if (refused.length > 0) return { ok: false, kind: 'invalid', fields: refused };
      return { ok: true, value: sent.length === 0 ? value : withoutFields(value, sent) };
    }
  } catch (error) {
    // Ajv recurses once per level of a recursive schema: a body nested thousands of levels
    // deep overflows the stack, which must be a 422, not a crash.
    if (error instanceof RangeError) return { ok: false, kind: 'invalid', fields: [TOO_DEEP] };
    throw error;
  }
  const classified = classifyErrors(validate.errors ?? [], value);
  const missing = classified.missing;
  const invalid = [...refused, ...classified.invalid.filter((f) => !refused.some((r) => r.pointer === f.pointer))];
  if (missing.length > 0) return { ok: false, kind: 'missing', fields: missing, invalid };
  // Ajv failed, so there is at least one problem; the fallback only guards an empty list.
  const fields = invalid.length > 0 ? invalid : [{ ...NOT_A_JSON_OBJECT, message: 'Request body is invalid' }];
  return { ok: false, kind: 'invalid', fields };
}
