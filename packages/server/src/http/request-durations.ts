import { Histogram, type MetricType, type Registry } from 'prom-client';

/** Latency buckets in seconds, from 5 ms to 10 s. */
const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const NAME = 'gatehouse_http_request_duration_seconds';
const HELP = 'HTTP request latency, by route pattern, method and status class.';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** Status classes 1xx to 5xx, by their first digit. */
const CLASSES = 6;

type Label = 'route' | 'method' | 'status_class';

interface Series {
  readonly labels: Readonly<Record<Label, string>>;
  readonly histogram: Histogram;
}

/**
 * gatehouse_http_request_duration_seconds{route,method,status_class}. prom-client's labelled
 * histogram builds and looks up a key of the label values on every observation, which costs the
 * request path 2.5 times an unlabelled observation (measured: ~770 ns against ~300 ns for the
 * hand-written registry this replaced). So each series is an unlabelled prom-client histogram of
 * its own, found by route pattern, method and status class without building a key, and this
 * histogram reports them all under their labels.
 */
export class RequestDurations extends Histogram<Label> {
  readonly #series: Series[] = [];
  /** Route pattern → a slot per method (and one for any other) and status class. */
  readonly #byRoute = new Map<string, (Histogram | undefined)[]>();

  constructor(registry: Registry) {
    super({
      name: NAME,
      help: HELP,
      labelNames: ['route', 'method', 'status_class'],
      buckets: [...DURATION_BUCKETS],
      registers: [registry],
    });
  }

  /** The series of a route pattern, method and status code: created on its first request, then looked up. */
  seriesOf(route: string, method: string, status: number): Histogram {
    let slots = this.#byRoute.get(route);
    if (!slots) this.#byRoute.set(route, (slots = []));
    let index = METHODS.indexOf(method as (typeof METHODS)[number]);
    if (index < 0) index = METHODS.length;
    const statusClass = Math.min(Math.max(Math.floor(status / 100), 0), CLASSES - 1);
    const slot = index * CLASSES + statusClass;
    return slots[slot] ?? (slots[slot] = this.#add(route, METHODS[index] ?? 'other', `${statusClass}xx`));
  }

  #add(route: string, method: string, statusClass: string): Histogram {
    const histogram = new Histogram({ name: NAME, help: HELP, buckets: [...DURATION_BUCKETS], registers: [] });
    this.#series.push({ labels: { route, method, status_class: statusClass }, histogram });
    return histogram;
  }

  override async get(): ReturnType<Histogram<Label>['get']> {
    const values = [];
    for (const { labels, histogram } of this.#series)
      for (const value of (await histogram.get()).values)
        values.push({ ...value, labels: { ...labels, ...value.labels } });
    // prom-client's typings declare `type` as a numeric enum that the package does not export; the
    // registry reads the string every metric carries.
    const type = 'histogram' as unknown as MetricType;
    return { name: NAME, help: HELP, type, aggregator: 'sum', collect: () => {}, values };
  }

  /** What the registry renders (prom-client asks for this form when a metric has it). */
  getForPromString(): ReturnType<Histogram<Label>['get']> {
    return this.get();
  }
}
