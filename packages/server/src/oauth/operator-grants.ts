import type { TokenServices } from './services.js';
import { issueGrant } from './grant-issuance.js';
import { isScopeSubset } from './scope.js';
import type { GatehouseTokenResponse } from '@gatehouse/contract';
import { tokenResponse } from './token-response.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';

/**
 * Issues a grant without an authorization flow, for service accounts, operators and tests, and
 * answers its first token response.
 */
export async function issueOperatorGrant(
  services: TokenServices,
  clientId: string,
  subject: string,
  scope: readonly string[],
): Promise<GatehouseTokenResponse & { grant_id: string }> {
  const { store, clock, accessTokens } = services;
  const client = await store.findClient(clientId);
  if (!client) throw new OperatorInputError(`no client '${clientId}'`);
  if (!isScopeSubset(scope, client.scope))
    throw new OperatorInputError(`scope '${scope.join(' ')}' exceeds the client's scope '${client.scope.join(' ')}'`);
  if (subject === '') throw new OperatorInputError('the subject must not be empty');
  const now = clock.now();
  const { grant, refreshToken } = await store.transaction((tx) => issueGrant(tx, client, subject, scope, now));
  return {
    ...tokenResponse(accessTokens, { client, subject, scope, grantId: grant.id, refreshToken, now }),
    grant_id: grant.id,
  };
}
