import { authorizationCodeGrant } from './authorization-code.js';
import { clientCredentialsGrant } from './client-credentials.js';
import type { GrantHandler } from './grant.js';
import { refreshTokenGrant } from './refresh-token.js';

export type { GrantHandler } from './grant.js';

/** The grant types the token endpoint supports, by `grant_type`. */
export const GRANT_HANDLERS: ReadonlyMap<string, GrantHandler> = new Map(
  [authorizationCodeGrant, refreshTokenGrant, clientCredentialsGrant].map((g) => [g.grantType, g]),
);
