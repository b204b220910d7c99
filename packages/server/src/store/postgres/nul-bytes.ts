/**
 * PostgreSQL text cannot hold U+0000 (it answers 22021 "invalid byte sequence"), while SQLite
 * stores and compares it like any character. So that input answers the same on both dialects, a
 * parameter carrying U+0000 never reaches PostgreSQL:
 *
 * - in a WHERE clause it is a lookup key (`id = $1`, `in (…)`, `> $1`). No stored text can contain
 *   U+0000, so the key matches nothing, which is what SQLite answers too: it is sent as NULL, which
 *   compares true with nothing;
 * - anywhere else (VALUES, SET) it is a value to store. The only free-form text Gatehouse stores
 *   from a request is the audit trail of refused ones (a presented client id or username), where
 *   U+0000 is stored as U+FFFD. REST bodies are stored as JSON text, in which U+0000 is the escape
 *   `\u0000` on both dialects, so they never carry one here.
 */
export function parametersWithoutNul(sql: string, parameters: readonly unknown[]): unknown[] {
  if (!parameters.some(hasNul)) return parameters as unknown[];
  return parameters.map((p, i) => {
    if (!hasNul(p)) return p;
    const at = sql.search(new RegExp(`\\$${i + 1}(?!\\d)`));
    return at >= 0 && /\bwhere\b/i.test(sql.slice(0, at)) ? null : p.replaceAll('\u0000', '\uFFFD');
  });
}

function hasNul(value: unknown): value is string {
  return typeof value === 'string' && value.includes('\u0000');
}
