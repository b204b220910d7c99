import type { TokenStore, TokenStoreState } from './token-store.js';

/**
 * The manager's copy of the store's state: read from the store once, then kept here and written
 * through in order. Deciding from this copy, never from a fresh read, is what lets concurrent
 * callers agree on one refresh.
 */
export class TokenState {
  readonly #store: TokenStore;
  #state: TokenStoreState | undefined;
  #loading: Promise<void> | undefined;
  #writes: Promise<unknown> = Promise.resolve();

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

  /** Applies `change` to the current state and saves the result. */
  async update(change: (state: TokenStoreState) => TokenStoreState): Promise<void> {
    await this.save(change(await this.current()));
  }
}
