import { redirectUriRefusal, type RedirectUriRefusal } from '@gatehouse/contract';
import { useState } from 'preact/hooks';
import type { AdminApi, Problem } from '../admin.js';
import type { MessageId } from '../i18n/index.js';
import { useRouter } from '../router.js';
import { useText } from '../text.js';
import { SecondClick, TypedConfirm } from './confirm.js';
import { Checks } from './fields.js';
import { CursorTable, useCursorList, withCursor, type Column } from './list.js';
import { ProblemNotice, problemOf } from './problem.js';
import { SecretOnce } from './secret-once.js';
import { whenFresh } from './step-up.js';

interface Client {
  readonly client_id: string;
  readonly name: string;
  readonly type: 'public' | 'confidential';
  readonly redirect_uris: readonly string[];
  readonly grant_types: readonly string[];
  readonly scope: string;
}

const PAGE_SIZE = 20;
/** The grants an operator picks for a client (RFC 6749 §4, RFC 8628). */
const GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:device_code',
] as const;

/** The words of the shared redirect URI rule's refusals (@gatehouse/contract redirectUriRefusal). */
const REFUSAL_TEXT: Readonly<Record<RedirectUriRefusal, MessageId>> = {
  characters: 'clients.redirect.characters',
  'not-absolute': 'clients.redirect.not-absolute',
  fragment: 'clients.redirect.fragment',
  'plain-http': 'clients.redirect.plain-http',
};

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
    { header: t('clients.id'), cell: (c) => <code>{c.client_id}</code> },
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
  const list = uris
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line !== '');
  // Each line checked as the server will (one rule, @gatehouse/contract), while the operator types.
  const refusals = list.flatMap((uri) => {
    const refusal = redirectUriRefusal(uri);
    return refusal === undefined ? [] : [{ uri, refusal }];
  });
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
        <label for="client-redirect-uris">{t('clients.redirect-uris')}</label>
        <p id="client-redirect-uris-hint" class="hint">
          {t('clients.redirect.hint')}
        </p>
        <textarea
          id="client-redirect-uris"
          rows={3}
          value={uris}
          spellcheck={false}
          aria-describedby="client-redirect-uris-hint client-redirect-uris-refusals"
          aria-invalid={refusals.length > 0 ? 'true' : undefined}
          onInput={(e) => setUris(e.currentTarget.value)}
        />
        <ul id="client-redirect-uris-refusals" class="plain field-errors" aria-live="polite">
          {refusals.map(({ uri, refusal }) => (
            <li key={uri}>
              <code class="uri">{uri}</code>: {t(REFUSAL_TEXT[refusal])}
            </li>
          ))}
        </ul>
        <Checks legend={t('clients.grant-types')} options={GRANT_TYPES} ticked={grants} onChange={setGrants} />
        <label for="client-scope">{t('clients.scope')}</label>
        <input id="client-scope" value={scope} onInput={(e) => setScope(e.currentTarget.value)} />
        <button type="submit" class="button primary" disabled={refusals.length > 0}>
          {t('clients.create.submit')}
        </button>
      </form>
    </section>
  );
}
