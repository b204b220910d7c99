import { OAuthError } from '@gatehouse/contract';
import { authorizationCodeGrant } from './authorization-code.js';
import { clientCredentialsGrant } from './client-credentials.js';
import { deviceCodeGrant } from './device-code.js';
import type { GrantHandler } from './grant.js';
import { refreshTokenGrant } from './refresh-token.js';

/**
 * The grant registry: the grant types the token endpoint supports. `grant_types_supported`
 * (RFC 8414 §2), the `GrantType` vocabulary and the check of a client's `grant_types` all derive
 * from this list; a new grant is a file in this folder and a line here.
 */
const GRANTS = [authorizationCodeGrant, refreshTokenGrant, clientCredentialsGrant, deviceCodeGrant] as const;

export type GrantType = (typeof GRANTS)[number]['grantType'];

export const GRANT_TYPES: readonly GrantType[] = GRANTS.map((g) => g.grantType);

const HANDLERS: ReadonlyMap<string, GrantHandler<GrantType>> = new Map(GRANTS.map((g) => [g.grantType, g]));

export function isGrantType(value: string): value is GrantType {
  return HANDLERS.has(value);
}

/** The handler of `grant_type`; `unsupported_grant_type` (RFC 6749 §5.2) for any other value. */
export function grantHandlerOf(grantType: string): GrantHandler<GrantType> {
  const handler = HANDLERS.get(grantType);
  if (!handler) throw new OAuthError('grant_type_unsupported');
  return handler;
}
