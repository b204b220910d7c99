import type { Repository } from '../../store/repository.js';
import type { AccessTokenClaims } from './access-tokens.js';

/**
 * Whether the client of a grant-less access token (client_credentials, RFC 6749 §4.4) still holds
 * it: such a token has no grant to revoke, so it lives only as long as its client, the very client
 * that existed when it was issued (not a later one registered under the same id).
 */
export async function clientStillHolds(
  store: Pick<Repository, 'findClient'>,
  claims: Pick<AccessTokenClaims, 'client_id' | 'iat'>,
): Promise<boolean> {
  const client = await store.findClient(claims.client_id);
  return client !== undefined && client.createdAt <= claims.iat;
}
