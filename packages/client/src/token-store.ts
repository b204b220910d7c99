/**
 * Where a TokenManager keeps its state. A store saves and returns one small record; the manager
 * decides what goes in it. Implement TokenStore to keep tokens elsewhere (a keychain);
 * `LocalStorageTokenStore` keeps them in a browser's localStorage, and `@gatehouse/client/node`
 * has an encrypted file store.
 */

import type { DpopPrivateJwk } from './dpop.js';

/** The tokens of one grant, as the manager keeps them (times in epoch milliseconds). */
export interface StoredTokens {
  readonly accessToken: string;
  readonly tokenType: string;
  /** When the access token expires; undefined when the server did not say (no expires_in). */
  readonly accessTokenExpiresAt?: number | undefined;
  readonly refreshToken?: string | undefined;
  /** When the refresh token expires, when known (a server's refresh_expires_in, introspection, or configuration). */
  readonly refreshTokenExpiresAt?: number | undefined;
  readonly scope?: string | undefined;
  readonly obtainedAt: number;
  /**
   * The DPoP private key the tokens are bound to (RFC 9449), kept in the same record so that it is
   * written with them and dropped with them; only by a manager with `dpop: true` over a store that
   * holds private keys.
   */
  readonly dpopKey?: DpopPrivateJwk | undefined;
}

/**
 * An authorization request waiting for its callback: the PKCE verifier and `state` must outlive
 * the redirect (RFC 7636 §4.5, RFC 6749 §10.12).
 */
export interface PendingAuthorization {
  readonly state: string;
  readonly codeVerifier: string;
  readonly redirectUri: string;
  readonly scope?: string | undefined;
  readonly createdAt: number;
}

export interface TokenStoreState {
  readonly tokens?: StoredTokens | undefined;
  readonly pending?: readonly PendingAuthorization[] | undefined;
}

export interface TokenStore {
  /**
   * True when the saved state is protected as a private key is (the encrypted token file: AES-256-GCM,
   * mode 0600). A manager with `dpop: true` then keeps its DPoP private key with the tokens, so that
   * the next run, or another process, refreshes a DPoP-bound token. Leave it unset for a store that
   * a page's scripts can read (localStorage): there the key stays a non-extractable CryptoKey in memory.
   */
  readonly holdsPrivateKeys?: boolean;
  /** The saved state; `{}` when nothing was saved. */
  read(): Promise<TokenStoreState>;
  /** Replaces the saved state. The manager awaits it before handing out a rotated token. */
  write(state: TokenStoreState): Promise<void>;
  /**
   * For a store shared by several managers (browser tabs, processes): runs `fn` while holding a
   * lock that every store over the same saved state honours, and resolves with its result once the
   * lock is released. Inside, `read()` returns what the last holder wrote. The manager reads, refreshes
   * and writes inside it, so a single-use refresh token is presented once across all of them.
   * Without it, the manager coordinates the callers of its own process only.
   */
  withExclusiveLock?<T>(fn: () => Promise<T>): Promise<T>;
}

/** Keeps the state in memory: the default, and what a browser page without persistence wants. */
export class MemoryTokenStore implements TokenStore {
  #state: TokenStoreState;

  constructor(initial: TokenStoreState = {}) {
    this.#state = initial;
  }

  async read(): Promise<TokenStoreState> {
    return this.#state;
  }

  async write(state: TokenStoreState): Promise<void> {
    this.#state = state;
  }
}
