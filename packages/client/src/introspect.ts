import type { IntrospectionResponse } from '@gatehouse/contract';
import { InvalidResponseError } from './errors.js';
import { jsonObjectOf, postForm, type EndpointContext } from './http.js';

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
  return parseIntrospectionResponse(
    await jsonObjectOf(await postForm(ctx, endpoint, params), 'introspection endpoint'),
  );
}

const STRING_MEMBERS = ['token_type', 'client_id', 'username', 'sub', 'scope', 'iss', 'jti'] as const;
const TIME_MEMBERS = ['exp', 'iat', 'nbf'] as const;

/**
 * Checks an introspection response: a boolean `active`, the one required member, and the optional
 * members of an active token of the types the RFC gives them.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7662#section-2.2 RFC 7662 §2.2
 */
function parseIntrospectionResponse(body: Readonly<Record<string, unknown>>): IntrospectionResponse {
  const bad = (what: string): never => {
    throw new InvalidResponseError(`the introspection response ${what}`, 200);
  };
  if (typeof body.active !== 'boolean') bad('has no boolean active');
  if (body.active) {
    for (const name of STRING_MEMBERS)
      if (body[name] !== undefined && typeof body[name] !== 'string') bad(`has a ${name} that is not a string`);
    for (const name of TIME_MEMBERS)
      if (body[name] !== undefined && (typeof body[name] !== 'number' || !Number.isFinite(body[name])))
        bad(`has an ${name} that is not a number of seconds`);
    const { aud } = body;
    if (
      aud !== undefined &&
      typeof aud !== 'string' &&
      !(Array.isArray(aud) && aud.every((a) => typeof a === 'string'))
    )
      bad('has an aud that is neither a string nor an array of strings');
  }
  return body as unknown as IntrospectionResponse;
}
