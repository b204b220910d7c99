import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin.js';
import { ConsoleLink } from '../link.js';
import { useText } from '../text.js';
import { useChanges } from './change.js';
import { TextField } from './fields.js';
import { Day, ListPage, type Column } from './list.js';

/** An organization as the admin API describes it (GET /organizations, docs/organizations.md). */
export interface Organization {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly roles: readonly string[];
  readonly policy: {
    readonly second_factor: string;
    readonly sign_in_methods: readonly string[];
    readonly upstream: string | null;
    readonly default_role: string | null;
  };
  readonly created_at: string;
  readonly domains?: readonly { readonly domain: string; readonly verified: boolean }[];
}

export const organizationPath = (slug: string): string => `/organizations/${encodeURIComponent(slug)}`;

/** Role names as typed: separated by spaces or commas. */
export const roleNames = (typed: string): string[] => typed.split(/[\s,]+/).filter((name) => name !== '');

/** The organizations, a page at a time, searched by slug or name in the store; one added with its roles. */
export function Organizations({
  api,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t } = useText();
  const changes = useChanges(api, onForbidden);
  const columns: readonly Column<Organization>[] = [
    { header: t('organizations.slug'), cell: (o) => <ConsoleLink to={organizationPath(o.slug)}>{o.slug}</ConsoleLink> },
    { header: t('organizations.name'), cell: (o) => o.name },
    { header: t('organizations.roles'), cell: (o) => o.roles.join(', ') },
    { header: t('table.created'), cell: (o) => <Day iso={o.created_at} /> },
  ];
  return (
    <ListPage
      api={api}
      onForbidden={onForbidden}
      path="/organizations"
      id="organizations"
      title={t('organizations.title')}
      searchLabel={t('organizations.search')}
      changes={changes}
      caption={t('organizations.caption')}
      empty={t('organizations.none')}
      columns={columns}
      rowKey={(o) => o.id}
    >
      {(reload) => (
        <CreateOrganization
          onCreate={(body) =>
            changes.change(
              'POST',
              '/organizations',
              body,
              t('organizations.created', { organization: body.slug }),
              reload,
            )
          }
        />
      )}
    </ListPage>
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
        <TextField
          id="organization-slug"
          label={t('organizations.slug')}
          hint={t('organizations.slug.hint')}
          value={slug}
          onInput={setSlug}
          required
        />
        <TextField
          id="organization-name"
          label={t('organizations.name')}
          value={name}
          onInput={setName}
          maxLength={200}
        />
        <TextField
          id="organization-roles"
          label={t('organizations.roles')}
          hint={t('organizations.roles.hint')}
          value={roles}
          onInput={setRoles}
        />
        <button type="submit" class="button primary">
          {t('organizations.create.submit')}
        </button>
      </form>
    </section>
  );
}
