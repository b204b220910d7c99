import { useState } from 'preact/hooks';
import type { AdminApi, Page, Problem } from '../admin.js';
import { useRouter } from '../router.js';
import { useText } from '../text.js';
import { TypedConfirm } from './confirm.js';
import { LoadState, Table, useLoaded, type Column } from './list.js';
import { ProblemNotice, problemOf } from './problem.js';
import { whenFresh } from './step-up.js';

/** A signing key as the admin API describes it (GET /keys). */
interface SigningKey {
  readonly kid: string;
  readonly alg: string;
  readonly status: string;
  readonly published_at: string;
  readonly signs_from: string;
}

/**
 * The signing keys: which one signs for each algorithm, which are published or kept for
 * verification; a rotation confirmed by typing the server's host name, after a fresh sign-in.
 */
export function Keys({ api, onForbidden }: { readonly api: AdminApi; readonly onForbidden: (e: unknown) => boolean }) {
  const { t, locale } = useText();
  const router = useRouter();
  const keys = useLoaded(() => api.get<Page<SigningKey>>('/keys?limit=100'), onForbidden, []);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const rotate = () =>
    whenFresh(api, router.path, () => {
      setProblem(undefined);
      setNotice(undefined);
      api
        .request('POST', '/keys/rotate')
        .then(() => {
          setNotice(t('keys.rotated'));
          keys.reload();
        })
        .catch((error: unknown) => setProblem(problemOf(error)));
    });
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const columns: readonly Column<SigningKey>[] = [
    { header: t('keys.kid'), cell: (k) => <code>{k.kid}</code> },
    { header: t('keys.alg'), cell: (k) => k.alg },
    { header: t('keys.status'), cell: (k) => <code>{k.status}</code> },
    {
      header: t('keys.published'),
      cell: (k) => <time dateTime={k.published_at}>{time.format(new Date(k.published_at))}</time>,
    },
  ];
  const current = keys.value?.items.find((k) => k.status === 'signing');
  // What the operator types to confirm: the server whose keys change (its issuer's host).
  const server = new URL(api.session.config.issuer).host;
  return (
    <>
      <h1>{t('keys.title')}</h1>
      {problem === undefined ? null : <ProblemNotice problem={problem} />}
      {notice === undefined ? null : (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <LoadState loaded={keys}>
        {(page) => (
          <Table
            id="keys"
            caption={t('keys.caption')}
            columns={columns}
            items={page.items}
            rowKey={(k) => k.kid}
            current={(k) => k.status === 'signing'}
          />
        )}
      </LoadState>
      {current === undefined ? null : (
        <section class="panel form-panel" aria-labelledby="rotate-title">
          <h2 id="rotate-title">{t('keys.rotate')}</h2>
          <p class="hint">{t('keys.rotate.hint')}</p>
          <TypedConfirm id="rotate-keys" name={server} submit={t('keys.rotate')} onConfirm={rotate} />
        </section>
      )}
    </>
  );
}
