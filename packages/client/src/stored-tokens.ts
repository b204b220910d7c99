/** From a token response to what the manager stores, and the questions asked of stored tokens. */
import type { PendingAuthorization, StoredTokens, TokenStoreState } from './token-store.js';
import type { TokenEndpointResponse } from './wire.js';

/**
 * The tokens to keep after a token response. Without a new refresh token the old one stays in use
 * (RFC 6749 §6: the server MAY issue a new one); without `scope` the scope is the one requested
 * (RFC 6749 §5.1). `refreshLifetimeSeconds` is the caller's knowledge of the server's policy, used
 * when the response does not say how long a new refresh token lives.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 RFC 6749 §5.1
 */
export function storedTokensFrom(
  response: TokenEndpointResponse,
  now: number,
  previous: StoredTokens | undefined,
  requestedScope: string | undefined,
  refreshLifetimeSeconds: number | undefined,
): StoredTokens {
  const issuedRefresh = response.refresh_token !== undefined;
  const refreshSeconds = response.refresh_expires_in ?? response.refresh_token_expires_in ?? refreshLifetimeSeconds;
  return {
    accessToken: response.access_token,
    tokenType: response.token_type,
    accessTokenExpiresAt: response.expires_in === undefined ? undefined : now + response.expires_in * 1000,
    refreshToken: response.refresh_token ?? previous?.refreshToken,
    refreshTokenExpiresAt: issuedRefresh
      ? refreshSeconds === undefined
        ? undefined
        : now + refreshSeconds * 1000
      : previous?.refreshTokenExpiresAt,
    scope: response.scope ?? previous?.scope ?? requestedScope,
    obtainedAt: now,
  };
}

/** Whether the access token may still be sent: more than `skewMs` left, or no expiry known. */
export function isFresh(tokens: StoredTokens, now: number, skewMs: number): boolean {
  return tokens.accessTokenExpiresAt === undefined || tokens.accessTokenExpiresAt - now > skewMs;
}

/** A pending request stays usable this long: the user may take a while on the sign-in page. */
const PENDING_TTL_MS = 60 * 60 * 1000;
/** An automatic re-authentication reuses a pending request younger than this instead of making another. */
const PENDING_REUSE_MS = 5 * 60 * 1000;
const MAX_PENDING = 10;

/** The state with `pending` added, and pending requests that are too old or too many dropped. */
export function withPending(state: TokenStoreState, pending: PendingAuthorization, now: number): TokenStoreState {
  const kept = livePending(state, now).filter((p) => p.state !== pending.state);
  return { ...state, pending: [...kept, pending].slice(-MAX_PENDING) };
}

export function withoutPending(state: TokenStoreState, stateValue: string, now: number): TokenStoreState {
  return { ...state, pending: livePending(state, now).filter((p) => p.state !== stateValue) };
}

export function livePending(state: TokenStoreState, now: number): readonly PendingAuthorization[] {
  return (state.pending ?? []).filter((p) => now - p.createdAt < PENDING_TTL_MS);
}

/** A recent pending request for the same redirect URI and scope, which a re-authentication may reuse. */
export function reusablePending(
  state: TokenStoreState,
  redirectUri: string,
  scope: string | undefined,
  now: number,
): PendingAuthorization | undefined {
  return livePending(state, now).findLast(
    (p) => p.redirectUri === redirectUri && p.scope === scope && now - p.createdAt < PENDING_REUSE_MS,
  );
}
