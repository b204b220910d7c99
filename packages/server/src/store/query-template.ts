import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * A query compiled once: its SQL, and how a parameters object like its definition's becomes the
 * SQL's parameters, in order. Running it builds no query and compiles nothing; the dialect's own
 * code prepares (SQLite) or sends (PostgreSQL) the SQL.
 */
export interface QueryTemplate<P, O> {
  readonly sql: string;
  /** The SQL's parameters for `p`, in order. */
  readonly parameters: (p: P) => unknown[];
  /** Only to carry the row type. */
  readonly row?: O;
}

/**
 * Compiles `query` with a placeholder in place of each parameter, to learn the SQL and where each
 * named parameter goes among its placeholders. A value the query fixes itself (not one of its
 * parameters) is passed as compiled. Parameters must reach the SQL as parameters, not shape it: a
 * definition that branches on one (`$if(p.x, …)`) or rewrites one is refused here, when the store
 * opens.
 */
export function queryTemplate<P extends object, O>(
  db: Kysely<Database>,
  query: (db: Kysely<Database>, parameters: P) => Compilable<O>,
): QueryTemplate<P, O> {
  const placeholders = new Map<unknown, string>();
  const named = new Proxy({} as P, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      const placeholder = { placeholder: name };
      placeholders.set(placeholder, name);
      return placeholder;
    },
  });
  const compiled = query(db, named).compile();
  const slots = compiled.parameters.map((value) => ({ name: placeholders.get(value), value }));
  // A parameter the definition read but that is not among the SQL's parameters shaped the SQL (a
  // branch, a concatenation): the template would run that one shape for every value.
  const reached = new Set(slots.map(({ name }) => name));
  for (const name of placeholders.values())
    if (!reached.has(name))
      throw new Error(`query template: parameter '${name}' does not reach the SQL as a parameter`);
  return {
    sql: compiled.sql,
    parameters: (p) =>
      slots.map(({ name, value }) => (name === undefined ? value : (p as Record<string, unknown>)[name])),
  };
}
