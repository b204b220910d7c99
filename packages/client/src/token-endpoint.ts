import { InvalidResponseError } from './errors.js';
import { jsonObjectOf, postForm, type EndpointContext } from './http.js';
import type { TokenEndpointResponse } from './wire.js';

export type TokenRequest =
  | {
      readonly grant_type: 'refresh_token';
      readonly refresh_token: string;
      readonly scope?: string;
      /** RFC 8707 §2.2: the resource the new access token is for. */
      readonly resource?: string;
    }
  | {
      readonly grant_type: 'authorization_code';
      readonly code: string;
      readonly redirect_uri: string;
      readonly code_verifier: string;
      /** RFC 8707 §2.2: the resource the access token is for. */
      readonly resource?: string;
    }
  | { readonly grant_type: typeof DEVICE_CODE_GRANT_TYPE; readonly device_code: string }
  | { readonly grant_type: 'client_credentials'; readonly scope?: string };

/** RFC 8628 §3.4. */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * One request to the token endpoint. A refusal is thrown as OAuthResponseError (the §5.2 body) or
 * InvalidResponseError (an answer that is not OAuth), a lost connection as TransportError.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6 RFC 6749 §6 (refresh)
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3 RFC 6749 §4.1.3 (code exchange)
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-3.4 RFC 8628 §3.4 (device code poll)
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.4.2 RFC 6749 §4.4.2 (client credentials)
 */
export async function requestTokens(ctx: EndpointContext, request: TokenRequest): Promise<TokenEndpointResponse> {
  const response = await postForm(ctx, ctx.metadata.token_endpoint, request);
  return parseTokenResponse(await jsonObjectOf(response, 'token endpoint'));
}

/**
 * Checks a successful token response: a non-empty access token of type Bearer, and optional
 * members of the right types.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 RFC 6749 §5.1
 */
export function parseTokenResponse(body: Readonly<Record<string, unknown>>): TokenEndpointResponse {
  const bad = (what: string): never => {
    throw new InvalidResponseError(`the token response ${what}`, 200);
  };
  if (typeof body.access_token !== 'string' || body.access_token === '') bad('has no access_token');
  // RFC 9449 §5: `DPoP` for a token bound to the request's proof.
  const tokenType = typeof body.token_type === 'string' ? body.token_type.toLowerCase() : undefined;
  if (tokenType !== 'bearer' && tokenType !== 'dpop') bad('is not of token_type Bearer or DPoP');
  for (const name of ['expires_in', 'refresh_expires_in', 'refresh_token_expires_in']) {
    const value = body[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0))
      bad(`has a ${name} that is not a number of seconds`);
  }
  if (body.refresh_token !== undefined && (typeof body.refresh_token !== 'string' || body.refresh_token === ''))
    bad('has an empty refresh_token');
  if (body.scope !== undefined && typeof body.scope !== 'string') bad('has a scope that is not a string');
  return body as unknown as TokenEndpointResponse;
}
