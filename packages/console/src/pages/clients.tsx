import { useState } from 'preact/hooks';
import type { AdminApi, Problem } from '../admin.js';
import { onLinkClick, useRouter } from '../router.js';
import { useText } from '../text.js';
import { SecondClick, TypedConfirm } from './confirm.js';
import { CursorTable, useCursorList, withCursor, type Column } from './list.js';
import { ProblemNotice, problemOf } from './problem.js';
import { GrantTypesField, RedirectUrisField, redirectUriRefusals, redirectUrisOf } from './client-fields.js';
import { SecretOnce } from './secret-once.js';
import { whenFresh } from './step-up.js';

export interface Client {
  readonly client_id: string;
  readonly name: string;
  readonly type: 'public' | 'confidential';
  readonly redirect_uris: readonly string[];
  readonly grant_types: readonly string[];
  readonly scope: string;
}

const PAGE_SIZE = 20;
/** The clients, a page at a time; one registered with its secret shown once; a secret rotated; one deleted. */
export function Clients({
  api,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t } = useText();
  const router = useRouter();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [secret, setSecret] = useState<{ client: string; secret: string } | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  const list = useCursorList<Client>(
    (cursor) => api.get(`/clients?${withCursor(query, cursor)}`),
    onForbidden,
    query.toString(),
  );
  const act = (method: string, path: string, done: (answer: Client & { client_secret?: string }) => void) => {
    setProblem(undefined);
    setNotice(undefined);
    api
      .request<Client & { client_secret?: string }>(method, path)
      .then((answer) => {
        done(answer);
        list.reload();
      })
      .catch((error: unknown) => setProblem(problemOf(error)));
  };
  const actions = (c: Client) => {
    const path = `/clients/${encodeURIComponent(c.client_id)}`;
    return (
      <>
        {c.type === 'confidential' ? (
          <SecondClick
            label={t('clients.rotate')}
            confirm={t('clients.rotate.confirm', { client: c.client_id })}
            onConfirm={() =>
              whenFresh(api, router.path, () =>
                act('POST', `${path}/secret`, (answer) =>
                  setSecret({ client: c.client_id, secret: answer.client_secret ?? '' }),
                ),
              )
            }
          />
        ) : null}
        {/* The console's own client is not offered: deleting it would end this sign-in. */}
        {c.client_id === api.session.config.clientId ? null : (
          <TypedConfirm
            id={`delete-${c.client_id}`}
            name={c.client_id}
            submit={t('clients.delete')}
            onConfirm={() =>
              whenFresh(api, router.path, () =>
                act('DELETE', path, () => setNotice(t('clients.deleted', { client: c.client_id }))),
              )
            }
          />
        )}
      </>
    );
  };
  const columns: readonly Column<Client>[] = [
    {
      header: t('clients.id'),
      cell: (c) => {
        const to = `/clients/${encodeURIComponent(c.client_id)}`;
        return (
          <a href={router.href(to)} onClick={onLinkClick(router, to)}>
            <code>{c.client_id}</code>
          </a>
        );
      },
    },
    { header: t('clients.name'), cell: (c) => c.name },
    { header: t('clients.type'), cell: (c) => (c.type === 'public' ? t('clients.public') : t('clients.confidential')) },
    {
      header: t('clients.redirect-uris'),
      cell: (c) =>
        c.redirect_uris.map((uri) => (
          <code key={uri} class="uri">
            {uri}
          </code>
        )),
    },
    { header: t('clients.actions'), cell: actions, class: 'row-actions' },
  ];
  return (
    <>
      <h1>{t('clients.title')}</h1>
      {problem !== undefined ? <ProblemNotice problem={problem} /> : null}
      {notice === undefined ? null : (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {secret === undefined ? null : (
        <SecretOnce label={t('clients.secret.once', { client: secret.client })} secret={secret.secret} />
      )}
      <CursorTable
        id="clients"
        caption={t('clients.caption')}
        columns={columns}
        list={list}
        rowKey={(c) => c.client_id}
        empty={t('clients.none')}
      />
      <CreateClient
        api={api}
        onCreated={(client) => {
          setSecret(
            client.client_secret === undefined ? undefined : { client: client.client_id, secret: client.client_secret },
          );
          setNotice(t('clients.created', { client: client.client_id }));
          list.reload();
        }}
      />
    </>
  );
}

function CreateClient({
  api,
  onCreated,
}: {
  readonly api: AdminApi;
  readonly onCreated: (client: Client & { client_secret?: string }) => void;
}) {
  const { t } = useText();
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [isPublic, setPublic] = useState(false);
  const [uris, setUris] = useState('');
  const [grants, setGrants] = useState<readonly string[]>(['authorization_code', 'refresh_token']);
  const [scope, setScope] = useState('openid profile');
  const [problem, setProblem] = useState<Problem | undefined>();
  const list = redirectUrisOf(uris);
  const refusals = redirectUriRefusals(list);
  const submit = (event: Event) => {
    event.preventDefault();
    if (refusals.length > 0) return;
    setProblem(undefined);
    api
      .request<Client & { client_secret?: string }>('POST', '/clients', {
        client_id: id,
        name,
        public: isPublic,
        redirect_uris: list,
        grant_types: grants,
        scope,
      })
      .then((client) => {
        setId('');
        setName('');
        setUris('');
        onCreated(client);
      })
      .catch((error: unknown) => setProblem(problemOf(error)));
  };
  return (
    <section class="panel form-panel" aria-labelledby="create-client-title">
      <h2 id="create-client-title">{t('clients.create')}</h2>
      {problem !== undefined ? <ProblemNotice problem={problem} /> : null}
      <form class="stack" onSubmit={submit}>
        <label for="client-id">{t('clients.id')}</label>
        <input id="client-id" required value={id} autoComplete="off" onInput={(e) => setId(e.currentTarget.value)} />
        <label for="client-name">{t('clients.name')}</label>
        <input id="client-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <label class="check">
          <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.currentTarget.checked)} />
          {t('clients.public.hint')}
        </label>
        <RedirectUrisField id="client-redirect-uris" value={uris} onInput={setUris} />
        <GrantTypesField value={grants} onChange={setGrants} />
        <label for="client-scope">{t('clients.scope')}</label>
        <input id="client-scope" value={scope} onInput={(e) => setScope(e.currentTarget.value)} />
        <button type="submit" class="button primary" disabled={refusals.length > 0}>
          {t('clients.create.submit')}
        </button>
      </form>
    </section>
  );
}
