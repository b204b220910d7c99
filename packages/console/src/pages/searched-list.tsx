import type { ComponentChildren } from 'preact';
import { useText } from '../text.js';
import { Outcome, type Changes } from './change.js';
import { CursorTable, type Column, type CursorList } from './list.js';

/** Whether one of `texts` holds what the operator searched, ignoring case. */
export function matches(search: string, ...texts: readonly (string | null | undefined)[]): boolean {
  const wanted = search.trim().toLowerCase();
  return wanted === '' || texts.some((text) => text?.toLowerCase().includes(wanted) === true);
}

/**
 * A page of a list the admin API answers whole (groups, roles, organizations): its title, a search
 * that narrows the list as typed, what the last change came to, the table, then `children` (the form
 * that adds one).
 */
export function SearchedList<T>({
  id,
  title,
  searchLabel,
  search,
  onSearch,
  changes,
  caption,
  empty,
  columns,
  list,
  rowKey,
  children,
}: {
  readonly id: string;
  readonly title: string;
  readonly searchLabel: string;
  readonly search: string;
  readonly onSearch: (search: string) => void;
  readonly changes: Changes;
  readonly caption: string;
  readonly empty: string;
  readonly columns: readonly Column<T>[];
  readonly list: CursorList<T>;
  readonly rowKey: (item: T) => string;
  readonly children: ComponentChildren;
}) {
  const { t } = useText();
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
            onInput={(e) => onSearch(e.currentTarget.value)}
            aria-describedby={`${id}-search-hint`}
          />
          <p id={`${id}-search-hint`} class="hint">
            {t('common.search.hint')}
          </p>
        </div>
      </form>
      <Outcome outcome={changes.outcome} />
      <CursorTable id={id} caption={caption} columns={columns} list={list} rowKey={rowKey} empty={empty} />
      {children}
    </>
  );
}
