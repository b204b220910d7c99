/**
 * RFC 6901 JSON Pointer helpers shared by the document checker and the body validator.
 * Pure string functions: this package also runs in browsers.
 */

/** Escapes one reference token (RFC 6901 §3: `~` → `~0`, `/` → `~1`, in that order). */
export function escapePointerToken(token: string): string {
  // Most names have neither character (a missing field's pointer is made on every refused body).
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Reverses {@link escapePointerToken} (RFC 6901 §4: `~1` first, then `~0`). */
export function unescapePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Builds a pointer such as `/address/city` from its tokens; `[]` is the whole document (`''`). */
export function toPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((token) => `/${escapePointerToken(String(token))}`).join('');
}

/** Splits a pointer into unescaped tokens; `''` yields `[]`. */
export function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(unescapePointerToken);
}

/**
 * Follows `tokens` from `root` through own properties only, so `__proto__` or
 * `constructor` never reach Object.prototype. Returns `undefined` when a step is absent.
 */
export function getAtPointer(root: unknown, tokens: readonly string[]): unknown {
  let node: unknown = root;
  for (const token of tokens) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
