import { MAX_JSON_DEPTH, ProblemError, TOO_DEEP_DETAIL, nestsDeeperThan, refusedBody } from '@gatehouse/contract';
import type { Operation } from './operations.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** The body as sent (parsed when JSON), or the catalog problem that refuses it. */
export type BodyCheck =
  { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly problem: ProblemError };

/**
 * The request body of `operation`, parsed and validated against its schema, or the catalog problem
 * (returned, not thrown: a refused body is the common client error, and a throw costs more than the
 * check). Never coerces, fills in or drops anything: the value returned is the JSON as sent. A body
 * that is not JSON is passed through untouched when the operation declares no JSON body.
 */
export function checkedBody(
  operation: Operation,
  method: string,
  contentType: string | undefined,
  raw: string | Uint8Array | undefined,
): BodyCheck {
  const empty = raw === undefined || raw.length === 0;
  if (operation.body === undefined) return empty || !isJson(contentType) ? { ok: true, body: raw } : parseJson(raw);
  if (empty) {
    if (operation.bodyRequired || method === 'POST' || method === 'PUT')
      return refused('malformed_json', 'The request body is empty; this operation needs a JSON object.');
    return { ok: true, body: undefined };
  }
  if (!isJson(contentType)) return refused('unsupported_media_type', 'Send the body as application/json.');
  const parsed = parseJson(raw);
  if (!parsed.ok) return parsed;
  // A PUT or PATCH names an existing record: its read-only fields (such as `id`) may be echoed back.
  // The kit does not know the record, so it accepts them as sent and leaves the comparison to the route.
  const current = method === 'POST' ? undefined : readOnlyEcho(operation, parsed.body);
  const result = operation.body(parsed.body, current);
  return result.ok ? parsed : { ok: false, problem: refusedBody(result) };
}

function refused(code: 'malformed_json' | 'unsupported_media_type', detail: string): BodyCheck {
  return { ok: false, problem: new ProblemError(code, detail) };
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && JSON_MEDIA_TYPE.test(contentType);
}

function parseJson(raw: string | Uint8Array): BodyCheck {
  let value: unknown;
  try {
    value = JSON.parse(typeof raw === 'string' ? raw : UTF8.decode(raw));
  } catch {
    return refused('malformed_json', 'The request body is not valid JSON in UTF-8.');
  }
  // Nesting deeper than MAX_JSON_DEPTH takes more than twice as many brackets: a shorter body cannot.
  if (raw.length >= 2 * (MAX_JSON_DEPTH + 1) && nestsDeeperThan(value))
    return refused('malformed_json', TOO_DEEP_DETAIL);
  return { ok: true, body: value };
}

function readOnlyEcho(operation: Operation, body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || operation.body === undefined)
    return undefined;
  const record = body as Record<string, unknown>;
  return Object.fromEntries(
    operation.body.readOnly.filter((name) => Object.hasOwn(record, name)).map((n) => [n, record[n]]),
  );
}
