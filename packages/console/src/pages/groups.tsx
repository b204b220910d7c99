import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin.js';
import { ConsoleLink } from '../link.js';
import { useText } from '../text.js';
import { useChanges } from './change.js';
import { TextField } from './fields.js';
import { Day, ListPage, type Column } from './list.js';

/** A group as the admin API describes it (GET /groups). */
export interface Group {
  readonly name: string;
  readonly parent: string | null;
  readonly created_at: string;
}

export const groupPath = (name: string): string => `/groups/${encodeURIComponent(name)}`;

/** The groups, a page at a time, searched by name in the store; one made, under a parent when given. */
export function Groups({
  api,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t } = useText();
  const changes = useChanges(api, onForbidden);
  const columns: readonly Column<Group>[] = [
    { header: t('groups.name'), cell: (g) => <ConsoleLink to={groupPath(g.name)}>{g.name}</ConsoleLink> },
    { header: t('groups.parent'), cell: (g) => g.parent ?? '—' },
    { header: t('table.created'), cell: (g) => <Day iso={g.created_at} /> },
  ];
  return (
    <ListPage
      api={api}
      onForbidden={onForbidden}
      path="/groups"
      id="groups"
      title={t('groups.title')}
      searchLabel={t('groups.search')}
      changes={changes}
      caption={t('groups.caption')}
      empty={t('groups.none')}
      columns={columns}
      rowKey={(g) => g.name}
    >
      {(reload) => (
        <CreateGroup
          onCreate={(body) =>
            changes.change('POST', '/groups', body, t('groups.created', { group: body.name }), reload)
          }
        />
      )}
    </ListPage>
  );
}

function CreateGroup({ onCreate }: { readonly onCreate: (body: { name: string; parent?: string }) => void }) {
  const { t } = useText();
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    onCreate(parent.trim() === '' ? { name: name.trim() } : { name: name.trim(), parent: parent.trim() });
    setName('');
    setParent('');
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
        <TextField
          id="group-parent"
          label={t('groups.parent')}
          hint={t('groups.parent.hint')}
          value={parent}
          onInput={setParent}
          maxLength={64}
        />
        <button type="submit" class="button primary">
          {t('groups.create.submit')}
        </button>
      </form>
    </section>
  );
}
