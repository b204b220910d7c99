import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin.js';
import { onLinkClick, useRouter } from '../router.js';
import { useText } from '../text.js';
import { matches, NameSearch, Outcome, useChanges } from './change.js';
import { CursorTable, useLoaded, wholeList, type Column } from './list.js';

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

/** The roles `holder` (`group:NAME`, `user:USERNAME`, `client:ID`) holds directly, from each role's holders. */
export async function rolesHeldBy(api: AdminApi, roles: readonly Role[], holder: string): Promise<Role[]> {
  const holders = await Promise.all(roles.map((role) => api.get<{ holders: string[] }>(roleApiPath(role, '/holders'))));
  return roles.filter((_, i) => holders[i]?.holders.includes(holder) === true);
}

/** The roles of the server and of its APIs, searched by name or description; one made. */
export function Roles({ api, onForbidden }: { readonly api: AdminApi; readonly onForbidden: (e: unknown) => boolean }) {
  const { t } = useText();
  const router = useRouter();
  const [search, setSearch] = useState('');
  const loaded = useLoaded(() => api.get<{ items: Role[] }>('/roles'), onForbidden, []);
  const list = wholeList(loaded, (r) => matches(search, r.name, r.description, r.api));
  const changes = useChanges(api, onForbidden);
  const columns: readonly Column<Role>[] = [
    {
      header: t('roles.name'),
      cell: (r) => (
        <a href={router.href(rolePath(r))} onClick={onLinkClick(router, rolePath(r))}>
          {r.name}
        </a>
      ),
    },
    { header: t('roles.api'), cell: (r) => (r.api === null ? t('roles.api.none') : <code>{r.api}</code>) },
    { header: t('roles.description'), cell: (r) => r.description ?? '' },
    { header: t('roles.built-in'), cell: (r) => (r.built_in ? t('roles.built-in.yes') : '') },
  ];
  return (
    <>
      <h1>{t('roles.title')}</h1>
      <NameSearch id="role-search" label={t('roles.search')} value={search} onInput={setSearch} />
      <Outcome outcome={changes.outcome} />
      <CursorTable
        id="roles"
        caption={t('roles.caption')}
        columns={columns}
        list={list}
        rowKey={(r) => `${r.api ?? ''} ${r.name}`}
        empty={t('roles.none')}
      />
      <CreateRole
        onCreate={(body) =>
          changes.change('POST', '/roles', body, t('roles.created', { role: body.name }), loaded.reload)
        }
      />
    </>
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
        <label for="role-name">{t('roles.name')}</label>
        <p id="role-name-hint" class="hint">
          {t('common.name.hint')}
        </p>
        <input
          id="role-name"
          type="text"
          required
          maxLength={64}
          autoComplete="off"
          spellcheck={false}
          aria-describedby="role-name-hint"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <label for="role-api">{t('roles.api')}</label>
        <p id="role-api-hint" class="hint">
          {t('roles.api.hint')}
        </p>
        <input
          id="role-api"
          type="text"
          autoComplete="off"
          spellcheck={false}
          aria-describedby="role-api-hint"
          value={audience}
          onInput={(e) => setAudience(e.currentTarget.value)}
        />
        <label for="role-description">{t('roles.description')}</label>
        <input
          id="role-description"
          type="text"
          value={description}
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
        <button type="submit" class="button primary">
          {t('roles.create.submit')}
        </button>
      </form>
    </section>
  );
}
