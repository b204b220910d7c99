import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin.js';
import { ConsoleLink } from '../link.js';
import { useText } from '../text.js';
import { useChanges } from './change.js';
import { TextField } from './fields.js';
import { Day, useLoaded, wholeList, type Column } from './list.js';
import { matches, SearchedList } from './searched-list.js';

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
  const { t } = useText();
  const [search, setSearch] = useState('');
  const loaded = useLoaded(() => api.get<{ items: Group[] }>('/groups'), onForbidden, []);
  const changes = useChanges(api, onForbidden);
  const columns: readonly Column<Group>[] = [
    { header: t('groups.name'), cell: (g) => <ConsoleLink to={groupPath(g.name)}>{g.name}</ConsoleLink> },
    { header: t('groups.parent'), cell: (g) => g.parent ?? '—' },
    { header: t('table.created'), cell: (g) => <Day iso={g.created_at} /> },
  ];
  return (
    <SearchedList
      id="groups"
      title={t('groups.title')}
      searchLabel={t('groups.search')}
      search={search}
      onSearch={setSearch}
      changes={changes}
      caption={t('groups.caption')}
      empty={t('groups.none')}
      columns={columns}
      list={wholeList(loaded, (g) => matches(search, g.name))}
      rowKey={(g) => g.name}
    >
      <CreateGroup
        groups={loaded.value?.items ?? []}
        onCreate={(body) =>
          changes.change('POST', '/groups', body, t('groups.created', { group: body.name }), loaded.reload)
        }
      />
    </SearchedList>
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
        <TextField
          id="group-name"
          label={t('groups.name')}
          hint={t('common.name.hint')}
          value={name}
          onInput={setName}
          required
          maxLength={64}
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
