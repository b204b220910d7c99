import {
  ProblemError,
  TOO_DEEP_DETAIL,
  nestsDeeperThan,
  type BodyValidationResult,
  type FieldProblem,
  type ProblemFieldError,
} from '@gatehouse/contract';
import type { Operation } from './operations.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The request body of `operation`, parsed and validated against its schema; throws the catalog
 * problem otherwise. Never coerces, fills in or drops anything: the value returned is the JSON as
 * sent. A body that is not JSON is passed through untouched when the operation declares no JSON body.
 */
export function checkedBody(
  operation: Operation,
  method: string,
  contentType: string | undefined,
  raw: string | Uint8Array | undefined,
): unknown {
  const empty = raw === undefined || raw.length === 0;
  if (operation.body === undefined) return empty || !isJson(contentType) ? raw : parseJson(raw);
  if (empty) {
    if (operation.bodyRequired || method === 'POST' || method === 'PUT')
      throw new ProblemError('malformed_json', 'The request body is empty; this operation needs a JSON object.');
    return undefined;
  }
  if (!isJson(contentType)) throw new ProblemError('unsupported_media_type', 'Send the body as application/json.');
  const body = parseJson(raw);
  // A PUT or PATCH names an existing record: its read-only fields (such as `id`) may be echoed back.
  // The kit does not know the record, so it accepts them as sent and leaves the comparison to the route.
  const current = method === 'POST' ? undefined : readOnlyEcho(operation, body);
  const result = operation.body(body, current);
  if (!result.ok) throw refusedBody(result);
  return body;
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && JSON_MEDIA_TYPE.test(contentType);
}

function parseJson(raw: string | Uint8Array): unknown {
  let value: unknown;
  try {
    value = JSON.parse(typeof raw === 'string' ? raw : UTF8.decode(raw));
  } catch {
    throw new ProblemError('malformed_json', 'The request body is not valid JSON in UTF-8.');
  }
  if (nestsDeeperThan(value)) throw new ProblemError('malformed_json', TOO_DEEP_DETAIL);
  return value;
}

function readOnlyEcho(operation: Operation, body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || operation.body === undefined)
    return undefined;
  const record = body as Record<string, unknown>;
  return Object.fromEntries(
    operation.body.readOnly.filter((name) => Object.hasOwn(record, name)).map((n) => [n, record[n]]),
  );
}

/**
 * 400 missing-required-field (its detail exactly `Missing required field '<field>' in request body`,
 * every missing field listed, then whatever else is wrong) or 422 invalid-field-value, each field
 * with its RFC 6901 pointer in `errors`.
 */
export function refusedBody(result: Exclude<BodyValidationResult, { ok: true }>): ProblemError {
  if (result.kind === 'missing') {
    const errors = [
      ...result.fields.map((f) => fieldError('missing_required_field', f)),
      ...result.invalid.map((f) => fieldError('invalid_field_value', f)),
    ];
    return new ProblemError('missing_required_field', firstMessage(result.fields), errors);
  }
  const detail =
    result.fields.length === 1
      ? firstMessage(result.fields)
      : `${result.fields.length} fields have unacceptable values; see errors.`;
  return new ProblemError(
    'invalid_field_value',
    detail,
    result.fields.map((f) => fieldError('invalid_field_value', f)),
  );
}

function firstMessage(fields: readonly FieldProblem[]): string {
  return fields[0]?.message ?? 'Request body is invalid';
}

function fieldError(code: 'missing_required_field' | 'invalid_field_value', f: FieldProblem): ProblemFieldError {
  return { code, field: f.field, pointer: f.pointer, detail: f.message };
}
