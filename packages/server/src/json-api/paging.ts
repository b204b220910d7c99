import { ProblemError } from '@gatehouse/contract';

/**
 * Cursor paging, as the JSON APIs answer lists: `limit` (1 to 100, 20 by default) and an opaque
 * `cursor`, the base64url of the key of the last item of the previous page. A page is
 * `{ items, next_cursor }`, `next_cursor` null on the last page.
 */
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

type QueryValue = string | string[] | undefined;

export function pageSize(value: QueryValue): number {
  if (value === undefined) return DEFAULT_PAGE;
  if (typeof value !== 'string' || !/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_PAGE) {
    throw new ProblemError('invalid_parameter', `limit must be a whole number from 1 to ${MAX_PAGE}.`);
  }
  return Number(value);
}

/** The key a `cursor` stands for; `isKey` says which keys this list gives out. */
export function cursorPosition(value: QueryValue, isKey: (key: string) => boolean): string | undefined {
  if (value === undefined) return undefined;
  const key =
    // 300 characters hold the longest key given out: a role's API (a client id, 128) and name (64).
    typeof value === 'string' && /^[A-Za-z0-9_-]{1,300}$/.test(value)
      ? Buffer.from(value, 'base64url').toString('utf8')
      : '';
  if (!isKey(key))
    throw new ProblemError('invalid_parameter', 'cursor is not a cursor this API gave out; start again without one.');
  return key;
}

/** The page of `rows`, read with `limit + 1` to know whether another page follows. */
export function pageOf<T>(
  rows: readonly T[],
  limit: number,
  keyOf: (row: T) => string,
  show: (row: T) => unknown,
): { items: unknown[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items: items.map(show),
    next_cursor: rows.length > limit && last !== undefined ? Buffer.from(keyOf(last)).toString('base64url') : null,
  };
}
