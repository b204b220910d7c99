/**
 * RFC 7396 JSON Merge Patch, as used by `PATCH /v2/{collection}/{id}`
 * (`Content-Type: application/merge-patch+json`). The merged record is then validated like a
 * PUT body, so patching a required field to null surfaces as a missing-field error.
 */

type JsonObject = Record<string, unknown>;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Applies `patch` to `target` following the algorithm of RFC 7396 §2:
 * - a patch that is not an object (array, string, number, boolean, null) replaces the target;
 * - an object patch turns a non-object target into `{}`, then, for each member,
 *   null deletes the member and any other value is merged recursively.
 *
 * Pure: neither argument is mutated. The result is a new object along every patched branch;
 * untouched subtrees of `target` and non-object patch values are shared, not copied.
 * Only own enumerable keys are read, and keys are written with defineProperty, so a member
 * named `__proto__` or `constructor` is plain data and never reaches a prototype.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  const result: JsonObject = {};
  if (isJsonObject(target)) {
    for (const key of Object.keys(target)) defineMember(result, key, target[key]);
  }
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) delete result[key];
    else defineMember(result, key, mergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value));
  }
  return result;
}

/** `result[key] = value` without invoking the `__proto__` setter. */
function defineMember(result: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
}
