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

/** The admin API's GET /overview: health and counts, read in the store. */
interface Health {
  readonly store: { readonly round_trip_ms: number };
  readonly mail: { readonly queued: number; readonly sending: number; readonly failed: number };
  readonly signing_keys: readonly { readonly kid: string; readonly alg: string; readonly age_seconds: number }[];
  readonly counts: {
    readonly users: number;
    readonly clients: number;
    readonly live_grants: number;
    /** Users or live grants estimated from PostgreSQL's statistics (large tables). */
    readonly approximate: boolean;
  };
}

interface Overview {
  readonly health: Health;
  readonly keys: readonly SigningKey[];
  readonly failures: readonly AuditEvent[];
}

async function loadOverview(api: AdminApi): Promise<Overview> {
  const since = new Date(Date.now() - DAY).toISOString().replace(/\.\d+Z$/, 'Z');
  const [health, keys, ...failures] = await Promise.all([
    api.get<Health>('/overview'),
    api.get<Page<SigningKey>>('/keys?limit=100'),
    ...FAILURE_EVENTS.map((event) =>
      api.get<Page<AuditEvent>>(`/audit-events?event=${event}&since=${encodeURIComponent(since)}&limit=100`),
    ),
  ]);
  const all = failures.flatMap((page) => page.items).sort((a, b) => b.at.localeCompare(a.at));
  return { health, keys: keys.items, failures: all };
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * The dashboard: health (the store's round trip, the mail outbox, the signing keys' age), counts
 * (users, clients, live grants), the signing keys (which one signs) and the failures of the last day.
 * A store that does not answer makes the whole read fail (503), shown as the API's problem.
 */
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
            <section class="panel" aria-labelledby="health-title">
              <h2 id="health-title">{t('dashboard.health')}</h2>
              <dl class="values">
                <dt>{t('dashboard.health.store')}</dt>
                <dd>{t('dashboard.health.store.ok', { ms: overview.health.store.round_trip_ms })}</dd>
                <dt>{t('dashboard.health.mail')}</dt>
                <dd class={overview.health.mail.failed > 0 ? 'warning' : undefined}>
                  {t('dashboard.health.mail.value', {
                    queued: overview.health.mail.queued + overview.health.mail.sending,
                    failed: overview.health.mail.failed,
                  })}
                </dd>
                {overview.health.signing_keys.map((k) => (
                  <Fragment key={k.kid}>
                    <dt>{t('dashboard.health.key', { alg: k.alg })}</dt>
                    <dd>{t('dashboard.health.key.age', { days: Math.floor(k.age_seconds / DAY_SECONDS) })}</dd>
                  </Fragment>
                ))}
              </dl>
            </section>
            <section class="panel" aria-labelledby="counts-title">
              <h2 id="counts-title">{t('dashboard.counts')}</h2>
              <dl class="values">
                <dt>{t('nav.users')}</dt>
                <dd>{overview.health.counts.users}</dd>
                <dt>{t('nav.clients')}</dt>
                <dd>{overview.health.counts.clients}</dd>
                <dt>{t('dashboard.counts.grants')}</dt>
                <dd>{overview.health.counts.live_grants}</dd>
              </dl>
              {overview.health.counts.approximate ? <p class="hint">{t('dashboard.counts.approximate')}</p> : null}
            </section>
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
