import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin.js';
import { onLinkClick, useRouter } from '../router.js';
import { useText } from '../text.js';
import { matches, NameSearch, Outcome, useChanges } from './change.js';
import { CursorTable, useLoaded, wholeList, type Column } from './list.js';

/** An organization as the admin API describes it (GET /organizations, docs/organizations.md). */
export interface Organization {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly roles: readonly string[];
  readonly policy: { readonly second_factor: string };
  readonly created_at: string;
  readonly domains?: readonly { readonly domain: string; readonly verified: boolean }[];
}

export const organizationPath = (slug: string): string => `/organizations/${encodeURIComponent(slug)}`;

/** Role names as typed: separated by spaces or commas. */
export const roleNames = (typed: string): string[] => typed.split(/[\s,]+/).filter((name) => name !== '');

/** The organizations, searched by slug or name; one added with its roles. */
export function Organizations({
  api,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t, locale } = useText();
  const router = useRouter();
  const [search, setSearch] = useState('');
  const loaded = useLoaded(() => api.get<{ items: Organization[] }>('/organizations'), onForbidden, []);
  const list = wholeList(loaded, (o) => matches(search, o.slug, o.name));
  const changes = useChanges(api, onForbidden);
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const columns: readonly Column<Organization>[] = [
    {
      header: t('organizations.slug'),
      cell: (o) => (
        <a href={router.href(organizationPath(o.slug))} onClick={onLinkClick(router, organizationPath(o.slug))}>
          {o.slug}
        </a>
      ),
    },
    { header: t('organizations.name'), cell: (o) => o.name },
    { header: t('organizations.roles'), cell: (o) => o.roles.join(', ') },
    {
      header: t('table.created'),
      cell: (o) => <time dateTime={o.created_at}>{day.format(new Date(o.created_at))}</time>,
    },
  ];
  return (
    <>
      <h1>{t('organizations.title')}</h1>
      <NameSearch id="organization-search" label={t('organizations.search')} value={search} onInput={setSearch} />
      <Outcome outcome={changes.outcome} />
      <CursorTable
        id="organizations"
        caption={t('organizations.caption')}
        columns={columns}
        list={list}
        rowKey={(o) => o.id}
        empty={t('organizations.none')}
      />
      <CreateOrganization
        onCreate={(body) =>
          changes.change(
            'POST',
            '/organizations',
            body,
            t('organizations.created', { organization: body.slug }),
            loaded.reload,
          )
        }
      />
    </>
  );
}

function CreateOrganization({
  onCreate,
}: {
  readonly onCreate: (body: { slug: string; name?: string; roles: string[] }) => void;
}) {
  const { t } = useText();
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [roles, setRoles] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    onCreate({ slug: slug.trim(), ...(name.trim() === '' ? {} : { name: name.trim() }), roles: roleNames(roles) });
    setSlug('');
    setName('');
    setRoles('');
  };
  return (
    <section class="panel form-panel" aria-labelledby="create-organization-title">
      <h2 id="create-organization-title">{t('organizations.create')}</h2>
      <form class="stack" onSubmit={submit}>
        <label for="organization-slug">{t('organizations.slug')}</label>
        <p id="organization-slug-hint" class="hint">
          {t('organizations.slug.hint')}
        </p>
        <input
          id="organization-slug"
          type="text"
          required
          autoComplete="off"
          spellcheck={false}
          aria-describedby="organization-slug-hint"
          value={slug}
          onInput={(e) => setSlug(e.currentTarget.value)}
        />
        <label for="organization-name">{t('organizations.name')}</label>
        <input
          id="organization-name"
          type="text"
          maxLength={200}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <label for="organization-roles">{t('organizations.roles')}</label>
        <p id="organization-roles-hint" class="hint">
          {t('organizations.roles.hint')}
        </p>
        <input
          id="organization-roles"
          type="text"
          autoComplete="off"
          spellcheck={false}
          aria-describedby="organization-roles-hint"
          value={roles}
          onInput={(e) => setRoles(e.currentTarget.value)}
        />
        <button type="submit" class="button primary">
          {t('organizations.create.submit')}
        </button>
      </form>
    </section>
  );
}
