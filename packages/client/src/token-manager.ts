import type { DpopKey } from './dpop.js';
import type { DeviceAuthorizationResponse, IntrospectionResponse } from '@gatehouse/contract';
import { completeAuthorization, startAuthorization, type AuthorizationStart } from './authorization-flow.js';
import { pollDeviceToken, requestDeviceAuthorization, type DevicePolling } from './device-flow.js';
import { GrantDpopKeys, type RequestKey } from './grant-dpop-keys.js';
import { ClientConfigurationError, OAuthResponseError, ReauthenticationRequired } from './errors.js';
import { TypedEmitter } from './events.js';
import type { ClientAuthMethod, FetchFunction } from './http.js';
import { introspectToken } from './introspect.js';
import { OAuthClient } from './oauth-client.js';
import { DEFAULT_RETRY_POLICY, isTransient, type RetryPolicy } from './retry.js';
import { revokeToken } from './revoke.js';
import { isFresh, storedTokensFrom } from './stored-tokens.js';
import { TokenState } from './token-state.js';
import { MemoryTokenStore, type StoredTokens, type TokenStore } from './token-store.js';
import type { AuthorizationServerMetadata, TokenEndpointResponse } from './wire.js';

export type { AuthorizationStart } from './authorization-flow.js';

export interface TokenManagerOptions {
  /** The issuer; its metadata (RFC 8414, or OpenID Connect Discovery) names the endpoints, unless `metadata` is given. */
  readonly issuer: string;
  readonly clientId: string;
  /** For a confidential client; a public client (RFC 8252 native app, browser app) has none. */
  readonly clientSecret?: string;
  /** Default: client_secret_basic with a secret, none without. */
  readonly clientAuthMethod?: ClientAuthMethod;
  /**
   * For the authorization code flow only (`startAuthorization`, and the new authorization URL of
   * ReauthenticationRequired); must be registered with the server, character for character at
   * Gatehouse. A manager for client credentials, the device flow or refresh only needs none.
   */
  readonly redirectUri?: string;
  /**
   * Gets access tokens with the client-credentials grant (RFC 6749 §4.4): the client acts for
   * itself, with `clientSecret`; the token is kept and a new one requested before it expires
   * (`refreshSkewSeconds`); there is no refresh token and no user.
   */
  readonly clientCredentials?: boolean;
  readonly scope?: string;
  /** Default: a MemoryTokenStore. */
  readonly store?: TokenStore;
  readonly metadata?: AuthorizationServerMetadata;
  /** Refresh when the access token has less than this left (default 30 s). */
  readonly refreshSkewSeconds?: number;
  /** Emit `refresh-token-expiring` when the refresh token has less than this left (default 1 day). */
  readonly refreshTokenWarningSeconds?: number;
  /** The server's refresh-token lifetime, when its responses do not say (Gatehouse: the client's idle TTL). */
  readonly refreshTokenLifetimeSeconds?: number;
  /** On invalid_grant, introspect the refused token first to confirm it is no longer active. */
  readonly introspectOnInvalidGrant?: boolean;
  readonly retry?: Partial<RetryPolicy>;
  readonly fetch?: FetchFunction;
  /** Epoch milliseconds; Date.now by default. */
  readonly now?: () => number;
  /**
   * DPoP (RFC 9449): every token request carries a proof, and the tokens are bound to its key;
   * `use_dpop_nonce` is retried once with the server's nonce. A DpopKey: the app's key, for every
   * grant (the app keeps it). `true`: the manager makes a key per grant (non-extractable), and keeps it
   * with the tokens when the store holds private keys (`FileTokenStore`), so that the next run or
   * another process refreshes the bound token; dropping the tokens drops the key. The ApiClient
   * given this manager as `tokens` signs its proofs with the same key.
   */
  readonly dpop?: DpopKey | true;
}

export interface TokenManagerEvents {
  readonly refreshed: {
    readonly accessTokenExpiresAt: number | undefined;
    readonly scope: string | undefined;
    readonly refreshTokenRotated: boolean;
  };
  readonly 'refresh-token-expiring': { readonly refreshTokenExpiresAt: number; readonly secondsLeft: number };
  readonly 'reauthentication-required': { readonly error: ReauthenticationRequired };
}

/**
 * Keeps one grant's tokens and hands out valid access tokens: refreshes before expiry, shares one
 * refresh among concurrent callers (of every manager on one store, when the store has a lock:
 * browser tabs, processes), retries only transient failures, and on `invalid_grant` never
 * retries but discards the tokens and raises ReauthenticationRequired with a new authorization URL
 * (when it has a `redirectUri`). With `clientCredentials`, the tokens are the client's own (RFC 6749 §4.4).
 */
export class TokenManager extends TypedEmitter<TokenManagerEvents> {
  readonly #options: TokenManagerOptions;
  readonly #client: OAuthClient;
  readonly #state: TokenState;
  /** With `dpop: true`: the key of each grant. */
  readonly #keys: GrantDpopKeys | undefined;
  readonly #now: () => number;
  #refreshing: Promise<StoredTokens> | undefined;
  #warnedFor: string | undefined;

  constructor(options: TokenManagerOptions) {
    super();
    // RFC 6749 §4.4: only a confidential client may use client credentials.
    if (options.clientCredentials === true && options.clientSecret === undefined)
      throw new ClientConfigurationError(
        'the client-credentials grant needs the clientSecret of a confidential client',
      );
    this.#options = options;
    const { issuer, clientId, clientSecret, clientAuthMethod, metadata } = options;
    this.#client = new OAuthClient({
      issuer,
      clientId,
      clientSecret,
      clientAuthMethod,
      metadata,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      dpop: options.dpop === true ? undefined : options.dpop,
    });
    const store: TokenStore = options.store ?? new MemoryTokenStore();
    this.#state = new TokenState(store);
    this.#keys = options.dpop === true ? new GrantDpopKeys(store.holdsPrivateKeys === true) : undefined;
    this.#now = options.now ?? Date.now;
  }

  /** An access token to send as Bearer (RFC 6750), refreshed first when it has less than `refreshSkewSeconds` left. */
  async getAccessToken(): Promise<string> {
    const tokens = (await this.#state.current()).tokens;
    if (tokens !== undefined && this.#isFresh(tokens)) {
      this.#warnIfRefreshTokenExpiring(tokens);
      return tokens.accessToken;
    }
    return (await this.refresh()).accessToken;
  }

  /** A resource server refused `rejected` (401): refresh, unless another caller already did. */
  async accessTokenRejected(rejected: string): Promise<string> {
    const tokens = (await this.#state.current()).tokens;
    if (
      this.#refreshing === undefined &&
      tokens !== undefined &&
      tokens.accessToken !== rejected &&
      this.#isFresh(tokens)
    )
      return tokens.accessToken;
    return (await this.refresh()).accessToken;
  }

  /**
   * Refreshes now. Concurrent callers share one request, so a single-use refresh token is never
   * presented twice. With a store shared by other managers (`withExclusiveLock`: tabs, processes),
   * the refresh runs under the store's lock and starts by reading the store again: when another
   * manager already got a new access token, that one is used and nothing is sent.
   *
   * @see https://www.rfc-editor.org/rfc/rfc6749#section-6 RFC 6749 §6
   */
  refresh(): Promise<StoredTokens> {
    this.#refreshing ??= this.#refreshOnce().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #refreshOnce(): Promise<StoredTokens> {
    const held = (await this.#state.current()).tokens;
    return this.#state.exclusive(async ({ tokens: latest }) => {
      // Another manager refreshed (and, with rotation, spent the token this one holds): adopt its tokens.
      if (latest !== undefined && latest.accessToken !== held?.accessToken && this.#isFresh(latest)) {
        this.#warnIfRefreshTokenExpiring(latest);
        return latest;
      }
      return this.#options.clientCredentials === true
        ? this.#requestClientCredentials(latest)
        : this.#exchangeRefreshToken(latest);
    });
  }

  /**
   * A new access token for the client itself. A refresh token, should the server send one, is not
   * kept (RFC 6749 §4.4.3: it SHOULD NOT): the next token comes by the same grant.
   *
   * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.4 RFC 6749 §4.4
   */
  async #requestClientCredentials(previous: StoredTokens | undefined): Promise<StoredTokens> {
    const { scope } = this.#options;
    const key = await this.#keys?.forTokens(previous);
    const response = await this.#client.tokenRequest(
      { grant_type: 'client_credentials', ...(scope === undefined ? {} : { scope }) },
      isTransient,
      key?.key,
    );
    const tokens = await this.#keep({ ...response, refresh_token: undefined }, undefined, scope, key);
    this.emit('refreshed', {
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      scope: tokens.scope,
      refreshTokenRotated: false,
    });
    return tokens;
  }

  /** The refresh request itself, with the newest stored refresh token. */
  async #exchangeRefreshToken(previous: StoredTokens | undefined): Promise<StoredTokens> {
    const refreshToken = previous?.refreshToken;
    if (refreshToken === undefined) throw await this.#reauthenticationRequired();
    // RFC 9449 §5: a bound refresh token needs a proof by the key it was issued to, stored with it.
    const key = await this.#keys?.forTokens(previous);
    let response: TokenEndpointResponse;
    try {
      response = await this.#client.tokenRequest(
        { grant_type: 'refresh_token', refresh_token: refreshToken },
        isTransient,
        key?.key,
      );
    } catch (error) {
      // RFC 6749 §5.2: invalid_grant is permanent. Never retried, never presented again.
      if (error instanceof OAuthResponseError && error.error === 'invalid_grant')
        throw await this.#reauthenticationRequired(error, refreshToken);
      throw error;
    }
    const tokens = await this.#keep(response, previous, previous?.scope, key);
    this.emit('refreshed', {
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      scope: tokens.scope,
      refreshTokenRotated: tokens.refreshToken !== refreshToken,
    });
    this.#warnIfRefreshTokenExpiring(tokens);
    return tokens;
  }

  /** Discards the tokens first, then (optionally) introspects the refused one, then prepares a new flow. */
  async #reauthenticationRequired(
    refusal?: OAuthResponseError,
    refusedToken?: string,
  ): Promise<ReauthenticationRequired> {
    await this.#state.update((state) => ({ ...state, tokens: undefined }));
    this.#keys?.forget();
    let introspection: IntrospectionResponse | undefined;
    if (refusal !== undefined && refusedToken !== undefined && this.#options.introspectOnInvalidGrant === true) {
      // Only a report: a public client may not introspect, and nothing depends on the answer.
      introspection = await introspectToken(await this.#client.context(), refusedToken, 'refresh_token').catch(
        () => undefined,
      );
    }
    const { redirectUri } = this.#options;
    const start =
      redirectUri === undefined
        ? undefined
        : await startAuthorization(this.#client, this.#state, { ...this.#requestSettings(redirectUri), reuse: true });
    const error = new ReauthenticationRequired(start, refusal, introspection);
    this.emit('reauthentication-required', { error });
    return error;
  }

  /**
   * Starts the authorization code flow with PKCE; the verifier and state are kept for the callback.
   * Throws ClientConfigurationError for a manager without a `redirectUri`.
   */
  async startAuthorization(): Promise<AuthorizationStart> {
    const { redirectUri } = this.#options;
    if (redirectUri === undefined)
      throw new ClientConfigurationError('the authorization code flow needs a redirectUri (RFC 6749 §3.1.2)');
    return startAuthorization(this.#client, this.#state, { ...this.#requestSettings(redirectUri), reuse: false });
  }

  /** Finishes the flow from the callback URL: checks state and iss, exchanges the code, stores the tokens. */
  async completeAuthorization(callbackUrl: string | URL): Promise<StoredTokens> {
    const key = await this.#keys?.forNewGrant();
    const { response, scope } = await completeAuthorization(
      this.#client,
      this.#state,
      callbackUrl,
      this.#now(),
      key?.key,
    );
    return this.#keep(response, undefined, scope, key);
  }

  /** Starts the device authorization grant (RFC 8628 §3.1): the codes and URIs to show the user. */
  startDeviceAuthorization(): Promise<DeviceAuthorizationResponse> {
    return requestDeviceAuthorization(this.#client, this.#options.scope);
  }

  /**
   * Polls until the user has approved the device code, honouring `interval` and `slow_down`
   * (RFC 8628 §3.5), and stores the tokens; throws the server's refusal (access_denied, expired_token).
   */
  async completeDeviceAuthorization(
    authorization: DeviceAuthorizationResponse,
    options: Pick<DevicePolling, 'sleep'> = {},
  ): Promise<StoredTokens> {
    const key = await this.#keys?.forNewGrant();
    const response = await pollDeviceToken(this.#client, authorization, { ...options, now: this.#now, dpop: key?.key });
    return this.#keep(response, undefined, this.#options.scope, key);
  }

  /**
   * Adopts a token response obtained elsewhere (e.g. `gatehouse grants issue`). With `dpop: true`,
   * a bound one must have been obtained with this manager's `dpopKey()`.
   */
  async setTokens(response: TokenEndpointResponse): Promise<StoredTokens> {
    return this.#keep(response, undefined, this.#options.scope, await this.#keys?.forNewGrant());
  }

  /**
   * The DPoP key the current tokens are bound to (RFC 9449): the app's key, or with `dpop: true` the
   * grant's; undefined without DPoP. The ApiClient signs its proofs with it.
   */
  async dpopKey(): Promise<DpopKey | undefined> {
    if (this.#keys === undefined) return this.#options.dpop === true ? undefined : this.#options.dpop;
    return (await this.#keys.forTokens((await this.#state.current()).tokens)).key;
  }

  /** The stored tokens, if any. */
  async tokens(): Promise<StoredTokens | undefined> {
    return (await this.#state.current()).tokens;
  }

  /**
   * Introspects the stored refresh token (RFC 7662 §2.1; at Gatehouse, confidential clients only)
   * and records its `exp`, so that `refresh-token-expiring` can fire in time.
   */
  async introspect(): Promise<IntrospectionResponse | undefined> {
    const token = (await this.#state.current()).tokens?.refreshToken;
    if (token === undefined) return undefined;
    const introspection = await introspectToken(await this.#client.context(), token, 'refresh_token');
    const exp = introspection.active ? introspection.exp : undefined;
    if (exp !== undefined) {
      await this.#state.update((state) =>
        state.tokens?.refreshToken !== token
          ? state
          : { ...state, tokens: { ...state.tokens, refreshTokenExpiresAt: exp * 1000 } },
      );
      const tokens = (await this.#state.current()).tokens;
      if (tokens !== undefined) this.#warnIfRefreshTokenExpiring(tokens);
    }
    return introspection;
  }

  /** Forgets the tokens, then revokes the refresh token (RFC 7009 §2.1), which at Gatehouse ends the grant. */
  async logout(): Promise<void> {
    let token: string | undefined;
    await this.#state.update((state) => {
      token = state.tokens?.refreshToken; // the newest, when the store is shared
      return { ...state, tokens: undefined };
    });
    this.#keys?.forget();
    if (token !== undefined) await revokeToken(await this.#client.context(), token, 'refresh_token');
  }

  /** The server's metadata, read once. */
  discover(): Promise<AuthorizationServerMetadata> {
    return this.#client.discover();
  }

  /** Stores the tokens of `response`, with the private key they are bound to when the store holds it (one write). */
  async #keep(
    response: TokenEndpointResponse,
    previous: StoredTokens | undefined,
    requestedScope: string | undefined,
    key?: RequestKey,
  ): Promise<StoredTokens> {
    const obtained = storedTokensFrom(
      response,
      this.#now(),
      previous,
      requestedScope,
      this.#options.refreshTokenLifetimeSeconds,
    );
    const tokens = key?.jwk === undefined ? obtained : { ...obtained, dpopKey: key.jwk };
    await this.#state.update((state) => ({ ...state, tokens }));
    if (key !== undefined) this.#keys?.stored();
    return tokens;
  }

  #warnIfRefreshTokenExpiring({ refreshToken, refreshTokenExpiresAt }: StoredTokens): void {
    if (refreshToken === undefined || refreshTokenExpiresAt === undefined || this.#warnedFor === refreshToken) return;
    const secondsLeft = Math.max(0, Math.floor((refreshTokenExpiresAt - this.#now()) / 1000));
    if (secondsLeft > (this.#options.refreshTokenWarningSeconds ?? 86_400)) return;
    this.#warnedFor = refreshToken;
    this.emit('refresh-token-expiring', { refreshTokenExpiresAt, secondsLeft });
  }

  #isFresh(tokens: StoredTokens): boolean {
    return isFresh(tokens, this.#now(), (this.#options.refreshSkewSeconds ?? 30) * 1000);
  }

  #requestSettings(redirectUri: string): { redirectUri: string; scope: string | undefined; now: number } {
    return { redirectUri, scope: this.#options.scope, now: this.#now() };
  }
}
