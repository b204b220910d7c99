import { revokeFamily } from '../tokens/index.js';
import type { TokenServices } from '../services.js';
import type { ClientRecord } from '../../primitives/records.js';
import { digestOf } from '../../primitives/secrets.js';

type RevocationOutcome = 'revoked' | 'unknown' | 'access_token' | 'other_client';

/**
 * Revokes a refresh token, and with it its whole grant: the family's other tokens and the access
 * tokens issued under it (RFC 7009 §2.1 says the latter SHOULD go too). Unknown tokens are not an
 * error (RFC 7009 §2.2); access tokens are short-lived JWTs and are not revoked one by one.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2.1 RFC 7009 §2.1
 */
export async function revokeToken(
  { store, audit, clock, accessTokens }: TokenServices,
  caller: ClientRecord,
  token: string,
): Promise<RevocationOutcome> {
  const found = await store.findRefreshToken(digestOf(token));
  if (found) {
    if (found.grant.clientId !== caller.id) return 'other_client';
    const now = clock.now();
    const { grant } = found;
    await audit.transaction((tx, recordIn) =>
      revokeFamily(tx, recordIn, grant, { reason: 'revoked_by_client', at: now }),
    );
    return 'revoked';
  }
  // Every access token this server issued, whatever its audience, is answered alike.
  if (token.includes('.') && (await accessTokens.checkIssued(token, clock.now()))) return 'access_token';
  return 'unknown';
}
