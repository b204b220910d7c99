import type { TokenStore, TokenStoreState } from './token-store.js';

/**
 * The manager's copy of the store's state: read from the store once, then kept here and written
 * through in order. Deciding from this copy, never from a fresh read, is what lets concurrent
 * callers agree on one refresh.
 *
 * A store shared with other managers (one with `withExclusiveLock`: browser tabs, processes) is
 * also written by them, so there every change is made under the store's lock, from the state read
 * after taking it: `exclusive` runs a decision that way, one caller of this process at a time.
 */
export class TokenState {
  readonly #store: TokenStore;
  #state: TokenStoreState | undefined;
  #loading: Promise<void> | undefined;
  #writes: Promise<unknown> = Promise.resolve();
  /** Callers of `exclusive` in this process wait here for each other before taking the store's lock. */
  #queue: Promise<unknown> = Promise.resolve();
  /** True while an `exclusive` callback of this process holds the store's lock. */
  #holding = false;

  constructor(store: TokenStore) {
    this.#store = store;
  }

  async current(): Promise<TokenStoreState> {
    if (this.#state === undefined) {
      this.#loading ??= this.#store
        .read()
        .then((state) => {
          this.#state ??= state;
        })
        .finally(() => {
          this.#loading = undefined;
        });
      await this.#loading;
    }
    return this.#state ?? {};
  }

  /** Replaces the state; resolves once the store has it, so a rotated token is saved before use. */
  async save(state: TokenStoreState): Promise<void> {
    this.#state = state;
    const write = this.#writes.catch(() => undefined).then(() => this.#store.write(state));
    this.#writes = write;
    await write;
  }

  /** Applies `change` to the current state and saves the result (under the store's lock, when it has one). */
  async update(change: (state: TokenStoreState) => TokenStoreState): Promise<void> {
    await this.exclusive((state) => this.save(change(state)));
  }

  /**
   * Runs `decide` on the latest state. With a lock on the store: under it, after this process's
   * writes are done and the state is read again, and the lock is released only once every write
   * made meanwhile is in the store. A call while this process holds the lock (from inside
   * `decide`, or any caller then) runs at once, synchronously up to its first await: no other
   * holder can write meanwhile, so the copy is current, and its write is awaited before release.
   */
  exclusive<T>(decide: (state: TokenStoreState) => Promise<T>): Promise<T> {
    const store = this.#store;
    const lock = store.withExclusiveLock?.bind(store);
    if (lock === undefined) return this.current().then(decide);
    if (this.#holding) return decide(this.#state ?? {});
    const run = this.#queue
      .catch(() => undefined)
      .then(() =>
        lock(async () => {
          this.#holding = true;
          try {
            await this.#settled();
            this.#state = await store.read();
            return await decide(this.#state);
          } finally {
            await this.#settled();
            this.#holding = false;
          }
        }),
      );
    this.#queue = run;
    return run;
  }

  /** Resolves when every write started so far, and every write started while waiting, has ended. */
  async #settled(): Promise<void> {
    for (let writes = this.#writes; ; writes = this.#writes) {
      await writes.catch(() => undefined);
      if (writes === this.#writes) return;
    }
  }
}
