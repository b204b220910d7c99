import { basicAuthorization } from '@gatehouse/contract';
import { createHash } from 'node:crypto';
import { AuthorizationServerUnavailable } from './discovery.js';

export interface IntrospectionOptions {
  /** A client registered as a resource server (`gatehouse clients add --resource-server`). */
  readonly clientId: string;
  readonly clientSecret: string;
  /**
   * How long an answer is reused, in milliseconds (default 10 000). The trade-off: a grant revoked
   * at the server is still accepted here for up to this long; 0 asks on every request.
   */
  readonly cacheMs?: number;
}

/**
 * Whether a token is still active, as the server answers (at once from the cache, else once the
 * server has answered); `exp` bounds how long that is cached.
 */
export type GrantCheck = (token: string, exp: number) => boolean | Promise<boolean>;

const MAX_ENTRIES = 10_000;

/**
 * Confirms with the authorization server that a token's grant is still live (RFC 7662 §2), with a
 * short cache by the token's SHA-256. A verified signature alone cannot tell that the grant was
 * revoked; this can, up to `cacheMs` late.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7662#section-2 RFC 7662 §2
 */
export function grantCheck(
  endpoint: () => Promise<string>,
  options: IntrospectionOptions,
  fetchImpl: typeof fetch,
  now: () => number = Date.now,
): GrantCheck {
  const cacheMs = options.cacheMs ?? 10_000;
  const answers = new Map<string, { readonly active: boolean; readonly until: number }>();
  // RFC 7662 §2.1 with RFC 6749 §2.3.1 client authentication (client_secret_basic).
  const authorization = basicAuthorization(options.clientId, options.clientSecret);
  return (token, exp) => {
    const digest = createHash('sha256').update(token).digest('hex');
    const cached = answers.get(digest);
    if (cached !== undefined && cached.until > now()) return cached.active;
    return ask(token, digest, exp);
  };

  async function ask(token: string, digest: string, exp: number): Promise<boolean> {
    const active = await introspect(await endpoint(), token, authorization, fetchImpl);
    if (cacheMs > 0) {
      if (answers.size >= MAX_ENTRIES) answers.delete(answers.keys().next().value as string);
      answers.set(digest, { active, until: Math.min(now() + cacheMs, exp * 1000) });
    }
    return active;
  }
}

async function introspect(
  url: string,
  token: string,
  authorization: string,
  fetchImpl: typeof fetch,
): Promise<boolean> {
  let answer: { active?: unknown };
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      signal: AbortSignal.timeout(5000),
    });
    if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    answer = (await response.json()) as { active?: unknown };
  } catch (error) {
    throw new AuthorizationServerUnavailable(`introspection at ${url} failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return answer.active === true;
}
