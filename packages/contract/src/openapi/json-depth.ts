/**
 * How deep arrays and objects may nest in a request body. RFC 8259 §9 lets a parser limit it; the
 * limit keeps every recursive walk over a body (merge patch, validation, serialisation) far from
 * the stack's end. The server refuses a deeper body while parsing it (400 malformed-json); the
 * client SDK refuses it before sending, with the same detail.
 */
export const MAX_JSON_DEPTH = 64;

/** The detail of the 400 malformed-json a body nested deeper than {@link MAX_JSON_DEPTH} gets. */
export const TOO_DEEP_DETAIL = `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`;

/** Whether a parsed JSON value nests arrays and objects deeper than `max` (it stops looking there). */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max === 0) return true;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => nestsDeeperThan(child, max - 1));
}
