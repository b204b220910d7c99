/** The authorization request URL and the reading of the redirect back to the client. */
import { AuthorizationCallbackError, OAuthResponseError } from './errors.js';

export interface AuthorizationUrlParameters {
  readonly authorizationEndpoint: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scope?: string | undefined;
  readonly state: string;
  readonly codeChallenge: string;
}

/**
 * The URL to send the user to: response_type=code with PKCE S256, parameters added to the
 * endpoint's own query, which is kept.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.1 RFC 6749 §4.1.1
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.3 RFC 7636 §4.3
 */
export function buildAuthorizationUrl(p: AuthorizationUrlParameters): string {
  const url = new URL(p.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri);
  if (p.scope !== undefined && p.scope !== '') url.searchParams.set('scope', p.scope);
  url.searchParams.set('state', p.state);
  url.searchParams.set('code_challenge', p.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.href;
}

/** What a callback carries once its `state` is known to be ours. */
export interface AuthorizationCallback {
  readonly state: string;
  readonly code: string;
}

/**
 * Reads the redirect to the client: the `state`, then the issuer when the server sends one (or
 * announced it would), then an error or the code.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2 RFC 6749 §4.1.2
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-2.4 RFC 9207 §2.4
 */
export function readAuthorizationCallback(
  callbackUrl: string | URL,
  expected: {
    readonly issuer: string;
    readonly issRequired: boolean;
    readonly isPendingState: (state: string) => boolean;
  },
): AuthorizationCallback {
  const params = new URL(callbackUrl).searchParams;
  const state = params.get('state');
  if (state === null || !expected.isPendingState(state)) {
    throw new AuthorizationCallbackError(
      'unknown_state',
      'the callback does not carry the state of an authorization request this client started',
    );
  }
  const iss = params.get('iss');
  if ((iss !== null || expected.issRequired) && iss !== expected.issuer) {
    throw new AuthorizationCallbackError(
      'issuer_mismatch',
      `the callback's iss ${JSON.stringify(iss)} is not the issuer ${expected.issuer}`,
    );
  }
  const error = params.get('error');
  if (error !== null) {
    throw new OAuthResponseError({
      error,
      error_description: params.get('error_description') ?? undefined,
      error_uri: params.get('error_uri') ?? undefined,
    });
  }
  const code = params.get('code');
  if (code === null || code === '')
    throw new AuthorizationCallbackError('missing_code', 'the callback carries neither a code nor an error');
  return { state, code };
}
