import { TokenStoreError, isRecord } from './errors.js';
import type { TokenStore, TokenStoreState } from './token-store.js';

/** The part of the Web Storage API the store uses (`localStorage`, or any object like it). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The part of the Web Locks API the store uses (`navigator.locks`). */
export type ExclusiveLocks = Pick<LockManager, 'request'>;

export interface LocalStorageTokenStoreOptions {
  /** With `clientId`, names the entry: one per issuer and client. */
  readonly issuer: string;
  readonly clientId: string;
  /** Default: the page's `localStorage`. */
  readonly storage?: KeyValueStorage;
  /** Default: the page's `navigator.locks`, when the browser has the Web Locks API. */
  readonly locks?: ExclusiveLocks;
}

/**
 * A TokenStore in the browser's localStorage, shared by every tab of the origin: the tokens, and
 * the PKCE verifier and `state` of a pending authorization, which so survive the redirect to the
 * server and back (RFC 7636 §4.5). Tabs take turns refreshing through the Web Locks API
 * (`navigator.locks`, one exclusive lock named after the entry), so that a single-use refresh token
 * is presented once among them; in a browser without it, each tab refreshes on its own.
 *
 * Everything in localStorage can be read by any script running on the origin: an XSS flaw exposes
 * the refresh token, as it would a token in memory to a script that calls the SDK.
 */
export class LocalStorageTokenStore implements TokenStore {
  /** The localStorage key, also the name of the Web Lock. */
  readonly key: string;
  readonly #storage: KeyValueStorage;
  readonly #locks: ExclusiveLocks | undefined;

  constructor(options: LocalStorageTokenStoreOptions) {
    const storage = options.storage ?? (globalThis as { localStorage?: KeyValueStorage }).localStorage;
    if (storage === undefined) throw new TokenStoreError('localStorage is not available here');
    this.key = `gatehouse-client:${JSON.stringify([options.issuer, options.clientId])}`;
    this.#storage = storage;
    this.#locks = options.locks ?? (globalThis as { navigator?: { locks?: ExclusiveLocks } }).navigator?.locks;
  }

  async read(): Promise<TokenStoreState> {
    const text = this.#storage.getItem(this.key);
    if (text === null) return {};
    let state: unknown;
    try {
      state = JSON.parse(text);
    } catch {
      state = undefined;
    }
    if (!isRecord(state)) throw new TokenStoreError(`localStorage entry ${this.key} is not a Gatehouse token state`);
    return state;
  }

  async write(state: TokenStoreState): Promise<void> {
    this.#storage.setItem(this.key, JSON.stringify(state));
  }

  /** Removes the entry. */
  async delete(): Promise<void> {
    this.#storage.removeItem(this.key);
  }

  /** Runs `fn` holding the origin-wide Web Lock named after the entry (when the browser has Web Locks). */
  withExclusiveLock<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#locks === undefined) return fn();
    return this.#locks.request(this.key, { mode: 'exclusive' }, fn) as Promise<T>;
  }
}
