import { DpopKey, isDpopPrivateJwk, type DpopPrivateJwk } from './dpop.js';
import { TokenStoreError } from './errors.js';
import type { StoredTokens } from './token-store.js';

/** The key a token request is signed with, and the JWK to store with the tokens it obtains (or none). */
export interface RequestKey {
  readonly key: DpopKey;
  readonly jwk: DpopPrivateJwk | undefined;
}

/**
 * The DPoP keys of a TokenManager that makes its own (`dpop: true`, RFC 9449): one per grant. A new
 * grant (code flow, device flow, adopted tokens) is bound to a new key, made when first needed; the
 * grant's refreshes use that key again. With a store that holds private keys the key is stored in
 * the tokens record (one write, so key and tokens never disagree) and read back by the next run or
 * another process; otherwise it lives in this process only, non-extractable. Dropping the tokens
 * (sign-out, invalid_grant) drops the key: the next grant gets a new one (§5: a refresh token is
 * bound to the key of the request that obtained it).
 */
export class GrantDpopKeys {
  readonly #storesKeys: boolean;
  /** The key of the next new grant; kept after it is obtained only when the store cannot hold it. */
  #next: Promise<RequestKey> | undefined;
  /** The last stored key read, so that its remembered nonces (§8) survive between requests. */
  #loaded: { readonly d: string; readonly key: Promise<DpopKey> } | undefined;

  constructor(storesKeys: boolean) {
    this.#storesKeys = storesKeys;
  }

  /** For a new grant: the key made for it, the same one until its tokens are stored or dropped. */
  forNewGrant(): Promise<RequestKey> {
    this.#next ??= this.#make().catch((error: unknown) => {
      this.#next = undefined;
      throw error;
    });
    return this.#next;
  }

  /** For the grant of `tokens` (its refresh, its API calls): the key stored with them, else this process's. */
  async forTokens(tokens: StoredTokens | undefined): Promise<RequestKey> {
    const stored: unknown = tokens?.dpopKey;
    if (stored === undefined) return this.forNewGrant();
    if (!isDpopPrivateJwk(stored)) throw new TokenStoreError('the stored DPoP key is not an ES256 private JWK');
    if (this.#loaded?.d !== stored.d) this.#loaded = { d: stored.d, key: DpopKey.fromPrivateJwk(stored) };
    return { key: await this.#loaded.key, jwk: stored };
  }

  /** Tokens were stored with their key: the store has it now, and the next new grant gets another. */
  stored(): void {
    if (this.#storesKeys) this.#next = undefined;
  }

  /** The tokens were dropped: their key goes with them. */
  forget(): void {
    this.#next = undefined;
    this.#loaded = undefined;
  }

  async #make(): Promise<RequestKey> {
    if (!this.#storesKeys) return { key: await DpopKey.generate(), jwk: undefined };
    const { key, jwk } = await DpopKey.generateForStorage();
    this.#loaded = { d: jwk.d, key: Promise.resolve(key) };
    return { key, jwk };
  }
}
