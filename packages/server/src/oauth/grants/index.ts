import { OAuthError } from '@gatehouse/contract';
import { authorizationCodeGrant } from './authorization-code.js';
import { clientCredentialsGrant } from './client-credentials.js';
import { deviceCodeGrant } from './device-code.js';
import type { GrantTypeName } from '../../primitives/grant-types.js';
import type { GrantHandler } from './grant.js';
import { refreshTokenGrant } from './refresh-token.js';
import { tokenExchangeGrant } from './token-exchange.js';

/**
 * The grant registry: the grant types the token endpoint supports. `grant_types_supported`
 * (RFC 8414 §2) and the `GrantType` type derive from this list. The names a client may be
 * registered for are `GRANT_TYPE_NAMES` (primitives/grant-types.ts), below the records and the
 * grants, so that client registration never imports the grants; the assertion below keeps the two
 * equal. A new grant is a file in this folder, a line here and its name there.
 */
const GRANTS = [
  authorizationCodeGrant,
  refreshTokenGrant,
  clientCredentialsGrant,
  deviceCodeGrant,
  tokenExchangeGrant,
] as const;

export type GrantType = (typeof GRANTS)[number]['grantType'];

/** True only when the registry's grant types are exactly the vocabulary of primitives/grant-types.ts. */
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const REGISTRY_IMPLEMENTS_VOCABULARY: SameNames<GrantType, GrantTypeName> = true;

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
