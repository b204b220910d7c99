import { sql, type RawBuilder } from 'kysely';

/** `text` as a LIKE pattern matching itself anywhere (`\` escapes `%`, `_` and itself). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Whether one of `columns` contains `search` in any case: `search` is lowercased here and each
 * column by `lower()`, the same on both dialects (SQLite's LIKE ignores ASCII case, PostgreSQL's does
 * not). The lists this filters are read in key order, so the key's index bounds the scan by the page.
 */
export function containsAnyCase(search: string, ...columns: readonly string[]): RawBuilder<boolean> {
  const pattern = containsPattern(search.toLowerCase());
  const tests = columns.map((column) => sql`lower(${sql.ref(column)}) LIKE ${pattern} ESCAPE '\\'`);
  return sql<boolean>`(${sql.join(tests, sql` OR `)})`;
}
