import { useState } from 'preact/hooks';
import type { AdminApi, Page, Problem } from '../admin.js';
import { onLinkClick, useRouter } from '../router.js';
import { useText } from '../text.js';
import { SecondClick, TypedConfirm } from './confirm.js';
import { LoadState, Table, useLoaded, type Column } from './list.js';
import { ProblemNotice, problemOf } from './problem.js';
import type { User } from './users.js';

interface Factor {
  readonly kind: string;
  readonly name?: string;
  readonly created_at: string | null;
  readonly last_used_at: string | null;
  readonly remaining?: number;
}

interface Grant {
  readonly grant_id: string;
  readonly client_id: string;
  readonly scope: string;
  readonly created_at: string;
  readonly revoked_at: string | null;
}

/** A browser session of the user, as the admin API names it (a handle, never the cookie). */
interface BrowserSession {
  readonly session_id: string;
  readonly signed_in_at: string | null;
  readonly expires_at: string;
  readonly methods: readonly string[];
}

interface Loaded {
  readonly user: User;
  readonly factors: readonly Factor[];
  readonly grants: readonly Grant[];
  readonly sessions: readonly BrowserSession[];
}

/** One user: its details, second factors and grants, and what an operator does to it. */
export function UserPage({
  api,
  username,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly username: string;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t, locale } = useText();
  const router = useRouter();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const path = `/users/${encodeURIComponent(username)}`;
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const when = (iso: string | null): string => (iso === null ? '—' : time.format(new Date(iso)));

  const loaded = useLoaded(
    async (): Promise<Loaded> => {
      const [user, { factors }, grants, sessions] = await Promise.all([
        api.get<User>(path),
        api.get<{ factors: Factor[] }>(`${path}/factors`),
        api.get<Page<Grant>>(`/grants?user=${encodeURIComponent(username)}&limit=100`),
        api.get<{ items: BrowserSession[] }>(`${path}/sessions`),
      ]);
      return { user, factors, grants: grants.items, sessions: sessions.items };
    },
    onForbidden,
    [username],
  );

  const act = <T,>(method: string, target: string, done: string | ((answer: T) => string)) => {
    setProblem(undefined);
    setNotice(undefined);
    api
      .request<T>(method, target)
      .then((answer) => {
        setNotice(typeof done === 'string' ? done : done(answer));
        loaded.reload();
      })
      .catch((error: unknown) => {
        if (!onForbidden(error)) setProblem(problemOf(error));
      });
  };

  const grantColumns: readonly Column<Grant>[] = [
    { header: t('table.client'), cell: (g) => g.client_id },
    { header: t('table.scope'), cell: (g) => <code>{g.scope}</code> },
    { header: t('table.created'), cell: (g) => when(g.created_at) },
    {
      header: t('users.state'),
      cell: (g) =>
        g.revoked_at !== null ? (
          t('user.grants.revoked')
        ) : (
          <SecondClick
            label={t('user.grants.revoke')}
            confirm={t('user.grants.revoke.confirm', { client: g.client_id })}
            onConfirm={() =>
              act(
                'POST',
                `/grants/${encodeURIComponent(g.grant_id)}/revoke`,
                t('user.grants.revoked.done', { client: g.client_id }),
              )
            }
          />
        ),
    },
  ];
  const sessionColumns: readonly Column<BrowserSession>[] = [
    { header: t('user.sessions.signed-in'), cell: (b) => when(b.signed_in_at) },
    { header: t('user.sessions.methods'), cell: (b) => <code>{b.methods.join(' ')}</code> },
    { header: t('user.sessions.expires'), cell: (b) => when(b.expires_at) },
    {
      header: t('clients.actions'),
      cell: (b) => (
        <SecondClick
          label={t('user.sessions.end')}
          confirm={t('user.sessions.end.confirm')}
          onConfirm={() =>
            act('DELETE', `${path}/sessions/${encodeURIComponent(b.session_id)}`, t('user.sessions.ended'))
          }
        />
      ),
    },
  ];
  return (
    <>
      <p>
        <a href={router.href('/users')} onClick={onLinkClick(router, '/users')}>
          {t('user.back')}
        </a>
      </p>
      <h1>{username}</h1>
      {notice === undefined ? null : (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {problem === undefined ? null : <ProblemNotice problem={problem} />}
      <LoadState loaded={loaded}>
        {({ user, factors, grants, sessions }) => (
          <div class="panels">
            <section class="panel" aria-labelledby="user-details">
              <h2 id="user-details">{t('user.details')}</h2>
              <dl class="values">
                <dt>{t('user.subject')}</dt>
                <dd>
                  <code>{user.subject}</code>
                </dd>
                {user.name === undefined ? null : (
                  <>
                    <dt>{t('users.name')}</dt>
                    <dd>{user.name}</dd>
                  </>
                )}
                {user.email === undefined ? null : (
                  <>
                    <dt>{t('users.email')}</dt>
                    <dd>{user.email}</dd>
                  </>
                )}
                <dt>{t('user.created')}</dt>
                <dd>{when(user.created_at)}</dd>
                <dt>{t('users.state')}</dt>
                <dd>
                  {user.disabled_at === undefined
                    ? t('users.state.enabled')
                    : t('user.disabled-since', { time: when(user.disabled_at) })}
                </dd>
              </dl>
              <div class="row-actions">
                {user.disabled_at === undefined ? (
                  <SecondClick
                    label={t('user.disable')}
                    confirm={t('user.disable.confirm', { username })}
                    onConfirm={() => act('POST', `${path}/disable`, t('user.disabled', { username }))}
                  />
                ) : (
                  <button
                    type="button"
                    class="button secondary"
                    onClick={() => act('POST', `${path}/enable`, t('user.enabled', { username }))}
                  >
                    {t('user.enable')}
                  </button>
                )}
                <SecondClick
                  label={t('user.sign-out')}
                  confirm={t('user.sign-out.confirm', { username })}
                  onConfirm={() =>
                    act<{ sessions_ended: number; grants_revoked: number }>('POST', `${path}/sign-out`, (answer) =>
                      t('user.signed-out', {
                        username,
                        sessions: answer.sessions_ended,
                        grants: answer.grants_revoked,
                      }),
                    )
                  }
                />
              </div>
            </section>
            <section class="panel" aria-labelledby="user-factors">
              <h2 id="user-factors">{t('user.factors')}</h2>
              {factors.length === 0 ? (
                <p>{t('user.factors.none')}</p>
              ) : (
                <ul class="plain">
                  {factors.map((f, i) => (
                    <li key={i}>
                      <code>{f.kind}</code>
                      {f.name === undefined ? '' : ` · ${f.name}`} · {when(f.created_at)}
                    </li>
                  ))}
                </ul>
              )}
              {factors.length === 0 ? null : (
                <TypedConfirm
                  id="reset-factors"
                  name={username}
                  submit={t('user.factors.reset')}
                  onConfirm={() => act('POST', `${path}/factors/reset`, t('user.factors.reset.done'))}
                />
              )}
            </section>
            <section class="panel panel-wide" aria-labelledby="user-sessions">
              <h2 id="user-sessions">{t('user.sessions')}</h2>
              {sessions.length === 0 ? (
                <p>{t('user.sessions.none')}</p>
              ) : (
                <Table
                  id="user-sessions-table"
                  labelledBy="user-sessions"
                  columns={sessionColumns}
                  items={sessions}
                  rowKey={(b) => b.session_id}
                />
              )}
            </section>
            <section class="panel panel-wide" aria-labelledby="user-grants">
              <h2 id="user-grants">{t('user.grants')}</h2>
              {grants.length === 0 ? (
                <p>{t('user.grants.none')}</p>
              ) : (
                <Table
                  id="user-grants-table"
                  labelledBy="user-grants"
                  columns={grantColumns}
                  items={grants}
                  rowKey={(g) => g.grant_id}
                />
              )}
            </section>
          </div>
        )}
      </LoadState>
    </>
  );
}
