import { useState } from 'preact/hooks';
import type { AdminApi, Page } from '../admin.js';
import { ConsoleLink } from '../link.js';
import { useText } from '../text.js';
import { ChangeButton, DeleteSection, OneFieldForm, Outcome, useChanges } from './change.js';
import { groupPath, type Group } from './groups.js';
import { LoadState, Table, useLoaded, type Column } from './list.js';
import { roleApiPath, roleColumns, rolePath, rolesHeldBy, type Role } from './roles.js';

interface Loaded {
  readonly group: Group | undefined;
  readonly members: readonly string[];
  readonly roles: readonly Role[];
  readonly held: readonly Role[];
}

const userPath = (username: string): string => `/users/${encodeURIComponent(username)}`;

/** One group: its members (added, removed), the roles it holds (assigned, taken back), and its removal. */
export function GroupPage({
  api,
  name,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly name: string;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t } = useText();
  const path = groupPath(name);
  const holder = `group:${name}`;
  const loaded = useLoaded(
    async (): Promise<Loaded> => {
      // The members first: an unknown group is the API's 404, shown as it came.
      const { members } = await api.get<{ members: string[] }>(`${path}/members`);
      // The roles to pick from are the first hundred; the ones held are read by holder, whole.
      const [group, roles, held] = await Promise.all([
        api.get<Group>(path),
        api.get<Page<Role>>('/roles?limit=100'),
        rolesHeldBy(api, holder),
      ]);
      return { group, members, roles: roles.items, held };
    },
    onForbidden,
    [name],
  );
  const changes = useChanges(api, onForbidden);
  const memberColumns: readonly Column<string>[] = [
    { header: t('users.username'), cell: (username) => <ConsoleLink to={userPath(username)}>{username}</ConsoleLink> },
    {
      header: t('clients.actions'),
      cell: (username) => (
        <ChangeButton
          changes={changes}
          label={t('members.remove')}
          confirm={t('members.remove.confirm', { username, group: name })}
          request={{
            method: 'DELETE',
            path: `${path}/members/${encodeURIComponent(username)}`,
            done: t('members.removed', { username, group: name }),
          }}
          then={loaded.reload}
        />
      ),
    },
  ];
  const heldColumns: readonly Column<Role>[] = [
    ...roleColumns(t),
    {
      header: t('clients.actions'),
      cell: (r) => (
        <ChangeButton
          changes={changes}
          label={t('roles.unassign')}
          confirm={t('roles.unassign.confirm', { role: r.name, holder: name })}
          request={{
            method: 'POST',
            path: roleApiPath(r, '/unassign'),
            body: { group: name },
            done: t('roles.unassigned', { role: r.name, holder: name }),
          }}
          then={loaded.reload}
        />
      ),
    },
  ];
  return (
    <>
      <p>
        <ConsoleLink to="/groups">{t('groups.back')}</ConsoleLink>
      </p>
      <h1>{name}</h1>
      <Outcome outcome={changes.outcome} />
      <LoadState loaded={loaded}>
        {({ group, members, roles, held }) => (
          <div class="panels">
            <section class="panel" aria-labelledby="group-details">
              <h2 id="group-details">{t('user.details')}</h2>
              <dl class="values">
                <dt>{t('groups.parent')}</dt>
                <dd>{group?.parent ?? '—'}</dd>
              </dl>
            </section>
            <section class="panel" aria-labelledby="group-members">
              <h2 id="group-members">{t('members.title')}</h2>
              {members.length === 0 ? (
                <p>{t('members.none')}</p>
              ) : (
                <Table
                  id="group-members-table"
                  labelledBy="group-members"
                  columns={memberColumns}
                  items={members}
                  rowKey={(u) => u}
                />
              )}
              <OneFieldForm
                id="group-member"
                label={t('members.username')}
                submit={t('members.add')}
                onSubmit={(username) =>
                  changes.change(
                    'PUT',
                    `${path}/members/${encodeURIComponent(username)}`,
                    undefined,
                    t('members.added', { username, group: name }),
                    loaded.reload,
                  )
                }
              />
            </section>
            <section class="panel panel-wide" aria-labelledby="group-roles">
              <h2 id="group-roles">{t('groups.roles')}</h2>
              {held.length === 0 ? (
                <p>{t('groups.roles.none')}</p>
              ) : (
                <Table
                  id="group-roles-table"
                  labelledBy="group-roles"
                  columns={heldColumns}
                  items={held}
                  rowKey={(r) => `${r.api ?? ''} ${r.name}`}
                />
              )}
              <AssignRole
                roles={roles.filter((r) => !held.some((h) => rolePath(h) === rolePath(r)))}
                onAssign={(r) =>
                  changes.change(
                    'POST',
                    roleApiPath(r, '/assign'),
                    { group: name },
                    t('roles.assigned', { role: r.name, holder: name }),
                    loaded.reload,
                  )
                }
              />
            </section>
            <DeleteSection
              api={api}
              changes={changes}
              id="delete-group"
              title={t('groups.delete')}
              hint={t('groups.delete.hint')}
              name={name}
              path={path}
              done={t('groups.deleted', { group: name })}
              back="/groups"
            />
          </div>
        )}
      </LoadState>
    </>
  );
}

/** A role to give, picked from those not held yet. */
export function AssignRole({
  roles,
  onAssign,
}: {
  readonly roles: readonly Role[];
  readonly onAssign: (role: Role) => void;
}) {
  const { t } = useText();
  const [picked, setPicked] = useState('');
  const key = (r: Role): string => rolePath(r);
  const first = roles[0];
  if (first === undefined) return null;
  // The first role stays picked until another is: a select shows no blank choice.
  const current = roles.some((r) => key(r) === picked) ? picked : key(first);
  return (
    <form
      class="stack"
      onSubmit={(event) => {
        event.preventDefault();
        onAssign(roles.find((r) => key(r) === current) ?? first);
        setPicked('');
      }}
    >
      <label for="assign-role">{t('roles.assign.pick')}</label>
      <select id="assign-role" value={current} onChange={(e) => setPicked(e.currentTarget.value)}>
        {roles.map((r) => (
          <option key={key(r)} value={key(r)}>
            {r.api === null ? r.name : `${r.name} (${r.api})`}
          </option>
        ))}
      </select>
      <button type="submit" class="button secondary">
        {t('roles.assign')}
      </button>
    </form>
  );
}
