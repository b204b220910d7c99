import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin.js';
import { onLinkClick, useRouter } from '../router.js';
import { useText } from '../text.js';
import { SecondClick, TypedConfirm } from './confirm.js';
import { OneFieldForm, Outcome, useChanges } from './change.js';
import { LoadState, Table, useLoaded, type Column } from './list.js';
import { organizationPath, type Organization } from './organizations.js';
import { whenFresh } from './step-up.js';

/** A member as the admin API describes it (GET /organizations/{organization}/members). */
interface Member {
  readonly subject: string;
  readonly username: string | null;
  readonly roles: readonly string[];
  readonly source: string;
  readonly joined_at: string;
}

/**
 * One organization: its roles (defined, removed), its members with their organization roles (added,
 * given other roles, removed), its domains, and its removal.
 */
export function OrganizationPage({
  api,
  slug,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly slug: string;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t, locale } = useText();
  const router = useRouter();
  const path = organizationPath(slug);
  const loaded = useLoaded(
    async () => {
      const [organization, members] = await Promise.all([
        api.get<Organization>(path),
        api.get<{ items: Member[] }>(`${path}/members`),
      ]);
      return { organization, members: members.items };
    },
    onForbidden,
    [slug],
  );
  const changes = useChanges(api, onForbidden);
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const patch = (body: unknown, done: string) => changes.change('PATCH', path, body, done, loaded.reload);
  const memberColumns: readonly Column<Member>[] = [
    {
      header: t('users.username'),
      cell: (m) => {
        if (m.username === null) return <code>{m.subject}</code>;
        const to = `/users/${encodeURIComponent(m.username)}`;
        return (
          <a href={router.href(to)} onClick={onLinkClick(router, to)}>
            {m.username}
          </a>
        );
      },
    },
    { header: t('organizations.roles'), cell: (m) => m.roles.join(', ') || '—' },
    {
      header: t('organizations.joined'),
      cell: (m) => <time dateTime={m.joined_at}>{day.format(new Date(m.joined_at))}</time>,
    },
    {
      header: t('clients.actions'),
      cell: ({ username }) =>
        username === null ? null : (
          <SecondClick
            label={t('members.remove')}
            confirm={t('members.remove.confirm', { username, group: slug })}
            onConfirm={() =>
              changes.change(
                'DELETE',
                `${path}/members/${encodeURIComponent(username)}`,
                undefined,
                t('members.removed', { username, group: slug }),
                loaded.reload,
              )
            }
          />
        ),
    },
  ];
  return (
    <>
      <p>
        <a href={router.href('/organizations')} onClick={onLinkClick(router, '/organizations')}>
          {t('organizations.back')}
        </a>
      </p>
      <h1>{slug}</h1>
      <Outcome outcome={changes.outcome} />
      <LoadState loaded={loaded}>
        {({ organization, members }) => (
          <div class="panels">
            <section class="panel" aria-labelledby="organization-details">
              <h2 id="organization-details">{t('user.details')}</h2>
              <dl class="values">
                <dt>{t('organizations.id')}</dt>
                <dd>
                  <code>{organization.id}</code>
                </dd>
                <dt>{t('organizations.name')}</dt>
                <dd>{organization.name}</dd>
                <dt>{t('organizations.second-factor')}</dt>
                <dd>
                  <code>{organization.policy.second_factor}</code>
                </dd>
                <dt>{t('organizations.domains')}</dt>
                <dd>
                  {(organization.domains ?? [])
                    .map((d) => (d.verified ? d.domain : t('organizations.domain.unverified', { domain: d.domain })))
                    .join(', ') || '—'}
                </dd>
              </dl>
            </section>
            <section class="panel" aria-labelledby="organization-roles">
              <h2 id="organization-roles">{t('organizations.roles')}</h2>
              {organization.roles.length === 0 ? <p>{t('organizations.roles.none')}</p> : null}
              <ul class="plain">
                {organization.roles.map((role) => (
                  <li key={role} class="row-actions">
                    <code>{role}</code>
                    <SecondClick
                      label={t('organizations.roles.remove', { role })}
                      confirm={t('organizations.roles.remove.confirm', { role })}
                      onConfirm={() => patch({ remove_roles: [role] }, t('organizations.roles.removed', { role }))}
                    />
                  </li>
                ))}
              </ul>
              <OneFieldForm
                id="organization-role"
                label={t('organizations.roles.new')}
                submit={t('organizations.roles.add')}
                onSubmit={(role) => patch({ add_roles: [role] }, t('organizations.roles.added', { role }))}
              />
            </section>
            <section class="panel panel-wide" aria-labelledby="organization-members">
              <h2 id="organization-members">{t('members.title')}</h2>
              {members.length === 0 ? (
                <p>{t('members.none')}</p>
              ) : (
                <Table
                  id="organization-members-table"
                  labelledBy="organization-members"
                  columns={memberColumns}
                  items={members}
                  rowKey={(m) => m.subject}
                />
              )}
              <PutMember
                roles={organization.roles}
                onPut={(username, roles) =>
                  changes.change(
                    'PUT',
                    `${path}/members/${encodeURIComponent(username)}`,
                    { roles },
                    t('organizations.members.put', { username, organization: slug }),
                    loaded.reload,
                  )
                }
              />
            </section>
            <section class="panel panel-wide" aria-labelledby="organization-delete">
              <h2 id="organization-delete">{t('organizations.delete')}</h2>
              <p class="hint">{t('organizations.delete.hint')}</p>
              <TypedConfirm
                id="delete-organization"
                name={slug}
                submit={t('organizations.delete')}
                onConfirm={() =>
                  whenFresh(api, router.path, () =>
                    changes.change('DELETE', path, undefined, t('organizations.deleted', { organization: slug }), () =>
                      router.go('/organizations'),
                    ),
                  )
                }
              />
            </section>
          </div>
        )}
      </LoadState>
    </>
  );
}

/** A member added, or given exactly the roles ticked (the admin API's PUT sets them all). */
function PutMember({
  roles,
  onPut,
}: {
  readonly roles: readonly string[];
  readonly onPut: (username: string, roles: string[]) => void;
}) {
  const { t } = useText();
  const [username, setUsername] = useState('');
  const [ticked, setTicked] = useState<readonly string[]>([]);
  return (
    <form
      class="stack form-panel"
      onSubmit={(event) => {
        event.preventDefault();
        if (username.trim() === '') return;
        onPut(
          username.trim(),
          roles.filter((r) => ticked.includes(r)),
        );
        setUsername('');
        setTicked([]);
      }}
    >
      <label for="organization-member">{t('members.username')}</label>
      <input
        id="organization-member"
        type="text"
        required
        autoComplete="off"
        spellcheck={false}
        value={username}
        onInput={(e) => setUsername(e.currentTarget.value)}
      />
      {roles.length === 0 ? null : (
        <fieldset>
          <legend>{t('organizations.members.roles')}</legend>
          {roles.map((role) => (
            <label key={role} class="check">
              <input
                type="checkbox"
                checked={ticked.includes(role)}
                onChange={(e) =>
                  setTicked(e.currentTarget.checked ? [...ticked, role] : ticked.filter((r) => r !== role))
                }
              />
              <code>{role}</code>
            </label>
          ))}
        </fieldset>
      )}
      <button type="submit" class="button secondary">
        {t('organizations.members.submit')}
      </button>
    </form>
  );
}
