import type { AdminApi } from '../admin.js';
import { ConsoleLink } from '../link.js';
import { useText } from '../text.js';
import { DeleteSection, Outcome, useChanges } from './change.js';
import { LoadState, useLoaded } from './list.js';
import { TestSignIn } from './test-sign-in.js';
import { formOf, type Upstream } from './upstream-fields.js';
import { UpstreamForm } from './upstream-form.js';
import { upstreamPath } from './upstreams.js';

/**
 * One upstream provider: its settings (never its credential, which the admin API does not answer),
 * a test sign-in, its replacement and its deletion.
 */
export function UpstreamPage({
  api,
  id,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly id: string;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t } = useText();
  const path = upstreamPath(id);
  const loaded = useLoaded(() => api.get<Upstream>(path), onForbidden, [id]);
  const changes = useChanges(api, onForbidden);
  return (
    <>
      <p>
        <ConsoleLink to="/upstreams">{t('upstreams.back')}</ConsoleLink>
      </p>
      <h1>{id}</h1>
      <Outcome outcome={changes.outcome} />
      <LoadState loaded={loaded}>
        {(upstream) => (
          <div class="panels">
            <Settings upstream={upstream} />
            <TestSignIn api={api} upstream={upstream.id} />
            <section class="panel form-panel" aria-labelledby="edit-upstream-title">
              <h2 id="edit-upstream-title">{t('upstream.edit')}</h2>
              <UpstreamForm
                key={JSON.stringify(upstream)}
                prefix="edit-upstream"
                initial={formOf(upstream)}
                withId={false}
                submit={t('upstream.save')}
                onSubmit={(_id, body) => changes.change('PUT', path, body, t('upstream.saved', { id }), loaded.reload)}
              />
            </section>
            <DeleteSection
              api={api}
              changes={changes}
              id="delete-upstream"
              title={t('upstream.delete')}
              hint={t('upstream.delete.hint')}
              name={id}
              path={path}
              done={t('upstream.deleted', { id })}
              back="/upstreams"
            />
          </div>
        )}
      </LoadState>
    </>
  );
}

function Settings({ upstream }: { readonly upstream: Upstream }) {
  const { t } = useText();
  const list = (values: readonly string[]) => (values.length === 0 ? '—' : values.join(' '));
  const claims = Object.entries(upstream.claims);
  return (
    <section class="panel panel-wide" aria-labelledby="upstream-settings-title">
      <h2 id="upstream-settings-title">{t('upstream.settings')}</h2>
      <dl class="values">
        <dt>{t('upstreams.display-name')}</dt>
        <dd>{upstream.display_name}</dd>
        <dt>{t('upstreams.issuer')}</dt>
        <dd>
          <code>{upstream.issuer}</code>
        </dd>
        <dt>{t('upstreams.client-id')}</dt>
        <dd>
          <code>{upstream.client_id}</code>
        </dd>
        <dt>{t('upstreams.client-auth')}</dt>
        <dd>
          <code>{upstream.client_auth}</code>
        </dd>
        <dt>{t('upstream.credential')}</dt>
        <dd>{upstream.credential_sealed ? t('upstream.credential.sealed') : t('upstream.credential.plain')}</dd>
        <dt>{t('upstreams.scopes')}</dt>
        <dd>{list(upstream.scopes)}</dd>
        <dt>{t('upstreams.domains')}</dt>
        <dd>{list(upstream.domains)}</dd>
        <dt>{t('upstreams.trusted')}</dt>
        <dd>{list(upstream.trust_email_verified_domains)}</dd>
        <dt>{t('upstreams.mfa-acr')}</dt>
        <dd>{list(upstream.mfa_acr_values)}</dd>
        <dt>{t('upstreams.claims')}</dt>
        <dd>{claims.length === 0 ? t('upstream.claims.same') : claims.map(([k, v]) => `${k} ← ${v}`).join(', ')}</dd>
        <dt>{t('upstreams.provision')}</dt>
        <dd>{upstream.provision ? t('common.yes') : t('common.no')}</dd>
        <dt>{t('upstreams.end-session')}</dt>
        <dd>{upstream.end_session ? t('common.yes') : t('common.no')}</dd>
      </dl>
    </section>
  );
}
