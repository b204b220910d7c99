import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AdminApi, Page, Problem } from '../admin.js';
import { useText } from '../text.js';
import { Outcome, type Changes } from './change.js';
import { ProblemNotice, problemOf } from './problem.js';

/** Items a list page shows at once, as the admin API's `limit`. */
export const PAGE_SIZE = 20;

/** What a page loaded from the admin API: the answer, or the refusal shown instead, and how to ask again. */
export interface Loaded<T> {
  readonly value: T | undefined;
  readonly problem: Problem | undefined;
  readonly reload: () => void;
}

/**
 * Loads `fetch()` whenever `deps` change. Only the latest answer is kept (a slow earlier one does not
 * overwrite it); a refusal of the operator as such goes to `onForbidden`, any other is kept to show.
 */
export function useLoaded<T>(
  fetch: () => Promise<T>,
  onForbidden: (error: unknown) => boolean,
  deps: readonly unknown[],
): Loaded<T> {
  const [value, setValue] = useState<T | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const latest = useRef(0);
  const reload = () => {
    const request = ++latest.current;
    setProblem(undefined);
    fetch()
      .then((answer) => {
        if (request === latest.current) setValue(() => answer);
      })
      .catch((error: unknown) => {
        if (request === latest.current && !onForbidden(error)) setProblem(problemOf(error));
      });
  };
  useEffect(reload, deps);
  return { value, problem, reload };
}

/** A list read a page at a time by cursor (the admin API's `limit`, `cursor` and `next_cursor`). */
export interface CursorList<T> extends Loaded<Page<T>> {
  /** Whether a page before this one was shown. */
  readonly paged: boolean;
  readonly first: () => void;
  readonly next: () => void;
}

/**
 * The pages of one query, by cursor: `query` is everything but the cursor, and a new query starts
 * again at its first page.
 */
export function useCursorList<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  onForbidden: (error: unknown) => boolean,
  query: string,
): CursorList<T> {
  /** The cursors of the pages shown so far for `query`: the last is this page's. */
  const [trail, setTrail] = useState<{ query: string; cursors: readonly (string | undefined)[] }>({
    query,
    cursors: [undefined],
  });
  const cursors = trail.query === query ? trail.cursors : [undefined];
  const cursor = cursors[cursors.length - 1];
  const loaded = useLoaded(() => fetchPage(cursor), onForbidden, [query, cursor]);
  const nextCursor = loaded.value?.next_cursor;
  return {
    ...loaded,
    paged: cursors.length > 1,
    first: () => setTrail({ query, cursors: [undefined] }),
    next: () => {
      if (nextCursor) setTrail({ query, cursors: [...cursors, nextCursor] });
    },
  };
}

/** `query` with the page's `cursor` added (none for the first page). */
export function withCursor(query: URLSearchParams, cursor: string | undefined): string {
  const paged = new URLSearchParams(query);
  if (cursor !== undefined) paged.set('cursor', cursor);
  return paged.toString();
}

/** One column of a table: its header and what each row shows in it. */
export interface Column<T> {
  readonly header: string;
  readonly cell: (item: T) => ComponentChildren;
  /** The language of the cell's text when it is not the console's: the admin API's words are English. */
  readonly lang?: string;
  /** The cell's class, such as `row-actions` for a cell of buttons. */
  readonly class?: string;
}

export interface TableProps<T> {
  /** The table's id; its caption is `<id>-caption`. */
  readonly id: string;
  /** The caption, or the id of a heading that names the table instead. */
  readonly caption?: string;
  readonly labelledBy?: string;
  readonly columns: readonly Column<T>[];
  readonly items: readonly T[];
  readonly rowKey: (item: T) => string;
  /** The row that stands out, such as the key that signs. */
  readonly current?: (item: T) => boolean;
}

/** A table of items; a wide one scrolls inside its own region, which the keyboard reaches (WCAG 2.1.1). */
export function Table<T>({ id, caption, labelledBy, columns, items, rowKey, current }: TableProps<T>) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-labelledby={labelledBy ?? `${id}-caption`}>
      <table>
        {caption === undefined ? null : <caption id={`${id}-caption`}>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={rowKey(item)} aria-current={current?.(item) === true ? 'true' : undefined}>
              {columns.map((column, i) => (
                <td key={i} lang={column.lang} class={column.class}>
                  {column.cell(item)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Until an answer: its refusal (with a retry) or a loading line; then `children` of the answer. */
export function LoadState<T>({
  loaded,
  children,
}: {
  readonly loaded: Loaded<T>;
  readonly children: (value: T) => ComponentChildren;
}) {
  const { t } = useText();
  return (
    <>
      {loaded.problem === undefined ? null : <ProblemNotice problem={loaded.problem} onRetry={loaded.reload} />}
      {loaded.value !== undefined ? (
        children(loaded.value)
      ) : loaded.problem === undefined ? (
        <p aria-live="polite">{t('console.loading')}</p>
      ) : null}
    </>
  );
}

/**
 * A list read by cursor: its refusal or loading line, the table (or `empty` when nothing matches), and
 * the pager, which also holds `children` (actions on the whole list).
 */
export function CursorTable<T>({
  list,
  empty,
  children,
  ...table
}: Omit<TableProps<T>, 'items'> & {
  readonly list: CursorList<T>;
  readonly empty: string;
  readonly children?: ComponentChildren;
}) {
  const { t } = useText();
  return (
    <>
      <LoadState loaded={list}>
        {(page) => (page.items.length === 0 ? <p>{empty}</p> : <Table {...table} items={page.items} />)}
      </LoadState>
      <div class="pager">
        {list.paged ? (
          <button type="button" class="button secondary" onClick={list.first}>
            {t('users.first')}
          </button>
        ) : null}
        {list.value?.next_cursor ? (
          <button type="button" class="button secondary" onClick={list.next}>
            {t('users.next')}
          </button>
        ) : null}
        {children}
      </div>
    </>
  );
}

/** A day (an ISO time) in the console's language: when something was made or joined. */
export function Day({ iso }: { readonly iso: string }) {
  const { locale } = useText();
  return <time dateTime={iso}>{new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso))}</time>;
}

/**
 * A list the admin API pages and searches in the store (groups, roles, organizations): its title, a
 * search sent as typed (`q`: the admin API looks for it in the store, so every page is full), what
 * the last change came to, a page of the table with its pager, then `children` (the form that adds
 * one), given `reload` to show what it added.
 */
export function ListPage<T>({
  api,
  onForbidden,
  path,
  id,
  title,
  searchLabel,
  changes,
  caption,
  empty,
  columns,
  rowKey,
  children,
}: {
  readonly api: AdminApi;
  readonly onForbidden: (error: unknown) => boolean;
  /** The admin API's list, such as `/groups`. */
  readonly path: string;
  readonly id: string;
  readonly title: string;
  readonly searchLabel: string;
  readonly changes: Changes;
  readonly caption: string;
  readonly empty: string;
  readonly columns: readonly Column<T>[];
  readonly rowKey: (item: T) => string;
  readonly children: (reload: () => void) => ComponentChildren;
}) {
  const { t } = useText();
  const [search, setSearch] = useState('');
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (search.trim() !== '') query.set('q', search.trim());
  const list = useCursorList<T>(
    (cursor) => api.get(`${path}?${withCursor(query, cursor)}`),
    onForbidden,
    query.toString(),
  );
  return (
    <>
      <h1>{title}</h1>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for={`${id}-search`}>{searchLabel}</label>
          <input
            id={`${id}-search`}
            type="search"
            maxLength={64}
            spellcheck={false}
            autoComplete="off"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
            aria-describedby={`${id}-search-hint`}
          />
          <p id={`${id}-search-hint`} class="hint">
            {t('common.search.hint')}
          </p>
        </div>
      </form>
      <Outcome outcome={changes.outcome} />
      <CursorTable id={id} caption={caption} columns={columns} list={list} rowKey={rowKey} empty={empty} />
      {children(list.reload)}
    </>
  );
}
