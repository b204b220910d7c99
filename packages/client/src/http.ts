import { basicAuthorization } from '@gatehouse/contract';
import type { DpopKey } from './dpop.js';
/** The HTTP calls of the OAuth endpoints: client authentication, form posts, no Node APIs. */
import { InvalidResponseError, OAuthResponseError, TransportError, isRecord } from './errors.js';
import { parseRetryAfter } from './retry.js';
import type { AuthorizationServerMetadata } from './wire.js';

export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

/** How the client authenticates at the token, introspection and revocation endpoints. */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret?: string | undefined;
  readonly method: ClientAuthMethod;
}

/** What every endpoint call needs. */
export interface EndpointContext {
  readonly fetch: FetchFunction;
  readonly metadata: AuthorizationServerMetadata;
  readonly client: ClientCredentials;
  /** Sign a DPoP proof (RFC 9449 §5) for each token request; the tokens are then bound to its key. */
  readonly dpop?: DpopKey | undefined;
}

/** How long one request may take before it counts as unanswered (and, if transient, is retried). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** fetch with a time limit, with "no answer at all" turned into a TransportError. */
export async function send(fetchFn: FetchFunction, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetchFn(url, { ...init, signal: init.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    throw new TransportError(url, error);
  }
}

/**
 * POSTs a form to an OAuth endpoint as the client: Basic (id and secret form-encoded first, as
 * RFC 6749 §2.3.1 says), in the body, or `client_id` alone for a public client (RFC 6749 §2.1).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1 RFC 6749 §2.3.1
 */
export function postForm(
  ctx: EndpointContext,
  url: string,
  params: Readonly<Record<string, string>>,
): Promise<Response> {
  const body = new URLSearchParams(params);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const { clientId, clientSecret, method } = ctx.client;
  if (method === 'client_secret_basic') {
    headers.authorization = basicAuthorization(clientId, clientSecret ?? '');
  } else {
    body.set('client_id', clientId);
    if (method === 'client_secret_post') body.set('client_secret', clientSecret ?? '');
  }
  if (ctx.dpop === undefined) return send(ctx.fetch, url, { method: 'POST', headers, body: body.toString() });
  return postWithProof(ctx, ctx.dpop, url, headers, body.toString());
}

/**
 * The same POST with a DPoP proof (RFC 9449 §5). A `400 use_dpop_nonce` with a new `DPoP-Nonce`
 * (§8) is retried once with a proof that carries it.
 */
async function postWithProof(
  ctx: EndpointContext,
  dpop: DpopKey,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<Response> {
  const post = async () =>
    send(ctx.fetch, url, { method: 'POST', headers: { ...headers, dpop: await dpop.proof('POST', url) }, body });
  const response = await post();
  // §8.2: a new nonce on any answer is the one to use from now on.
  const newNonce = dpop.noteNonce(url, response);
  if (response.status !== 400 || !newNonce) return response;
  const refusal = (await response
    .clone()
    .json()
    .catch(() => ({}))) as { error?: unknown };
  if (refusal.error !== 'use_dpop_nonce') return response;
  await response.body?.cancel();
  return post();
}

/** The JSON object of a 200 answer, or the error the answer is. */
export async function jsonObjectOf(response: Response, what: string): Promise<Readonly<Record<string, unknown>>> {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  if (response.status !== 200) throw await OAuthResponseError.fromResponse(response, retryAfter);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new InvalidResponseError(`the ${what} answered 200 without a JSON body`, 200);
  }
  if (!isRecord(body)) throw new InvalidResponseError(`the ${what} answered 200 with JSON that is not an object`, 200);
  return body;
}
