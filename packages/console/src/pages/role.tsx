import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin.js';
import type { MessageId } from '../i18n/index.js';
import { ConsoleLink } from '../link.js';
import { useText } from '../text.js';
import { ChangeButton, DeleteSection, Outcome, useChanges } from './change.js';
import { groupPath } from './groups.js';
import { LoadState, Table, useLoaded, type Column } from './list.js';
import { roleApiPath, type Role } from './roles.js';

/** Who may hold a role, as the admin API names them (RoleHolder; a client: server-wide roles only). */
type HolderKind = 'user' | 'group' | 'client';
const KIND_TEXT: Readonly<Record<HolderKind, MessageId>> = {
  user: 'roles.holder.user',
  group: 'roles.holder.group',
  client: 'roles.holder.client',
};

interface Holder {
  readonly kind: HolderKind;
  readonly name: string;
}

/** A holder as listed (`user:alice`), split into its kind and name. */
function holderOf(label: string): Holder {
  const colon = label.indexOf(':');
  return { kind: label.slice(0, colon) as HolderKind, name: label.slice(colon + 1) };
}

/** One role: who holds it (given, taken back) and its removal; a built-in role is never removed. */
export function RolePage({
  api,
  name,
  audience,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly name: string;
  /** The role's API, or null for a server-wide role. */
  readonly audience: string | null;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t } = useText();
  const self = { name, api: audience };
  const loaded = useLoaded(
    async () => {
      const { holders } = await api.get<{ holders: string[] }>(roleApiPath(self, '/holders'));
      const role = await api.get<Role>(roleApiPath(self));
      return { role, holders: holders.map(holderOf) };
    },
    onForbidden,
    [name, audience],
  );
  const changes = useChanges(api, onForbidden);
  const linkOf = ({ kind, name: held }: Holder) => {
    if (kind === 'client') return <code>{held}</code>;
    return (
      <ConsoleLink to={kind === 'user' ? `/users/${encodeURIComponent(held)}` : groupPath(held)}>{held}</ConsoleLink>
    );
  };
  const columns: readonly Column<Holder>[] = [
    { header: t('roles.holder'), cell: linkOf },
    { header: t('roles.holder.kind'), cell: (h) => t(KIND_TEXT[h.kind]) },
    {
      header: t('clients.actions'),
      cell: (h) => (
        <ChangeButton
          changes={changes}
          label={t('roles.unassign')}
          confirm={t('roles.unassign.confirm', { role: name, holder: h.name })}
          request={{
            method: 'POST',
            path: roleApiPath(self, '/unassign'),
            body: { [h.kind]: h.name },
            done: t('roles.unassigned', { role: name, holder: h.name }),
          }}
          then={loaded.reload}
        />
      ),
    },
  ];
  return (
    <>
      <p>
        <ConsoleLink to="/roles">{t('roles.back')}</ConsoleLink>
      </p>
      <h1>{name}</h1>
      <p>{audience === null ? t('roles.api.none') : t('roles.of-api', { api: audience })}</p>
      <Outcome outcome={changes.outcome} />
      <LoadState loaded={loaded}>
        {({ role, holders }) => (
          <div class="panels">
            <section class="panel panel-wide" aria-labelledby="role-holders">
              <h2 id="role-holders">{t('roles.holders')}</h2>
              {role?.description == null ? null : <p>{role.description}</p>}
              {holders.length === 0 ? (
                <p>{t('roles.holders.none')}</p>
              ) : (
                <Table
                  id="role-holders-table"
                  labelledBy="role-holders"
                  columns={columns}
                  items={holders}
                  rowKey={(h) => `${h.kind}:${h.name}`}
                />
              )}
              <AssignHolder
                serverWide={audience === null}
                onAssign={(kind, held) =>
                  changes.change(
                    'POST',
                    roleApiPath(self, '/assign'),
                    { [kind]: held },
                    t('roles.assigned', { role: name, holder: held }),
                    loaded.reload,
                  )
                }
              />
            </section>
            {role?.built_in === true ? (
              <section class="panel panel-wide" aria-labelledby="role-built-in">
                <h2 id="role-built-in">{t('roles.delete')}</h2>
                <p>{t('roles.delete.built-in')}</p>
              </section>
            ) : (
              <DeleteSection
                api={api}
                changes={changes}
                id="delete-role"
                title={t('roles.delete')}
                hint={t('roles.delete.hint')}
                name={name}
                path={roleApiPath(self)}
                done={t('roles.deleted', { role: name })}
                back="/roles"
              />
            )}
          </div>
        )}
      </LoadState>
    </>
  );
}

/** A holder to give the role to: a user, a group, or (a server-wide role) a client. */
function AssignHolder({
  serverWide,
  onAssign,
}: {
  readonly serverWide: boolean;
  readonly onAssign: (kind: HolderKind, name: string) => void;
}) {
  const { t } = useText();
  const [kind, setKind] = useState<HolderKind>('user');
  const [held, setHeld] = useState('');
  const kinds: readonly HolderKind[] = serverWide ? ['user', 'group', 'client'] : ['user', 'group'];
  return (
    <form
      class="stack form-panel"
      onSubmit={(event) => {
        event.preventDefault();
        if (held.trim() === '') return;
        onAssign(kind, held.trim());
        setHeld('');
      }}
    >
      <label for="holder-kind">{t('roles.holder.kind')}</label>
      <select id="holder-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as HolderKind)}>
        {kinds.map((k) => (
          <option key={k} value={k}>
            {t(KIND_TEXT[k])}
          </option>
        ))}
      </select>
      <label for="holder-name">{t('roles.holder')}</label>
      <input
        id="holder-name"
        type="text"
        required
        autoComplete="off"
        spellcheck={false}
        value={held}
        onInput={(e) => setHeld(e.currentTarget.value)}
      />
      <button type="submit" class="button secondary">
        {t('roles.assign')}
      </button>
    </form>
  );
}
