import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin.js';
import { ConsoleLink } from '../link.js';
import { useText } from '../text.js';
import { ChangeButton, DeleteSection, OneFieldForm, Outcome, useChanges } from './change.js';
import { Checks } from './fields.js';
import { Day, LoadState, Table, useLoaded, type Column } from './list.js';
import { Domains, PolicyForm } from './organization-settings.js';
import { organizationPath, type Organization } from './organizations.js';

/** A member as the admin API describes it (GET /organizations/{organization}/members). */
interface Member {
  readonly subject: string;
  readonly username: string | null;
  readonly roles: readonly string[];
  readonly source: string;
  readonly joined_at: string;
}

/**
 * One organization: its sign-in policy and e-mail domains (organization-settings.tsx), its roles
 * (defined, removed), its members with their organization roles (added, given other roles, removed),
 * and its removal.
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
  const { t } = useText();
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
  const memberColumns: readonly Column<Member>[] = [
    {
      header: t('users.username'),
      cell: (m) =>
        m.username === null ? (
          <code>{m.subject}</code>
        ) : (
          <ConsoleLink to={`/users/${encodeURIComponent(m.username)}`}>{m.username}</ConsoleLink>
        ),
    },
    { header: t('organizations.roles'), cell: (m) => m.roles.join(', ') || '—' },
    { header: t('organizations.joined'), cell: (m) => <Day iso={m.joined_at} /> },
    {
      header: t('clients.actions'),
      cell: ({ username }) =>
        username === null ? null : (
          <ChangeButton
            changes={changes}
            label={t('members.remove')}
            confirm={t('members.remove.confirm', { username, group: slug })}
            request={{
              method: 'DELETE',
              path: `${path}/members/${encodeURIComponent(username)}`,
              done: t('members.removed', { username, group: slug }),
            }}
            then={loaded.reload}
          />
        ),
    },
  ];
  return (
    <>
      <p>
        <ConsoleLink to="/organizations">{t('organizations.back')}</ConsoleLink>
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
              </dl>
            </section>
            <PolicyForm
              key={JSON.stringify(organization.policy)}
              organization={organization}
              onChange={(policy) =>
                changes.change('PATCH', path, { policy }, t('organizations.policy.changed'), loaded.reload)
              }
            />
            <Domains organization={organization} path={path} changes={changes} reload={loaded.reload} />
            <section class="panel" aria-labelledby="organization-roles">
              <h2 id="organization-roles">{t('organizations.roles')}</h2>
              {organization.roles.length === 0 ? <p>{t('organizations.roles.none')}</p> : null}
              <ul class="plain">
                {organization.roles.map((role) => (
                  <li key={role} class="row-actions">
                    <code>{role}</code>
                    <ChangeButton
                      changes={changes}
                      label={t('organizations.roles.remove', { role })}
                      confirm={t('organizations.roles.remove.confirm', { role })}
                      request={{
                        method: 'PATCH',
                        path,
                        body: { remove_roles: [role] },
                        done: t('organizations.roles.removed', { role }),
                      }}
                      then={loaded.reload}
                    />
                  </li>
                ))}
              </ul>
              <OneFieldForm
                id="organization-role"
                label={t('organizations.roles.new')}
                submit={t('organizations.roles.add')}
                onSubmit={(role) =>
                  changes.change(
                    'PATCH',
                    path,
                    { add_roles: [role] },
                    t('organizations.roles.added', { role }),
                    loaded.reload,
                  )
                }
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
            <DeleteSection
              api={api}
              changes={changes}
              id="delete-organization"
              title={t('organizations.delete')}
              hint={t('organizations.delete.hint')}
              name={slug}
              path={path}
              done={t('organizations.deleted', { organization: slug })}
              back="/organizations"
            />
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
        <Checks legend={t('organizations.members.roles')} options={roles} ticked={ticked} onChange={setTicked} />
      )}
      <button type="submit" class="button secondary">
        {t('organizations.members.submit')}
      </button>
    </form>
  );
}
