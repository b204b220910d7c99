import { useState } from 'preact/hooks';
import type { AdminApi, Problem } from '../admin.js';
import { onLinkClick, useRouter } from '../router.js';
import { useText } from '../text.js';
import { GrantTypesField, RedirectUrisField, redirectUriRefusals, redirectUrisOf } from './client-fields.js';
import type { Client } from './clients.js';
import { LoadState, useLoaded } from './list.js';
import { ProblemNotice, problemOf } from './problem.js';

/** A client as the admin API answers it: every setting, with what only the server sets. */
type Registration = Client & Readonly<Record<string, unknown>>;

/** What the server sets and a replacement (PUT, ClientUpdate) does not carry. */
const READ_ONLY = ['client_id', 'type', 'created_at', 'admin', 'token_endpoint_auth_method'];

/**
 * One client's registration, edited: redirect URIs (checked while typed by the exact-match rule),
 * grant types, scopes, the FAPI 2.0 profile and DPoP binding. The admin API's PUT replaces every
 * setting, so the settings this page does not show are sent back as they were read.
 */
export function ClientPage({
  api,
  clientId,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly clientId: string;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t } = useText();
  const router = useRouter();
  const path = `/clients/${encodeURIComponent(clientId)}`;
  const loaded = useLoaded(() => api.get<Registration>(path), onForbidden, [clientId]);
  return (
    <>
      <p>
        <a href={router.href('/clients')} onClick={onLinkClick(router, '/clients')}>
          {t('client.back')}
        </a>
      </p>
      <h1>{clientId}</h1>
      <LoadState loaded={loaded}>
        {(client) => <EditClient key={String(client['created_at'])} api={api} path={path} client={client} />}
      </LoadState>
    </>
  );
}

function EditClient({
  api,
  path,
  client,
}: {
  readonly api: AdminApi;
  readonly path: string;
  readonly client: Registration;
}) {
  const { t } = useText();
  const [name, setName] = useState(client.name);
  const [uris, setUris] = useState(client.redirect_uris.join('\n'));
  const [grants, setGrants] = useState<readonly string[]>(client.grant_types);
  const [scope, setScope] = useState(client.scope);
  const [profile, setProfile] = useState(client['profile'] === 'fapi2' ? 'fapi2' : 'none');
  const [dpop, setDpop] = useState(client['dpop_bound_access_tokens'] === true);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [saved, setSaved] = useState(false);
  const list = redirectUrisOf(uris);
  const refusals = redirectUriRefusals(list);
  const submit = (event: Event) => {
    event.preventDefault();
    if (refusals.length > 0) return;
    setProblem(undefined);
    setSaved(false);
    const kept = Object.fromEntries(Object.entries(client).filter(([key]) => !READ_ONLY.includes(key)));
    api
      .request('PUT', path, {
        ...kept,
        name,
        redirect_uris: list,
        grant_types: grants,
        scope,
        profile,
        dpop_bound_access_tokens: dpop,
      })
      .then(() => setSaved(true))
      .catch((error: unknown) => setProblem(problemOf(error)));
  };
  return (
    <section class="panel form-panel" aria-labelledby="edit-client-title">
      <h2 id="edit-client-title">{t('client.edit')}</h2>
      {saved ? (
        <p class="notice" role="status">
          {t('client.saved', { client: client.client_id })}
        </p>
      ) : null}
      {problem === undefined ? null : <ProblemNotice problem={problem} />}
      <form class="stack" onSubmit={submit}>
        <label for="edit-client-name">{t('clients.name')}</label>
        <input id="edit-client-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <RedirectUrisField id="edit-client-redirect-uris" value={uris} onInput={setUris} />
        <GrantTypesField value={grants} onChange={setGrants} />
        <label for="edit-client-scope">{t('clients.scope')}</label>
        <input id="edit-client-scope" value={scope} onInput={(e) => setScope(e.currentTarget.value)} />
        <label for="edit-client-profile">{t('client.profile')}</label>
        <p id="edit-client-profile-hint" class="hint">
          {t('client.profile.hint')}
        </p>
        <select
          id="edit-client-profile"
          aria-describedby="edit-client-profile-hint"
          value={profile}
          onChange={(e) => setProfile(e.currentTarget.value)}
        >
          <option value="none">{t('client.profile.none')}</option>
          <option value="fapi2">{t('client.profile.fapi2')}</option>
        </select>
        <label class="check">
          <input type="checkbox" checked={dpop} onChange={(e) => setDpop(e.currentTarget.checked)} />
          {t('client.dpop')}
        </label>
        <button type="submit" class="button primary" disabled={refusals.length > 0}>
          {t('client.save')}
        </button>
      </form>
    </section>
  );
}
