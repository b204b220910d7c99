import { useState } from 'preact/hooks';
import type { AdminApi, Page } from '../admin.js';
import type { Translate } from '../i18n/index.js';
import { ConsoleLink } from '../link.js';
import { useText } from '../text.js';
import { useChanges } from './change.js';
import { TextField } from './fields.js';
import { ListPage, type Column } from './list.js';

/** A role as the admin API describes it (GET /roles): server-wide (api null) or of one API. */
export interface Role {
  readonly name: string;
  readonly api: string | null;
  readonly description: string | null;
  readonly built_in: boolean;
  readonly created_at: string;
}

/** The console path of a role: its name, and its API when it has one (an API's role is named by both). */
export const rolePath = (role: Pick<Role, 'name' | 'api'>): string =>
  `/roles/${encodeURIComponent(role.name)}${role.api === null ? '' : `/${encodeURIComponent(role.api)}`}`;

/** The admin API's path of a role: `?api=` names an API's role; without it, the server-wide one. */
export const roleApiPath = (role: Pick<Role, 'name' | 'api'>, below = ''): string =>
  `/roles/${encodeURIComponent(role.name)}${below}${role.api === null ? '' : `?api=${encodeURIComponent(role.api)}`}`;

/** The roles `holder` (`group:NAME`, `user:USERNAME`, `client:ID`) holds directly, in one read of the store. */
export async function rolesHeldBy(api: AdminApi, holder: string): Promise<Role[]> {
  const held: Role[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ holder, limit: '100' });
    if (cursor !== null) query.set('cursor', cursor);
    const page: Page<Role> = await api.get(`/roles?${query.toString()}`);
    held.push(...page.items);
    cursor = page.next_cursor ?? null;
  } while (cursor !== null);
  return held;
}

/** The columns that name a role: its name (a link to its page) and its API. */
export function roleColumns(t: Translate): Column<Role>[] {
  return [
    { header: t('roles.name'), cell: (r) => <ConsoleLink to={rolePath(r)}>{r.name}</ConsoleLink> },
    { header: t('roles.api'), cell: (r) => (r.api === null ? t('roles.api.none') : <code>{r.api}</code>) },
  ];
}

/** The roles of the server and of its APIs, a page at a time, searched by name, description or API in the store; one made. */
export function Roles({ api, onForbidden }: { readonly api: AdminApi; readonly onForbidden: (e: unknown) => boolean }) {
  const { t } = useText();
  const changes = useChanges(api, onForbidden);
  const columns: readonly Column<Role>[] = [
    ...roleColumns(t),
    { header: t('roles.description'), cell: (r) => r.description ?? '' },
    { header: t('roles.built-in'), cell: (r) => (r.built_in ? t('roles.built-in.yes') : '') },
  ];
  return (
    <ListPage
      api={api}
      onForbidden={onForbidden}
      path="/roles"
      id="roles"
      title={t('roles.title')}
      searchLabel={t('roles.search')}
      changes={changes}
      caption={t('roles.caption')}
      empty={t('roles.none')}
      columns={columns}
      rowKey={(r) => `${r.api ?? ''} ${r.name}`}
    >
      {(reload) => (
        <CreateRole
          onCreate={(body) => changes.change('POST', '/roles', body, t('roles.created', { role: body.name }), reload)}
        />
      )}
    </ListPage>
  );
}

function CreateRole({
  onCreate,
}: {
  readonly onCreate: (body: { name: string; api?: string; description?: string }) => void;
}) {
  const { t } = useText();
  const [name, setName] = useState('');
  const [audience, setAudience] = useState('');
  const [description, setDescription] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    const body: { name: string; api?: string; description?: string } = { name: name.trim() };
    if (audience.trim() !== '') body.api = audience.trim();
    if (description.trim() !== '') body.description = description.trim();
    onCreate(body);
    setName('');
    setDescription('');
  };
  return (
    <section class="panel form-panel" aria-labelledby="create-role-title">
      <h2 id="create-role-title">{t('roles.create')}</h2>
      <form class="stack" onSubmit={submit}>
        <TextField
          id="role-name"
          label={t('roles.name')}
          hint={t('common.name.hint')}
          value={name}
          onInput={setName}
          required
          maxLength={64}
        />
        <TextField
          id="role-api"
          label={t('roles.api')}
          hint={t('roles.api.hint')}
          value={audience}
          onInput={setAudience}
        />
        <TextField id="role-description" label={t('roles.description')} value={description} onInput={setDescription} />
        <button type="submit" class="button primary">
          {t('roles.create.submit')}
        </button>
      </form>
    </section>
  );
}
