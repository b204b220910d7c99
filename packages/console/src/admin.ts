import type { Session } from './session.js';

/** An RFC 9457 problem as the admin API sends it (the same body every caller gets). */
export interface Problem {
  readonly type?: string;
  readonly title?: string;
  readonly status: number;
  readonly detail?: string;
  readonly errors?: readonly { readonly field?: string; readonly detail?: string }[];
}

/** A refusal of the admin API, carrying its body as sent: the console shows it as is. */
export class AdminError extends Error {
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
    this.problem = problem;
  }

  /** The caller is signed in but may not do this (RFC 6750 §3.1 insufficient_scope, or 403). */
  get forbidden(): boolean {
    return this.problem.status === 403;
  }
}

/** One page of a list (json-api/paging.ts): the items, and the cursor of the next page. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly next_cursor?: string | null;
}

/**
 * Calls the admin API (/admin/v1) with the operator's DPoP-bound access token: `Authorization: DPoP`
 * and a proof of the token's key for this request (RFC 9449 §7.1). A new `DPoP-Nonce` gets one retry
 * (§8.2), an expired token one refresh, a step-up challenge a new sign-in (RFC 9470); every other
 * answer is the API's own.
 */
export class AdminApi {
  readonly #base: string;
  readonly session: Session;

  constructor(session: Session) {
    this.session = session;
    this.#base = `${session.config.issuer}/admin/v1`;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = `${this.#base}${path}`;
    let token = await this.session.accessToken();
    let response = await this.#send(method, url, token, body);
    const key = this.session.current?.key;
    if (key?.noteNonce(url, response) === true && response.status === 401) {
      await response.body?.cancel();
      response = await this.#send(method, url, token, body);
    }
    if (response.status === 401 && /invalid_token/.test(response.headers.get('www-authenticate') ?? '')) {
      await response.body?.cancel();
      token = await this.session.refresh();
      response = await this.#send(method, url, token, body);
    }
    // RFC 9470 §3: the API asks a more recent sign-in for a dangerous operation; sign in again
    // (max_age with prompt=login) and come back to this page, where the operator confirms it again.
    const stepUp = /error="insufficient_user_authentication"[^]*?max_age="(\d+)"/.exec(
      response.headers.get('www-authenticate') ?? '',
    );
    if (response.status === 401 && stepUp !== null) {
      await response.body?.cancel();
      return this.session.signIn(this.session.pagePath(), { maxAge: Number(stepUp[1]) });
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    if (!response.ok) {
      const problem =
        typeof parsed === 'object' && parsed !== null
          ? ({ status: response.status, ...parsed } as Problem)
          : { status: response.status, title: response.statusText };
      throw new AdminError(problem);
    }
    return parsed as T;
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  async #send(method: string, url: string, token: string, body: unknown): Promise<Response> {
    const key = this.session.current?.key;
    if (key === undefined) throw new Error('not signed in');
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      authorization: `DPoP ${token}`,
      dpop: await key.proof(method, url, token),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  }
}
