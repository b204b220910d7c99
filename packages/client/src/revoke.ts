import { OAuthResponseError } from './errors.js';
import { parseRetryAfter } from './retry.js';
import { postForm, type EndpointContext } from './http.js';

/**
 * Revokes a token (at Gatehouse, a refresh token revokes its whole grant). 200 is success, also
 * for a token the server does not know (RFC 7009 §2.2). Does nothing when the server has no
 * revocation endpoint.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2.1 RFC 7009 §2.1
 */
export async function revokeToken(
  ctx: EndpointContext,
  token: string,
  tokenTypeHint: 'refresh_token' | 'access_token',
): Promise<boolean> {
  const endpoint = ctx.metadata.revocation_endpoint;
  if (endpoint === undefined) return false;
  const response = await postForm(ctx, endpoint, { token, token_type_hint: tokenTypeHint });
  if (response.status === 200) {
    await response.body?.cancel();
    return true;
  }
  throw await OAuthResponseError.fromResponse(response, parseRetryAfter(response.headers.get('retry-after')));
}
