import { toPointer } from './json-pointer.js';

/** A location inside the OpenAPI document, as the keys/indices leading to it. */
export type DocumentLocation = readonly (string | number)[];

/**
 * Thrown for an OpenAPI document the server cannot serve. `pointer` is the RFC 6901 pointer
 * of the offending value; the message names it twice, readable first, e.g.
 * `components.schemas.Contact.required must be an array of strings (at #/components/schemas/Contact/required)`.
 */
export class OpenApiDocumentError extends Error {
  override readonly name = 'OpenApiDocumentError';
  readonly pointer: string;

  constructor(location: DocumentLocation, problem: string) {
    super(`${describeLocation(location)} ${problem} (at #${toPointer(location)})`);
    this.pointer = toPointer(location);
  }
}

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** `['paths', '/contacts', 'post']` → `paths['/contacts'].post`: readable, unlike a pointer. */
function describeLocation(location: DocumentLocation): string {
  if (location.length === 0) return 'The document';
  return location
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      if (index === 0) return key; // always a fixed word such as `paths` or `components`
      if (PLAIN_KEY.test(key)) return `.${key}`;
      return `['${key.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}']`;
    })
    .join('');
}

/** Narrows to a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads an own property only, so a document key such as `__proto__` is just data. */
export function own(value: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

export function expectObject(value: unknown, location: DocumentLocation): Readonly<Record<string, unknown>> {
  if (!isObject(value)) throw new OpenApiDocumentError(location, 'must be an object');
  return value;
}

export function expectString(value: unknown, location: DocumentLocation): string {
  if (typeof value !== 'string') throw new OpenApiDocumentError(location, 'must be a string');
  return value;
}
