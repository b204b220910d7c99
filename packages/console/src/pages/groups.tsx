import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin.js';
import { onLinkClick, useRouter } from '../router.js';
import { useText } from '../text.js';
import { matches, NameSearch, Outcome, useChanges } from './change.js';
import { CursorTable, useLoaded, wholeList, type Column } from './list.js';

/** A group as the admin API describes it (GET /groups). */
export interface Group {
  readonly name: string;
  readonly parent: string | null;
  readonly created_at: string;
}

export const groupPath = (name: string): string => `/groups/${encodeURIComponent(name)}`;

/** The groups, searched by name; one made, under a parent when given. */
export function Groups({
  api,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t, locale } = useText();
  const router = useRouter();
  const [search, setSearch] = useState('');
  const loaded = useLoaded(() => api.get<{ items: Group[] }>('/groups'), onForbidden, []);
  const list = wholeList(loaded, (g) => matches(search, g.name));
  const changes = useChanges(api, onForbidden);
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const columns: readonly Column<Group>[] = [
    {
      header: t('groups.name'),
      cell: (g) => (
        <a href={router.href(groupPath(g.name))} onClick={onLinkClick(router, groupPath(g.name))}>
          {g.name}
        </a>
      ),
    },
    { header: t('groups.parent'), cell: (g) => g.parent ?? '—' },
    {
      header: t('table.created'),
      cell: (g) => <time dateTime={g.created_at}>{day.format(new Date(g.created_at))}</time>,
    },
  ];
  return (
    <>
      <h1>{t('groups.title')}</h1>
      <NameSearch id="group-search" label={t('groups.search')} value={search} onInput={setSearch} />
      <Outcome outcome={changes.outcome} />
      <CursorTable
        id="groups"
        caption={t('groups.caption')}
        columns={columns}
        list={list}
        rowKey={(g) => g.name}
        empty={t('groups.none')}
      />
      <CreateGroup
        groups={loaded.value?.items ?? []}
        onCreate={(body) =>
          changes.change('POST', '/groups', body, t('groups.created', { group: body.name }), loaded.reload)
        }
      />
    </>
  );
}

function CreateGroup({
  groups,
  onCreate,
}: {
  readonly groups: readonly Group[];
  readonly onCreate: (body: { name: string; parent?: string }) => void;
}) {
  const { t } = useText();
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    onCreate(parent === '' ? { name: name.trim() } : { name: name.trim(), parent });
    setName('');
  };
  return (
    <section class="panel form-panel" aria-labelledby="create-group-title">
      <h2 id="create-group-title">{t('groups.create')}</h2>
      <form class="stack" onSubmit={submit}>
        <label for="group-name">{t('groups.name')}</label>
        <p id="group-name-hint" class="hint">
          {t('common.name.hint')}
        </p>
        <input
          id="group-name"
          type="text"
          required
          maxLength={64}
          autoComplete="off"
          spellcheck={false}
          aria-describedby="group-name-hint"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <label for="group-parent">{t('groups.parent')}</label>
        <select id="group-parent" value={parent} onChange={(e) => setParent(e.currentTarget.value)}>
          <option value="">{t('groups.parent.none')}</option>
          {groups.map((g) => (
            <option key={g.name} value={g.name}>
              {g.name}
            </option>
          ))}
        </select>
        <button type="submit" class="button primary">
          {t('groups.create.submit')}
        </button>
      </form>
    </section>
  );
}
