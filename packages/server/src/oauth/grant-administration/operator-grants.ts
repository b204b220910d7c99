import type { TokenServices } from '../services.js';
import { issueGrant } from '../tokens/index.js';
import { isScopeSubset } from '../tokens/index.js';
import type { GatehouseTokenResponse } from '@gatehouse/contract';
import { tokenResponse, userAccessClaims } from '../tokens/index.js';
import { OperatorInputError } from '../../primitives/operator-input-error.js';
import { normalizeUsername } from '../../users/users.js';

/**
 * Issues a grant of a user without an authorization flow, for operators and tests, and answers its
 * first token response. The grant names the user by its opaque subject, as a sign-in's grant does
 * (RFC 9068 §2.2 `sub`). Only a user can give a grant: a service account is a client of its own
 * with the client_credentials grant (RFC 6749 §4.4), so an unknown username is refused.
 */
export async function issueOperatorGrant(
  services: TokenServices,
  clientId: string,
  username: string,
  scope: readonly string[],
): Promise<GatehouseTokenResponse & { grant_id: string }> {
  const { store, clock, accessTokens } = services;
  const client = await store.findClient(clientId);
  if (!client) throw new OperatorInputError(`no client '${clientId}'`);
  if (!isScopeSubset(scope, client.scope))
    throw new OperatorInputError(`scope '${scope.join(' ')}' exceeds the client's scope '${client.scope.join(' ')}'`);
  const name = normalizeUsername(username);
  const user = await store.findUser(name);
  if (!user)
    throw new OperatorInputError(
      `no user '${name}': a grant is a user's (add one with users add); a service account is a client ` +
        'with the client_credentials grant (clients add --grant-types client_credentials)',
      'not_found',
    );
  const { subject } = user;
  const now = clock.now();
  const { grant, refreshToken } = await store.transaction((tx) => issueGrant(tx, client, subject, scope, now));
  const access = await userAccessClaims(store, accessTokens, subject);
  return {
    ...tokenResponse(accessTokens, { client, subject, scope, grantId: grant.id, refreshToken, now, access }),
    grant_id: grant.id,
  };
}
