import type { DpopKey } from './dpop.js';
import {
  checkOpenApiDocument,
  compileCollectionValidators,
  listCollections,
  type BodyValidator,
  type OpenApiDocument,
  type SchemaObject,
} from '@gatehouse/contract';
import { CollectionClient } from './api-collection.js';
import { problemErrorOf } from './api-problems.js';
import { send, type FetchFunction } from './http.js';
import { TransportError } from './errors.js';
import { DEFAULT_RETRY_POLICY, isTransient, withRetry, type RetryPolicy } from './retry.js';

/** Where the API client gets its bearer tokens; TokenManager is one. */
export interface AccessTokenSource {
  getAccessToken(): Promise<string>;
  /** Called once when the API answered 401 to `rejected`; returns the token to retry with. */
  accessTokenRejected(rejected: string): Promise<string>;
  /** The DPoP key the tokens are bound to (RFC 9449), when they are; TokenManager has it. */
  dpopKey?(): Promise<DpopKey | undefined>;
}

export interface ApiClientOptions {
  /** The API's base URL, e.g. `https://auth.example/v2`. */
  readonly baseUrl: string;
  /** The OpenAPI 3.0 document the server serves (GET {baseUrl}/openapi.json), parsed. */
  readonly document: unknown;
  readonly tokens: AccessTokenSource;
  readonly fetch?: FetchFunction;
  readonly retry?: Partial<RetryPolicy>;
  /**
   * Send the token as `Authorization: DPoP` with a proof of this key (RFC 9449 §7.1). Default: the
   * key of `tokens` (`dpopKey()`, the TokenManager's), or Bearer when it has none.
   */
  readonly dpop?: DpopKey;
}

/** One HTTP request of the API, before the token is added. */
export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below the base URL, e.g. `/contacts/01h…`. */
  readonly path: string;
  readonly body?: unknown;
  readonly contentType?: string;
  readonly ifMatch?: string | undefined;
}

// RFC 9110 §9.2.2: these may be repeated when the answer was lost; POST and PATCH may not.
const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);

/**
 * Typed calls for the collections an OpenAPI document declares. Bodies are validated with the
 * contract's compiled validator before anything is sent; a 401 is answered by one refresh and one
 * retry; transient failures are retried with backoff.
 */
export class ApiClient {
  readonly document: OpenApiDocument;
  readonly #baseUrl: string;
  readonly #tokens: AccessTokenSource;
  readonly #fetch: FetchFunction;
  readonly #retry: RetryPolicy;
  readonly #validators: ReadonlyMap<string, BodyValidator>;
  readonly #schemas: ReadonlyMap<string, SchemaObject>;
  readonly #dpop: DpopKey | undefined;

  constructor(options: ApiClientOptions) {
    this.document = checkOpenApiDocument(options.document);
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#tokens = options.tokens;
    this.#dpop = options.dpop;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.#validators = compileCollectionValidators(this.document);
    this.#schemas = new Map(listCollections(this.document).map((c) => [c.name, c.schema]));
  }

  /** Reads the document the server serves at `{baseUrl}/openapi.json` and builds the client from it. */
  static async fromServer(options: Omit<ApiClientOptions, 'document'>): Promise<ApiClient> {
    const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    const url = `${options.baseUrl.replace(/\/+$/, '')}/openapi.json`;
    const response = await withRetry(
      async () => {
        const answer = await send(fetchFn, url, { headers: { accept: 'application/json' } });
        if (answer.ok) return answer;
        throw await problemErrorOf(answer);
      },
      { ...DEFAULT_RETRY_POLICY, ...options.retry },
    );
    return new ApiClient({ ...options, document: await response.json() });
  }

  /** The collections the document declares. */
  get collections(): readonly string[] {
    return [...this.#validators.keys()];
  }

  /** The calls of one collection; `T` is the record's shape (as sent, without `id`). */
  collection<T extends object = Record<string, unknown>>(name: string): CollectionClient<T> {
    const validate = this.#validators.get(name);
    const schema = this.#schemas.get(name);
    if (validate === undefined || schema === undefined) {
      throw new TypeError(
        `the OpenAPI document declares no collection '${name}' (it declares: ${this.collections.join(', ') || 'none'})`,
      );
    }
    return new CollectionClient<T>({
      name,
      validate,
      schema,
      document: this.document,
      request: (r) => this.request(r),
    });
  }

  /**
   * Sends one request with a bearer token (RFC 6750 §2.1). A 401 gets one refresh and one retry;
   * transient failures are retried, network failures only for idempotent methods. A refusal is
   * thrown as ProblemResponseError.
   */
  async request(request: ApiRequest): Promise<Response> {
    const retryable = (error: unknown): boolean =>
      isTransient(error) && (IDEMPOTENT.has(request.method) || !(error instanceof TransportError));
    return withRetry(
      async () => {
        const token = await this.#tokens.getAccessToken();
        const dpop = this.#dpop ?? (await this.#tokens.dpopKey?.());
        let response = await this.#send(request, token, dpop);
        // RFC 9449 §8.2, §9: a new DPoP-Nonce, on any answer, goes in the next proofs; after a 401
        // (use_dpop_nonce) the request is retried once with it.
        if (dpop?.noteNonce(this.#baseUrl, response) === true && response.status === 401) {
          await response.body?.cancel();
          response = await this.#send(request, token, dpop);
        }
        if (response.status === 401) {
          await response.body?.cancel();
          const retried = await this.#tokens.accessTokenRejected(token);
          response = await this.#send(request, retried, this.#dpop ?? (await this.#tokens.dpopKey?.()));
        }
        if (!response.ok) throw await problemErrorOf(response);
        return response;
      },
      this.#retry,
      retryable,
    );
  }

  async #send(
    { method, path, body, contentType, ifMatch }: ApiRequest,
    token: string,
    dpop: DpopKey | undefined,
  ): Promise<Response> {
    const url = `${this.#baseUrl}${path}`;
    const headers: Record<string, string> = {
      authorization: dpop === undefined ? `Bearer ${token}` : `DPoP ${token}`,
      accept: 'application/json, application/problem+json',
    };
    if (dpop !== undefined) headers.dpop = await dpop.proof(method, url, token);
    if (body !== undefined) headers['content-type'] = contentType ?? 'application/json';
    if (ifMatch !== undefined) headers['if-match'] = ifMatch;
    return send(this.#fetch, url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
}
