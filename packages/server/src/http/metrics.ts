import { ProblemError } from '@gatehouse/contract';
import type { RateLimiter } from '../abuse/rate-limiter.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendProblem } from './problems.js';
import { constantTimeEqual } from '../primitives/constant-time.js';

/**
 * A small in-process metrics registry rendered in the Prometheus text exposition format 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/). Per process: with --workers,
 * each worker counts its own requests. Labels take values from bounded sets only (catalog codes,
 * route patterns, methods, status classes), never from raw URLs or client input.
 */
type Labels = Readonly<Record<string, string>>;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels, extra?: [string, string]): string {
  const pairs = Object.entries(labels);
  if (extra) pairs.push(extra);
  return pairs.length === 0 ? '' : `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

/** Series are keyed by their label values in the metric's label order (values never hold NUL). */
function seriesKey(labelNames: readonly string[], labels: Labels): string {
  let key = '';
  for (const name of labelNames) key += `${labels[name] ?? ''}\u0000`;
  return key;
}

function ordered(labelNames: readonly string[], labels: Labels): Labels {
  return Object.fromEntries(labelNames.map((n) => [n, labels[n] ?? '']));
}

class Counter {
  readonly #series = new Map<string, { labels: Labels; value: number }>();
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  constructor(name: string, help: string, labelNames: readonly string[]) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
  }

  inc(labels: Labels, by = 1): void {
    const key = seriesKey(this.labelNames, labels);
    const series = this.#series.get(key);
    if (series) series.value += by;
    else this.#series.set(key, { labels: ordered(this.labelNames, labels), value: by });
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.#series.values()) lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines;
  }
}

/** Latency buckets in seconds, from 5 ms to 10 s. */
const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

class Histogram {
  readonly #series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly buckets: readonly number[];
  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    this.buckets = buckets;
  }

  observe(labels: Labels, value: number): void {
    const key = seriesKey(this.labelNames, labels);
    let series = this.#series.get(key);
    if (!series) {
      series = { labels: ordered(this.labelNames, labels), counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    // Counts per bucket, made cumulative when rendered.
    const index = this.buckets.findIndex((le) => value <= le);
    if (index >= 0) series.counts[index] = (series.counts[index] ?? 0) + 1;
    series.sum += value;
    series.count += 1;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.#series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += counts[i] ?? 0;
        lines.push(`${this.name}_bucket${labelText(labels, ['le', String(le)])} ${cumulative}`);
      });
      lines.push(`${this.name}_bucket${labelText(labels, ['le', '+Inf'])} ${count}`);
      lines.push(`${this.name}_sum${labelText(labels)} ${sum}`);
      lines.push(`${this.name}_count${labelText(labels)} ${count}`);
    }
    return lines;
  }
}

/** The server's metrics. */
class Metrics {
  readonly oauthErrors = new Counter(
    'gatehouse_oauth_errors_total',
    'OAuth error responses, by error code and catalog reason.',
    ['error', 'reason'],
  );
  readonly problems = new Counter('gatehouse_problems_total', 'RFC 9457 problem responses, by catalog code.', ['code']);
  readonly auditEvents = new Counter(
    'gatehouse_audit_events_total',
    'Audit events recorded (gatehouse audit), by event, e.g. refresh_token_replay_served.',
    ['event'],
  );
  readonly requestDuration = new Histogram(
    'gatehouse_http_request_duration_seconds',
    'HTTP request latency, by route pattern, method and status class.',
    ['route', 'method', 'status_class'],
    DURATION_BUCKETS,
  );

  readonly #rateLimits: RateLimiter | undefined;

  /** `rateLimits`: the process's rate limiter, whose refusal counts are rendered with the rest. */
  constructor(rateLimits?: RateLimiter) {
    this.#rateLimits = rateLimits;
  }

  render(): string {
    const refusals = new Counter(
      'gatehouse_rate_limit_refusals_total',
      'Requests refused by a rate limit, by limit (RATE_LIMIT_<LIMIT>).',
      ['limit'],
    );
    for (const [limit, count] of this.#rateLimits?.refusals() ?? []) refusals.inc({ limit }, count);
    const families = [this.oauthErrors, this.problems, this.auditEvents, refusals, this.requestDuration];
    return `${families.flatMap((family) => family.render()).join('\n')}\n`;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics (http/metrics.ts); undefined on an app built without them. */
    metrics?: Metrics;
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

interface MetricsOptions {
  /** When set, GET /metrics requires `Authorization: Bearer <token>`; otherwise it answers loopback callers only. */
  readonly token?: string;
  readonly rateLimits?: RateLimiter;
}

/** Registers the metrics on the root app: the latency hook and GET /metrics. */
export function metricsRoutes(app: FastifyInstance, { token, rateLimits }: MetricsOptions = {}): Metrics {
  const metrics = new Metrics(rateLimits);
  app.decorate('metrics', metrics);
  // Callback style: an async hook costs every request a promise.
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern (/v2/contacts/:id), never the raw URL: label values stay a bounded set.
    const route = request.routeOptions.url ?? 'unmatched';
    const method = METHODS.has(request.method) ? request.method : 'other';
    metrics.requestDuration.observe(
      { route, method, status_class: `${Math.floor(reply.statusCode / 100)}xx` },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.get('/metrics', async (request, reply) => {
    if (!mayScrape(request, token))
      return sendProblem(reply, request, new ProblemError('not_found', `There is no resource at GET /metrics.`));
    return reply
      .header('cache-control', 'no-store')
      .type('text/plain; version=0.0.4; charset=utf-8')
      .send(metrics.render());
  });
  return metrics;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  if (token === undefined || token === '') return LOOPBACK.has(request.ip);
  const match = /^bearer (.+)$/i.exec(request.headers.authorization ?? '');
  return match !== null && constantTimeEqual(match[1] as string, token);
}
