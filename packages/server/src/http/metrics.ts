import {
  bearerTokenOf,
  OAUTH_REASONS,
  PROBLEMS,
  ProblemError,
  type OAuthErrorReason,
  type ProblemCode,
} from '@gatehouse/contract';
import { Counter, Registry } from 'prom-client';
import type { AuditEventName } from '../audit/audit.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendProblem } from './problems.js';
import { constantTimeEqual } from '../primitives/constant-time.js';
import { processRegistry } from './process-metrics.js';
import { RequestDurations } from './request-durations.js';
import type { SharedRequestWork } from './shared-hooks.js';
import { COMMIT_IN_DOUBT_OUTCOMES, type Store } from '../store/store.js';
import { registerMailMetrics, type MailReadings } from './mail-metrics.js';
import { isLoopbackAddress } from '../primitives/loopback.js';

/** What the metrics read of the rate limiter (abuse/rate-limiter.ts) at each scrape. */
export interface RateLimitRefusals {
  limitNames(): readonly string[];
  refusals(): ReadonlyMap<string, number>;
}

/** What the metrics read of the audit trail (audit/audit.ts) at each scrape: the events it recorded, by name. */
export interface AuditEventCounts {
  counts(): ReadonlyMap<AuditEventName, number>;
}

/** What the metrics read of the store at each scrape: COMMITs whose answer was lost, by outcome. */
export type CommitsInDoubt = Pick<Store, 'commitsInDoubt'>;

/** Counts one event of a key: one addition, on the request path. */
type CountOf<K extends string> = (key: K) => void;

/**
 * A prom-client counter over a bounded set of keys, each with its series from the start at zero
 * (a rate() over a series that appears with its first event misses that event). The request path
 * only adds to a number; the counts reach the counter's series when the registry collects it, at
 * each scrape: prom-client's own `inc` builds and looks up a key of the label values each time.
 */
function countedSeries<K extends string, L extends string>(
  config: { name: string; help: string; labelNames: readonly L[]; registers: Registry[] },
  keys: readonly K[],
  labels: (key: K) => Record<L, string>,
): CountOf<K> {
  const pending = new Map<K, number>(keys.map((key) => [key, 0]));
  const counter: Counter<L> = new Counter({
    ...config,
    collect() {
      for (const [key, count] of pending)
        if (count > 0) {
          children.get(key)?.inc(count);
          pending.set(key, 0);
        }
    },
  });
  const children = new Map(keys.map((key) => [key, counter.labels(labels(key))]));
  for (const child of children.values()) child.inc(0);
  return (key) => {
    pending.set(key, (pending.get(key) ?? 0) + 1);
  };
}

/**
 * The server's metrics in prom-client, on a registry of the app's own (never prom-client's global
 * one: two servers in one process count apart), exposed together with the process's metrics.
 * Per process: with --workers, each worker counts its own requests. Labels take values from
 * bounded sets only (catalog codes, route patterns, methods, status classes), never from raw URLs
 * or client input.
 */
export class Metrics {
  readonly #exposed: Registry;
  readonly #oauthErrors: CountOf<OAuthErrorReason>;
  readonly #problems: CountOf<ProblemCode>;
  readonly #signInFailures: CountOf<string>;
  readonly requestDurations: RequestDurations;

  /**
   * `rateLimits`: the process's rate limiter, whose refusal counts are read at each scrape;
   * `signInFailures`: every reason a sign-in can be refused for (authorize/sign-in/steps);
   * `auditEvents`: the process's audit trail, whose counts are read at each scrape;
   * `store`: the process's store, whose COMMITs in doubt are read at each scrape;
   * `mail`: the mail outbox's counts and queue (http/mail-metrics.ts).
   */
  constructor(
    rateLimits?: RateLimitRefusals,
    signInFailures: readonly string[] = [],
    auditEvents?: AuditEventCounts,
    store?: CommitsInDoubt,
    mail?: MailReadings,
  ) {
    const registry = new Registry();
    const registers = [registry];
    this.#oauthErrors = countedSeries(
      {
        name: 'gatehouse_oauth_errors_total',
        help: 'OAuth error responses, by error code and catalog reason (redirects of /authorize included).',
        labelNames: ['error', 'reason'],
        registers,
      },
      Object.keys(OAUTH_REASONS) as OAuthErrorReason[],
      (reason) => ({ error: OAUTH_REASONS[reason].error, reason }),
    );
    this.#problems = countedSeries(
      {
        name: 'gatehouse_problems_total',
        help: 'RFC 9457 problem responses and error pages, by catalog code.',
        labelNames: ['code'],
        registers,
      },
      Object.keys(PROBLEMS) as ProblemCode[],
      (code) => ({ code }),
    );
    this.#signInFailures = countedSeries(
      {
        name: 'gatehouse_sign_in_failures_total',
        help: 'Sign-in attempts refused, by reason, e.g. wrong_password, unknown_user, rate_limited.',
        labelNames: ['reason'],
        registers,
      },
      signInFailures,
      (reason) => ({ reason }),
    );
    new Counter({
      name: 'gatehouse_audit_events_total',
      help: 'Audit events recorded (gatehouse audit), by event, e.g. refresh_token_replay_served.',
      labelNames: ['event'],
      registers,
      // The trail counts every event it stores (audit/ knows nothing of metrics); a series appears with its first event.
      collect() {
        this.reset();
        for (const [event, count] of auditEvents?.counts() ?? []) this.inc({ event }, count);
      },
    });
    new Counter({
      name: 'gatehouse_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit, by limit (RATE_LIMIT_<LIMIT>).',
      labelNames: ['limit'],
      registers,
      // The limiter counts its refusals itself (abuse/ knows nothing of metrics); read at each scrape.
      collect() {
        this.reset();
        const refusals = rateLimits?.refusals();
        for (const limit of rateLimits?.limitNames() ?? []) this.inc({ limit }, refusals?.get(limit) ?? 0);
      },
    });
    new Counter({
      name: 'gatehouse_store_commits_in_doubt_total',
      help: 'Transactions whose connection dropped during their COMMIT, by what the database said of them: committed (answered as such), aborted (run again) or unknown (answered 503). PostgreSQL only.',
      labelNames: ['outcome'],
      registers,
      // The store counts them itself (store/ knows nothing of metrics); read at each scrape.
      collect() {
        this.reset();
        const counts = store?.commitsInDoubt?.();
        for (const outcome of COMMIT_IN_DOUBT_OUTCOMES) this.inc({ outcome }, counts?.get(outcome) ?? 0);
      },
    });
    if (mail) registerMailMetrics(registry, mail);
    this.requestDurations = new RequestDurations(registry);
    this.#exposed = Registry.merge([processRegistry(), registry]);
  }

  countOAuthError(reason: OAuthErrorReason): void {
    this.#oauthErrors(reason);
  }

  countProblem(code: ProblemCode): void {
    this.#problems(code);
  }

  countSignInFailure(reason: string): void {
    this.#signInFailures(reason);
  }

  /** The exposition text and its content type (Prometheus text format 0.0.4). */
  async render(): Promise<{ text: string; contentType: string }> {
    return { text: await this.#exposed.metrics(), contentType: this.#exposed.contentType };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics (http/metrics.ts); undefined on an app built without them. */
    metrics?: Metrics;
  }
  interface FastifyContextConfig {
    /** false: the route's requests stay out of the request metrics (the health probes). */
    readonly requestMetrics?: boolean;
  }
}

interface MetricsOptions {
  /** When set, GET /metrics requires `Authorization: Bearer <token>`; otherwise it answers loopback callers only. */
  readonly token?: string;
  readonly rateLimits?: RateLimitRefusals;
  /** Every reason a sign-in can be refused for, each counted from zero at start. */
  readonly signInFailures?: readonly string[];
  readonly auditEvents?: AuditEventCounts;
  readonly store?: CommitsInDoubt;
  readonly mail?: MailReadings;
}

/**
 * Registers the metrics on the root app: GET /metrics, and the latency of each answer, returned for
 * the shared onResponse hook (shared-hooks.ts).
 */
export function metricsRoutes(
  app: FastifyInstance,
  { token, rateLimits, signInFailures, auditEvents, store, mail }: MetricsOptions = {},
): SharedRequestWork {
  const metrics = new Metrics(rateLimits, signInFailures, auditEvents, store, mail);
  app.decorate('metrics', metrics);
  app.get('/metrics', async (request, reply) => {
    if (!mayScrape(request, token))
      return sendProblem(reply, request, new ProblemError('not_found', `There is no resource at GET /metrics.`));
    const { text, contentType } = await metrics.render();
    return reply.header('cache-control', 'no-store').type(contentType).send(text);
  });
  return {
    onResponse(request, reply) {
      const { url, config } = request.routeOptions;
      // The route's pattern (/v2/contacts/:id), never the raw URL: label values stay a bounded set.
      if (config?.requestMetrics !== false)
        metrics.requestDurations
          .seriesOf(url ?? 'unmatched', request.method, reply.statusCode)
          .observe(reply.elapsedTime / 1000);
    },
  };
}

function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  // Without a token, the machine itself: any loopback address (primitives/loopback.ts, the one rule).
  if (token === undefined || token === '') return isLoopbackAddress(request.ip);
  // RFC 6750 §2.1, by the contract's one reading of a bearer header.
  const presented = bearerTokenOf(request.headers.authorization ?? '');
  return presented !== undefined && constantTimeEqual(presented, token);
}
