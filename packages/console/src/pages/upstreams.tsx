import { useState } from 'preact/hooks';
import { AdminError, type AdminApi } from '../admin.js';
import { ConsoleLink } from '../link.js';
import { useRouter } from '../router.js';
import { useText } from '../text.js';
import { useChanges } from './change.js';
import { ListPage, useLoaded, type Column } from './list.js';
import { EMPTY_FORM, type Upstream } from './upstream-fields.js';
import { UpstreamForm } from './upstream-form.js';

export const upstreamPath = (id: string): string => `/upstreams/${encodeURIComponent(id)}`;

/** The upstream OpenID Providers, searched by id, name or issuer; one added (docs/federation.md). */
export function Upstreams({
  api,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly onForbidden: (e: unknown) => boolean;
}) {
  const { t } = useText();
  const router = useRouter();
  const changes = useChanges(api, onForbidden);
  // The id being typed for a new provider, looked up: adding a used id would replace that provider.
  const [typedId, setTypedId] = useState('');
  const taken = useLoaded<string | undefined>(
    () =>
      typedId === ''
        ? Promise.resolve(undefined)
        : api.get(upstreamPath(typedId)).then(
            () => typedId,
            (error: unknown) => {
              if (error instanceof AdminError && error.problem.status === 404) return undefined;
              throw error;
            },
          ),
    onForbidden,
    [typedId],
  );
  const columns: readonly Column<Upstream>[] = [
    {
      header: t('upstreams.id'),
      cell: (u) => (
        <ConsoleLink to={upstreamPath(u.id)}>
          <code>{u.id}</code>
        </ConsoleLink>
      ),
    },
    { header: t('upstreams.display-name'), cell: (u) => u.display_name },
    { header: t('upstreams.issuer'), cell: (u) => <code class="uri">{u.issuer}</code> },
    { header: t('upstreams.domains'), cell: (u) => (u.domains.length === 0 ? '—' : u.domains.join(' ')) },
  ];
  return (
    <ListPage
      api={api}
      onForbidden={onForbidden}
      path="/upstreams"
      id="upstreams"
      title={t('upstreams.title')}
      searchLabel={t('upstreams.search')}
      changes={changes}
      caption={t('upstreams.caption')}
      empty={t('upstreams.none')}
      columns={columns}
      rowKey={(u) => u.id}
    >
      {() => (
        <section class="panel form-panel" aria-labelledby="create-upstream-title">
          <h2 id="create-upstream-title">{t('upstreams.create')}</h2>
          <UpstreamForm
            prefix="upstream"
            initial={EMPTY_FORM}
            withId
            takenIds={taken.value === undefined ? [] : [taken.value]}
            onIdInput={setTypedId}
            submit={t('upstreams.create.submit')}
            onSubmit={(id, body) =>
              changes.change('PUT', `/upstreams/${encodeURIComponent(id)}`, body, t('upstreams.created', { id }), () =>
                router.go(upstreamPath(id), t('upstreams.created', { id })),
              )
            }
          />
        </section>
      )}
    </ListPage>
  );
}
