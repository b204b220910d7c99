import { ProblemError } from '@gatehouse/contract';

/** The query of an admin API request, as Fastify parses it: a repeated parameter is an array. */
export type Query = Readonly<Record<string, string | string[] | undefined>>;

/** The one value of query parameter `name`, or undefined; repeating it is a 400. */
export function queryValue(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new ProblemError('invalid_parameter', `${name} may be given only once.`);
  return value;
}

/** An RFC 3339 time in query parameter `name`, as epoch seconds. */
export function queryTime(query: Query, name: string): number | undefined {
  const value = queryValue(query, name);
  if (value === undefined) return undefined;
  const millis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(value)
    ? Date.parse(value)
    : Number.NaN;
  if (Number.isNaN(millis))
    throw new ProblemError('invalid_parameter', `${name} must be an RFC 3339 time such as 2026-01-31T12:00:00Z.`);
  return Math.floor(millis / 1000);
}

/** The longest `q` of a list: a username's, a group's or a role's name's length. */
export const MAX_SEARCH = 64;

/**
 * The `q` of a list (the text its items' names contain, in any case), trimmed and lowercased;
 * `what` says in what it is looked for.
 */
export function querySearch(query: Query, what: string): string | undefined {
  const q = queryValue(query, 'q');
  if (q === undefined) return undefined;
  if (q.trim() === '' || q.length > MAX_SEARCH)
    throw new ProblemError('invalid_parameter', `q must be 1 to ${MAX_SEARCH} characters of ${what}.`);
  return q.trim().toLowerCase();
}
