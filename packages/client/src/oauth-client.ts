import { ClientConfigurationError, OAuthResponseError } from './errors.js';
import type { DpopKey } from './dpop.js';
import type { ClientAuthMethod, EndpointContext, FetchFunction } from './http.js';
import { discoverAuthorizationServer } from './metadata.js';
import { withRetry, type RetryPolicy } from './retry.js';
import { requestTokens, type TokenRequest } from './token-endpoint.js';
import type { AuthorizationServerMetadata, TokenEndpointResponse } from './wire.js';

export interface OAuthClientOptions {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret?: string | undefined;
  readonly clientAuthMethod?: ClientAuthMethod | undefined;
  readonly metadata?: AuthorizationServerMetadata | undefined;
  readonly retry: RetryPolicy;
  readonly fetch: FetchFunction;
  /** Token requests carry a DPoP proof of this key (RFC 9449). */
  readonly dpop?: DpopKey | undefined;
}

// The client's setup is wrong, not the user's grant: the tokens are kept.
const CONFIGURATION_ERRORS = new Set(['invalid_client', 'unauthorized_client']);

/** One client of one authorization server: its metadata, its credentials, its token requests. */
export class OAuthClient {
  readonly #options: OAuthClientOptions;
  #metadata: Promise<AuthorizationServerMetadata> | undefined;

  constructor(options: OAuthClientOptions) {
    this.#options = options;
  }

  get clientId(): string {
    return this.#options.clientId;
  }

  /** The server's metadata, read once (RFC 8414); a failed read is tried again next time. */
  discover(): Promise<AuthorizationServerMetadata> {
    const { metadata, issuer, retry } = this.#options;
    this.#metadata ??=
      metadata !== undefined
        ? Promise.resolve(metadata)
        : withRetry(() => discoverAuthorizationServer(issuer, this.#options.fetch), retry).catch((error: unknown) => {
            this.#metadata = undefined;
            throw error;
          });
    return this.#metadata;
  }

  /** What an endpoint call needs. Default authentication: client_secret_basic with a secret, none without. */
  async context(): Promise<EndpointContext> {
    const { clientId, clientSecret, clientAuthMethod } = this.#options;
    const method = clientAuthMethod ?? (clientSecret === undefined ? 'none' : 'client_secret_basic');
    return {
      fetch: this.#options.fetch,
      metadata: await this.discover(),
      client: { clientId, clientSecret, method },
      dpop: this.#options.dpop,
    };
  }

  /** A token request, as {@link call} makes it; `dpop`, when given, signs its proof instead of the client's key. */
  tokenRequest(
    request: TokenRequest,
    retryable: (error: unknown) => boolean,
    dpop?: DpopKey,
  ): Promise<TokenEndpointResponse> {
    return this.call((ctx) => requestTokens(dpop === undefined ? ctx : { ...ctx, dpop }, request), retryable);
  }

  /**
   * A request to an endpoint that authenticates the client (token, device authorization), retried
   * while `retryable` says so. invalid_client and unauthorized_client become ClientConfigurationError
   * (RFC 6749 §5.2, RFC 8628 §3.2); every other refusal is thrown as it came.
   */
  async call<T>(request: (ctx: EndpointContext) => Promise<T>, retryable: (error: unknown) => boolean): Promise<T> {
    const ctx = await this.context();
    try {
      return await withRetry(() => request(ctx), this.#options.retry, retryable);
    } catch (error) {
      if (error instanceof OAuthResponseError && CONFIGURATION_ERRORS.has(error.error))
        throw new ClientConfigurationError(error);
      throw error;
    }
  }
}
