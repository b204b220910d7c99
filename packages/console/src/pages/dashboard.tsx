import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AdminError, type AdminApi, type Page, type Problem } from '../admin.js';
import { useText } from '../text.js';
import { ProblemNotice } from './problem.js';

interface SigningKey {
  readonly kid: string;
  readonly alg: string;
  readonly status: string;
}

interface AuditEvent {
  readonly id: string;
  readonly at: string;
  readonly event: string;
  readonly client_id: string | null;
  readonly subject: string | null;
  readonly reason: string | null;
}

/** The audit events an operator looks at first: failed sign-ins, failed client authentication, token reuse. */
const FAILURE_EVENTS = ['login_failed', 'client_authentication_failed', 'refresh_token_reuse_detected'] as const;
const SHOWN_FAILURES = 10;
const DAY = 24 * 60 * 60 * 1000;

interface Overview {
  readonly keys: readonly SigningKey[];
  readonly failures: readonly AuditEvent[];
}

async function loadOverview(api: AdminApi): Promise<Overview> {
  const since = new Date(Date.now() - DAY).toISOString().replace(/\.\d+Z$/, 'Z');
  const [keys, ...failures] = await Promise.all([
    api.get<Page<SigningKey>>('/keys?limit=100'),
    ...FAILURE_EVENTS.map((event) =>
      api.get<Page<AuditEvent>>(`/audit-events?event=${event}&since=${encodeURIComponent(since)}&limit=100`),
    ),
  ]);
  const all = failures.flatMap((page) => page.items).sort((a, b) => b.at.localeCompare(a.at));
  return { keys: keys.items, failures: all };
}

/** The dashboard: the signing keys (which one signs) and the failures of the last day. */
export function Dashboard({
  api,
  onForbidden,
}: {
  readonly api: AdminApi;
  readonly onForbidden: (error: unknown) => boolean;
}) {
  const { t, locale } = useText();
  const [overview, setOverview] = useState<Overview | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const load = () => {
    setProblem(undefined);
    loadOverview(api)
      .then(setOverview)
      .catch((error: unknown) => {
        if (onForbidden(error)) return;
        setProblem(error instanceof AdminError ? error.problem : { status: 0, title: String(error) });
      });
  };
  useEffect(load, []);
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
  const signing = overview?.keys.filter((k) => k.status === 'signing') ?? [];
  return (
    <>
      <h1>{t('dashboard.title')}</h1>
      {problem !== undefined ? <ProblemNotice problem={problem} onRetry={load} /> : null}
      {overview === undefined ? (
        problem === undefined ? (
          <p aria-live="polite">{t('console.loading')}</p>
        ) : null
      ) : (
        <div class="panels">
          <section class="panel" aria-labelledby="keys-title">
            <h2 id="keys-title">{t('dashboard.keys')}</h2>
            <p>{t('dashboard.keys.count', { count: overview.keys.filter((k) => k.status !== 'retired').length })}</p>
            <dl class="values">
              {signing.map((k) => (
                <Fragment key={k.kid}>
                  <dt>
                    {t('dashboard.keys.current')} ({k.alg})
                  </dt>
                  <dd>
                    <code>{k.kid}</code>
                  </dd>
                </Fragment>
              ))}
            </dl>
          </section>
          <section class="panel panel-wide" aria-labelledby="failures-title">
            <h2 id="failures-title">{t('dashboard.failures')}</h2>
            {overview.failures.length === 0 ? (
              <p>{t('dashboard.failures.none')}</p>
            ) : (
              <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="failures-title">
                <table>
                  <caption>{t('dashboard.failures.caption')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('table.when')}</th>
                      <th scope="col">{t('table.event')}</th>
                      <th scope="col">{t('table.client')}</th>
                      <th scope="col">{t('table.subject')}</th>
                      <th scope="col">{t('table.reason')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {overview.failures.slice(0, SHOWN_FAILURES).map((e) => (
                      <tr key={e.id}>
                        <td>
                          <time dateTime={e.at}>{time.format(new Date(e.at))}</time>
                        </td>
                        <td>
                          <code>{e.event}</code>
                        </td>
                        <td>{e.client_id ?? '—'}</td>
                        <td>{e.subject ?? '—'}</td>
                        <td lang="en">{e.reason ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {overview.failures.length > SHOWN_FAILURES ? (
              <p>{t('dashboard.failures.more', { count: SHOWN_FAILURES })}</p>
            ) : null}
          </section>
        </div>
      )}
    </>
  );
}
