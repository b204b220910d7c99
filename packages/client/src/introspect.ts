import { InvalidResponseError } from './errors.js';
import { jsonObjectOf, postForm, type EndpointContext } from './http.js';
import type { IntrospectionResponse } from './wire.js';

/**
 * Asks the authorization server whether a token is active. At Gatehouse the caller must be a
 * confidential client; `{"active": false}` covers expired, revoked and past-limit tokens alike.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7662#section-2.1 RFC 7662 §2.1
 */
export async function introspectToken(
  ctx: EndpointContext,
  token: string,
  tokenTypeHint?: 'refresh_token' | 'access_token',
): Promise<IntrospectionResponse> {
  const endpoint = ctx.metadata.introspection_endpoint;
  if (endpoint === undefined) throw new InvalidResponseError('the server metadata names no introspection_endpoint');
  const params: Record<string, string> = { token };
  if (tokenTypeHint !== undefined) params.token_type_hint = tokenTypeHint;
  const body = await jsonObjectOf(await postForm(ctx, endpoint, params), 'introspection endpoint');
  // RFC 7662 §2.2: `active` is the one required member.
  if (typeof body.active !== 'boolean')
    throw new InvalidResponseError('the introspection response has no boolean active', 200);
  return body as IntrospectionResponse;
}
