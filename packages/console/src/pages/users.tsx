import { useState } from 'preact/hooks';
import type { AdminApi, Problem } from '../admin.js';
import { onLinkClick, useRouter } from '../router.js';
import { useText } from '../text.js';
import { CursorTable, useCursorList, withCursor, type Column } from './list.js';
import { ProblemNotice, problemOf } from './problem.js';
import { SecretOnce } from './secret-once.js';

export interface User {
  readonly username: string;
  readonly subject: string;
  readonly name?: string;
  readonly email?: string;
  readonly created_at: string;
  readonly disabled_at?: string;
  readonly second_factor_required?: boolean;
}

type State = '' | 'enabled' | 'disabled';

const PAGE_SIZE = 20;

/** The users: searched and filtered by the admin API in the store, a page at a time. */
export function Users({ api, onForbidden }: { readonly api: AdminApi; readonly onForbidden: (e: unknown) => boolean }) {
  const { t } = useText();
  const router = useRouter();
  const [search, setSearch] = useState('');
  const [state, setState] = useState<State>('');
  const [applied, setApplied] = useState<{ q: string; state: State }>({ q: '', state: '' });
  const [created, setCreated] = useState<{ username: string; password: string } | undefined>();
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (applied.q !== '') query.set('q', applied.q);
  if (applied.state !== '') query.set('state', applied.state);
  const list = useCursorList<User>(
    (cursor) => api.get(`/users?${withCursor(query, cursor)}`),
    onForbidden,
    query.toString(),
  );

  const submit = (event: Event) => {
    event.preventDefault();
    list.first();
    setApplied({ q: search.trim(), state });
  };
  const columns: readonly Column<User>[] = [
    {
      header: t('users.username'),
      cell: (u) => {
        const path = `/users/${encodeURIComponent(u.username)}`;
        return (
          <a href={router.href(path)} onClick={onLinkClick(router, path)}>
            {u.username}
          </a>
        );
      },
    },
    { header: t('users.name'), cell: (u) => u.name ?? '' },
    { header: t('users.email'), cell: (u) => u.email ?? '' },
    {
      header: t('users.state'),
      cell: (u) => (u.disabled_at === undefined ? t('users.state.enabled') : t('users.state.disabled')),
    },
  ];

  return (
    <>
      <h1>{t('users.title')}</h1>
      <form class="filters" role="search" onSubmit={submit}>
        <div class="field">
          <label for="user-search">{t('users.search')}</label>
          <input
            id="user-search"
            type="search"
            maxLength={64}
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="user-state">{t('users.state')}</label>
          <select id="user-state" value={state} onChange={(e) => setState(e.currentTarget.value as State)}>
            <option value="">{t('users.state.all')}</option>
            <option value="enabled">{t('users.state.enabled')}</option>
            <option value="disabled">{t('users.state.disabled')}</option>
          </select>
        </div>
        <button type="submit" class="button primary">
          {t('users.apply')}
        </button>
      </form>
      <CursorTable
        id="users"
        caption={t('users.caption')}
        columns={columns}
        list={list}
        rowKey={(u) => u.username}
        empty={t('users.none')}
      />
      <CreateUser
        api={api}
        onCreated={(user) => {
          setCreated(user);
          list.reload();
        }}
      />
      {created === undefined ? null : (
        <SecretOnce label={t('users.created.password', { username: created.username })} secret={created.password} />
      )}
    </>
  );
}

function CreateUser({
  api,
  onCreated,
}: {
  readonly api: AdminApi;
  readonly onCreated: (user: { username: string; password: string }) => void;
}) {
  const { t } = useText();
  const [username, setUsername] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [secondFactor, setSecondFactor] = useState(true);
  const [problem, setProblem] = useState<Problem | undefined>();
  const submit = (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    const body: Record<string, unknown> = { username, second_factor_required: secondFactor };
    if (name.trim() !== '') body.name = name.trim();
    if (email.trim() !== '') body.email = email.trim();
    api
      .request<User & { password?: string }>('POST', '/users', body)
      .then((user) => {
        setUsername('');
        setName('');
        setEmail('');
        onCreated({ username: user.username, password: user.password ?? '' });
      })
      .catch((error: unknown) => setProblem(problemOf(error)));
  };
  return (
    <section class="panel form-panel" aria-labelledby="create-user-title">
      <h2 id="create-user-title">{t('users.create')}</h2>
      {problem === undefined ? null : <ProblemNotice problem={problem} />}
      <form class="stack" onSubmit={submit}>
        <label for="new-username">{t('users.username')}</label>
        <input
          id="new-username"
          type="text"
          required
          autoComplete="off"
          value={username}
          onInput={(e) => setUsername(e.currentTarget.value)}
        />
        <label for="new-name">{t('users.name')}</label>
        <input id="new-name" type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="new-email">{t('users.email')}</label>
        <input id="new-email" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <label class="check">
          <input type="checkbox" checked={secondFactor} onChange={(e) => setSecondFactor(e.currentTarget.checked)} />
          {t('users.create.second-factor')}
        </label>
        <button type="submit" class="button primary">
          {t('users.create.submit')}
        </button>
      </form>
    </section>
  );
}
