/**
 * Turns Ajv errors into the contract's field problems (docs/architecture.md, "REST API decisions"):
 * - missing: a required field omitted, or null when not nullable. The message is exactly
 *   `Missing required field '<field>' in request body`; it is never used for anything else.
 * - invalid: a present field with an unacceptable value, or an unknown field.
 * Field names are dotted, with array indices in brackets: `address.city`, `items[0].sku`.
 * Pointers are RFC 6901 (`/items/0/sku`) and are unambiguous where a dotted name is not.
 */
import type { ErrorObject } from 'ajv';
import { fromPointer, getAtPointer, toPointer } from './json-pointer.js';
import { REQUIRED_KEYWORD } from './translate.js';

export interface FieldProblem {
  /** Dotted path (`address.city`, `items[0].sku`); `''` is the body itself. */
  readonly field: string;
  /** RFC 6901 JSON Pointer into the request body (`/address/city`); `''` is the body itself. */
  readonly pointer: string;
  /** A sentence for humans; see the module comment. */
  readonly message: string;
}
export type MissingField = FieldProblem;
export type InvalidField = FieldProblem;

export function missingFieldMessage(field: string): string {
  return `Missing required field '${field}' in request body`;
}

export const NOT_A_JSON_OBJECT: InvalidField = {
  field: '',
  pointer: '',
  message: 'Request body must be a JSON object',
};

/**
 * Safety valve against amplification: field names echo the body's keys, so a body of long
 * or deeply nested keys could otherwise yield a report far larger than itself. Listing stops
 * after this many problems, or once their text exceeds {@link MAX_REPORT_CHARS}; no real
 * request body comes near either limit.
 */
const MAX_FIELD_PROBLEMS = 100;
const MAX_REPORT_CHARS = 64 * 1024;

/** Sorts Ajv errors into missing and invalid fields; an invalid value AT or UNDER a missing field is its echo and is dropped. */
export function classifyErrors(
  errors: readonly ErrorObject[],
  body: unknown,
): { missing: MissingField[]; invalid: InvalidField[] } {
  // The commonest refusal, one required field missing, without the general sorting below (which
  // would give the same answer).
  const only = errors.length === 1 ? errors[0] : undefined;
  if (only !== undefined && isMissing(only) && !isBranchError(only))
    return { missing: [toMissing(only, body)], invalid: [] };
  const relevant = errors.filter((error) => !isBranchError(error));
  // Ajv reports a nested object's required fields before its parent's; the contract's detail names
  // the first missing field, which must be the shallowest one (`sku` before `address.city`).
  const missing = collect(relevant.filter(isMissing), (error) => toMissing(error, body)).sort(byDepth);
  const invalid = collect(
    relevant.filter((error) => !isMissing(error)),
    (error) => toInvalid(error, body),
  ).filter((problem) => !missing.some((gone) => isAtOrUnder(problem.pointer, gone.pointer)));
  return { missing, invalid };
}

/** Converts errors in order, skipping duplicates, until a limit above is reached. */
function collect(errors: readonly ErrorObject[], toProblem: (error: ErrorObject) => FieldProblem): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  let size = 0;
  for (const error of errors) {
    if (problems.length >= MAX_FIELD_PROBLEMS || size >= MAX_REPORT_CHARS) break;
    const problem = toProblem(error);
    const key = `${problem.pointer}\n${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    size += problem.field.length + problem.pointer.length + problem.message.length;
    problems.push(problem);
  }
  return problems;
}

/**
 * Errors from inside one `anyOf`/`oneOf` branch only say why that branch did not match; the
 * combinator's own error reports the field. A `required` in a branch is conditional, so it
 * must not turn into a 400 missing-field.
 */
function isBranchError(error: ErrorObject): boolean {
  return /\/(?:anyOf|oneOf)\/\d+(?:\/|$)/.test(error.schemaPath);
}

/** Shallower pointers first; the stable sort keeps document order within one depth. */
function byDepth(a: FieldProblem, b: FieldProblem): number {
  return a.pointer.split('/').length - b.pointer.split('/').length;
}

function isMissing(error: ErrorObject): boolean {
  return error.keyword === REQUIRED_KEYWORD;
}

function toMissing(error: ErrorObject, body: unknown): MissingField {
  const tokens = [...fromPointer(error.instancePath), String(error.params['missingProperty'])];
  const field = fieldName(tokens, body);
  return { field, pointer: toPointer(tokens), message: missingFieldMessage(field) };
}

function toInvalid(error: ErrorObject, body: unknown): InvalidField {
  if (error.keyword === 'additionalProperties') {
    const tokens = [...fromPointer(error.instancePath), String(error.params['additionalProperty'])];
    const field = fieldName(tokens, body);
    return { field, pointer: toPointer(tokens), message: `Unknown field '${field}' in request body` };
  }
  const tokens = fromPointer(error.instancePath);
  const field = fieldName(tokens, body);
  const subject = field === '' ? 'Request body' : `Field '${field}'`;
  return { field, pointer: toPointer(tokens), message: `${subject} ${describeProblem(error)}` };
}

/** `['items', '0', 'sku']` → `items[0].sku`: brackets where the body holds an array. */
function fieldName(tokens: readonly string[], body: unknown): string {
  let name = '';
  let node = body;
  for (const token of tokens) {
    name += Array.isArray(node) ? `[${token}]` : name === '' ? token : `.${token}`;
    node = getAtPointer(node, [token]);
  }
  return name;
}

/** The predicate of the sentence, from the failed keyword and its Ajv params. */
function describeProblem(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const limit = Number(params['limit']);
  switch (error.keyword) {
    case 'type':
      return `must be ${String(params['type']).split(',').map(describeType).join(' or ')}`;
    case 'format':
      return `must be ${describeFormat(String(params['format']))}`;
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${limit} characters long`;
    case 'maxLength':
      return `must be at most ${limit} characters long`;
    case 'minimum':
      return `must be at least ${limit}`;
    case 'maximum':
      return `must be at most ${limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${limit}`;
    case 'multipleOf':
      return `must be a multiple of ${String(params['multipleOf'])}`;
    case 'pattern':
      return `must match the pattern ${String(params['pattern'])}`;
    case 'enum':
      return `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'minItems':
      return `must contain at least ${count(limit, 'item')}`;
    case 'maxItems':
      return `must contain at most ${count(limit, 'item')}`;
    case 'uniqueItems':
      return 'must not contain duplicate items';
    case 'minProperties':
      return `must have at least ${count(limit, 'field')}`;
    case 'maxProperties':
      return `must have at most ${count(limit, 'field')}`;
    case 'anyOf':
      return 'must match at least one of the allowed forms';
    case 'oneOf':
      return 'must match exactly one of the allowed forms';
    case 'not':
      return 'has a value that is not allowed';
    default:
      return `is invalid (${error.message ?? error.keyword})`;
  }
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function describeType(type: string): string {
  return Object.hasOwn(TYPE_NAMES, type) ? (TYPE_NAMES[type] ?? type) : type;
}

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  email: 'a valid email address',
  'date-time': 'a valid RFC 3339 date-time',
  date: 'a valid date (YYYY-MM-DD)',
  time: 'a valid RFC 3339 time',
  uuid: 'a valid UUID',
  uri: 'a valid URI',
  url: 'a valid URL',
  hostname: 'a valid host name',
  ipv4: 'a valid IPv4 address',
  ipv6: 'a valid IPv6 address',
  int32: 'a 32-bit integer',
  int64: 'a 64-bit integer',
  float: 'a 32-bit float',
  double: 'a 64-bit float',
  byte: 'base64-encoded data',
};

function describeFormat(format: string): string {
  return Object.hasOwn(FORMAT_NAMES, format) ? (FORMAT_NAMES[format] ?? format) : `a valid ${format}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function isAtOrUnder(pointer: string, base: string): boolean {
  return pointer === base || pointer.startsWith(`${base}/`);
}
