import type { KeyRing } from '../oauth/keys/index.js';
import type { Store } from '../store/store.js';

/** Ready, or why not: a sentence for the 503's detail. */
export type Readiness = { readonly ready: true } | { readonly ready: false; readonly reason: string };

export interface ReadinessOptions {
  /** How long the store has to answer (and the keys to reload), ms. */
  readonly budgetMs?: number;
  /** How long an answer is reused, ms: probes from several load balancers cost one store read. */
  readonly cacheMs?: number;
  /** Monotonic time, ms. */
  readonly now?: () => number;
  /** Told once each time the server stops being ready, with the cause (for the log). */
  readonly onNotReady?: (reason: string, cause: unknown) => void;
}

const DEFAULT_BUDGET_MS = 500;
const DEFAULT_CACHE_MS = 1000;

class OverBudget extends Error {}

/**
 * Whether the server can serve, for GET /health/ready: the store answers a read of its migration
 * bookkeeping within the budget, that read finds no migration missing, and the signing keys are
 * loaded (after a failed reload, they are loaded again here). Nothing is written; a read still
 * running when the next probe comes is waited for, never repeated.
 */
export class ReadinessCheck {
  readonly #store: Pick<Store, 'pendingMigrations'>;
  readonly #keys: Pick<KeyRing, 'loadError' | 'reload'>;
  readonly #budgetMs: number;
  readonly #cacheMs: number;
  readonly #now: () => number;
  readonly #onNotReady: (reason: string, cause: unknown) => void;
  #answer: { readonly at: number; readonly readiness: Promise<Readiness> } | undefined;
  #storeRead: Promise<readonly string[]> | undefined;
  #keyReload: Promise<void> | undefined;
  #wasReady = true;

  constructor(
    store: Pick<Store, 'pendingMigrations'>,
    keys: Pick<KeyRing, 'loadError' | 'reload'>,
    options: ReadinessOptions = {},
  ) {
    this.#store = store;
    this.#keys = keys;
    this.#budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
    this.#cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
    this.#now = options.now ?? (() => performance.now());
    this.#onNotReady = options.onNotReady ?? (() => {});
  }

  check(): Promise<Readiness> {
    const now = this.#now();
    if (this.#answer === undefined || now - this.#answer.at >= this.#cacheMs)
      this.#answer = { at: now, readiness: this.#run() };
    return this.#answer.readiness;
  }

  async #run(): Promise<Readiness> {
    const [readiness, cause] = await this.#evaluate();
    if (!readiness.ready && this.#wasReady) this.#onNotReady(readiness.reason, cause);
    this.#wasReady = readiness.ready;
    return readiness;
  }

  async #evaluate(): Promise<[Readiness, unknown?]> {
    let pending: readonly string[];
    try {
      this.#storeRead ??= this.#store.pendingMigrations().finally(() => (this.#storeRead = undefined));
      pending = await this.#withinBudget(this.#storeRead);
    } catch (error) {
      // The store's own error names hosts and ports: it goes to the log, not to the caller.
      const reason =
        error instanceof OverBudget
          ? `the store did not answer within ${this.#budgetMs} ms`
          : 'the store could not be reached';
      return [{ ready: false, reason }, error];
    }
    if (pending.length > 0)
      return [{ ready: false, reason: `the database lacks migrations ${pending.join(', ')}: run gatehouse migrate` }];
    if (this.#keys.loadError !== undefined) {
      try {
        this.#keyReload ??= this.#keys.reload().finally(() => (this.#keyReload = undefined));
        await this.#withinBudget(this.#keyReload);
      } catch (error) {
        const why = error instanceof OverBudget ? `not within ${this.#budgetMs} ms` : (error as Error).message;
        return [{ ready: false, reason: `no signing key could be loaded (${why})` }, error];
      }
    }
    return [{ ready: true }];
  }

  async #withinBudget<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const overBudget = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new OverBudget()), this.#budgetMs);
    });
    try {
      return await Promise.race([work, overBudget]);
    } finally {
      clearTimeout(timer);
    }
  }
}
