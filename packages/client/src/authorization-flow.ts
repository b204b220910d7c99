import type { DpopKey } from './dpop.js';
import { buildAuthorizationUrl, readAuthorizationCallback } from './authorization-url.js';
import { TransportError } from './errors.js';
import type { OAuthClient } from './oauth-client.js';
import { codeChallengeS256, generateCodeVerifier, generateState } from './pkce.js';
import { isTransient } from './retry.js';
import { livePending, reusablePending, withPending, withoutPending } from './stored-tokens.js';
import type { TokenState } from './token-state.js';
import type { TokenEndpointResponse } from './wire.js';

export interface AuthorizationStart {
  readonly authorizationUrl: string;
  readonly state: string;
}

interface AuthorizationRequestSettings {
  readonly redirectUri: string;
  readonly scope: string | undefined;
  readonly now: number;
  /** Reuse a recent pending request for the same redirect URI and scope instead of making another. */
  readonly reuse: boolean;
}

/**
 * Starts the authorization code flow with PKCE: the verifier and state are stored for the
 * callback, the URL to send the user to is returned.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.1 RFC 6749 §4.1.1
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.3 RFC 7636 §4.3
 */
export async function startAuthorization(
  client: OAuthClient,
  tokenState: TokenState,
  settings: AuthorizationRequestSettings,
): Promise<AuthorizationStart> {
  const metadata = await client.discover();
  const endpoint = metadata.authorization_endpoint;
  if (endpoint === undefined) throw new TypeError(`the metadata of ${metadata.issuer} names no authorization_endpoint`);
  const { redirectUri, scope, now } = settings;
  const pending = (settings.reuse
    ? reusablePending(await tokenState.current(), redirectUri, scope, now)
    : undefined) ?? {
    state: generateState(),
    codeVerifier: generateCodeVerifier(),
    redirectUri,
    scope,
    createdAt: now,
  };
  await tokenState.update((state) => withPending(state, pending, now));
  const codeChallenge = await codeChallengeS256(pending.codeVerifier);
  const authorizationUrl = buildAuthorizationUrl({
    authorizationEndpoint: endpoint,
    clientId: client.clientId,
    redirectUri,
    scope,
    state: pending.state,
    codeChallenge,
  });
  return { authorizationUrl, state: pending.state };
}

/**
 * Finishes the flow from the URL the server redirected to: checks `state` and `iss`, exchanges
 * the code with the stored verifier. The pending request is spent whatever the outcome, unless
 * the callback's state was not ours (a forged callback must not cancel the user's sign-in).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3 RFC 6749 §4.1.3
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.5 RFC 7636 §4.5
 */
export async function completeAuthorization(
  client: OAuthClient,
  tokenState: TokenState,
  callbackUrl: string | URL,
  now: number,
  dpop?: DpopKey,
): Promise<{ response: TokenEndpointResponse; scope: string | undefined }> {
  const metadata = await client.discover();
  const pending = livePending(await tokenState.current(), now);
  const callbackState = new URL(callbackUrl).searchParams.get('state');
  const request = pending.find((p) => p.state === callbackState);
  try {
    const callback = readAuthorizationCallback(callbackUrl, {
      issuer: metadata.issuer,
      issRequired: metadata.authorization_response_iss_parameter_supported === true,
      isPendingState: () => request !== undefined,
    });
    if (request === undefined) throw new TypeError('unreachable: the state was checked');
    // A code is single use: a request whose answer was lost must not be replayed, so only answered failures are retried.
    const response = await client.tokenRequest(
      {
        grant_type: 'authorization_code',
        code: callback.code,
        redirect_uri: request.redirectUri,
        code_verifier: request.codeVerifier,
      },
      (error) => isTransient(error) && !(error instanceof TransportError),
      dpop,
    );
    return { response, scope: request.scope };
  } finally {
    if (request !== undefined) await tokenState.update((state) => withoutPending(state, request.state, now));
  }
}
