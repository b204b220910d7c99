/**
 * `readOnly` properties in request bodies (OpenAPI 3.0.3 §4.7.24: "SHOULD NOT be sent as part of
 * the request"). Gatehouse accepts a top-level read-only property when it equals the record's own
 * value, so that a record exactly as GET returned it can be PUT back, refuses it otherwise (and in
 * any POST, where the server assigns it), and never stores it.
 */
import { resolveSchema } from './document.js';
import type { InvalidField } from './field-errors.js';
import { escapePointerToken } from './json-pointer.js';
import type { OpenApiDocument, SchemaObject, SchemaOrReference } from './types.js';

interface ReadOnlyCheck {
  readonly sent: readonly string[];
  readonly refused: readonly InvalidField[];
}
const NOTHING_SENT: ReadOnlyCheck = { sent: [], refused: [] };

/** The read-only fields `value` carries, and the problems of those that are not the record's own. */
export function checkReadOnly(
  readOnly: readonly string[],
  value: Readonly<Record<string, unknown>>,
  current: Readonly<Record<string, unknown>> | undefined,
): ReadOnlyCheck {
  // The hot path (a body without read-only fields) allocates nothing.
  if (!readOnly.some((name) => Object.hasOwn(value, name))) return NOTHING_SENT;
  const sent = readOnly.filter((name) => Object.hasOwn(value, name));
  const refused = sent.filter((name) => !sameValue(value[name], current, name)).map(readOnlyFieldProblem);
  return { sent, refused };
}

/** The top-level properties of `schema` (after `$ref`s and `allOf` parts) marked `readOnly: true`. */
export function readOnlyProperties(doc: OpenApiDocument, schema: SchemaOrReference): string[] {
  const names = new Set<string>();
  const visit = (part: SchemaOrReference): void => {
    const resolved: SchemaObject = resolveSchema(doc, part);
    for (const [name, property] of Object.entries(resolved.properties ?? {}))
      if (resolveSchema(doc, property).readOnly === true) names.add(name);
    for (const inner of resolved.allOf ?? []) visit(inner);
  };
  visit(schema);
  return [...names];
}

/** A read-only value is accepted when it is the record's own (compared as JSON: bodies are JSON). */
function sameValue(sent: unknown, current: Readonly<Record<string, unknown>> | undefined, name: string): boolean {
  return (
    current !== undefined && Object.hasOwn(current, name) && JSON.stringify(sent) === JSON.stringify(current[name])
  );
}

/** The 422 field problem of a read-only field sent with a value other than the record's own. */
export function readOnlyFieldProblem(name: string): InvalidField {
  return {
    field: name,
    pointer: `/${escapePointerToken(name)}`,
    message: `Field '${name}' is read-only: send the record's own value or leave it out`,
  };
}

export function withoutFields(value: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const copy = { ...value };
  for (const name of names) delete copy[name];
  return copy;
}
