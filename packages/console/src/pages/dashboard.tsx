import { Fragment } from 'preact';
import type { AdminApi, Page } from '../admin.js';
import { useText } from '../text.js';
import { auditColumns, type AuditEvent } from './audit.js';
import { LoadState, Table, useLoaded } from './list.js';

interface SigningKey {
  readonly kid: string;
  readonly alg: string;
  readonly status: string;
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
  const text = useText();
  const { t } = text;
  const loaded = useLoaded(() => loadOverview(api), onForbidden, []);
  return (
    <>
      <h1>{t('dashboard.title')}</h1>
      <LoadState loaded={loaded}>
        {(overview) => (
          <div class="panels">
            <section class="panel" aria-labelledby="keys-title">
              <h2 id="keys-title">{t('dashboard.keys')}</h2>
              <p>{t('dashboard.keys.count', { count: overview.keys.filter((k) => k.status !== 'retired').length })}</p>
              <dl class="values">
                {overview.keys
                  .filter((k) => k.status === 'signing')
                  .map((k) => (
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
                <Table
                  id="failures"
                  caption={t('dashboard.failures.caption')}
                  columns={auditColumns(text, { actor: false })}
                  items={overview.failures.slice(0, SHOWN_FAILURES)}
                  rowKey={(e) => e.id}
                />
              )}
              {overview.failures.length > SHOWN_FAILURES ? (
                <p>{t('dashboard.failures.more', { count: SHOWN_FAILURES })}</p>
              ) : null}
            </section>
          </div>
        )}
      </LoadState>
    </>
  );
}
