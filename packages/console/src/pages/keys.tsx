import { useEffect, useState } from 'preact/hooks';
import type { AdminApi, Page, Problem } from '../admin.js';
import { useRouter } from '../router.js';
import { useText } from '../text.js';
import { TypedConfirm } from './confirm.js';
import { ProblemNotice } from './problem.js';
import { whenFresh } from './step-up.js';
import { problemOf } from './users.js';

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
  const [keys, setKeys] = useState<readonly SigningKey[] | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const load = () => {
    setProblem(undefined);
    api
      .get<Page<SigningKey>>('/keys?limit=100')
      .then((page) => setKeys(page.items))
      .catch((error: unknown) => {
        if (!onForbidden(error)) setProblem(problemOf(error));
      });
  };
  useEffect(load, []);
  const rotate = () =>
    whenFresh(api, router.path, () => {
      setProblem(undefined);
      setNotice(undefined);
      api
        .request('POST', '/keys/rotate')
        .then(() => {
          setNotice(t('keys.rotated'));
          load();
        })
        .catch((error: unknown) => setProblem(problemOf(error)));
    });
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const current = keys?.find((k) => k.status === 'signing');
  // What the operator types to confirm: the server whose keys change (its issuer's host).
  const server = new URL(api.session.config.issuer).host;
  return (
    <>
      <h1>{t('keys.title')}</h1>
      {problem === undefined ? null : <ProblemNotice problem={problem} onRetry={load} />}
      {notice === undefined ? null : (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {keys === undefined ? null : (
        <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="keys-caption">
          <table>
            <caption id="keys-caption">{t('keys.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('keys.kid')}</th>
                <th scope="col">{t('keys.alg')}</th>
                <th scope="col">{t('keys.status')}</th>
                <th scope="col">{t('keys.published')}</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.kid} aria-current={k.status === 'signing' ? 'true' : undefined}>
                  <td>
                    <code>{k.kid}</code>
                  </td>
                  <td>{k.alg}</td>
                  <td>
                    <code>{k.status}</code>
                  </td>
                  <td>
                    <time dateTime={k.published_at}>{time.format(new Date(k.published_at))}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
