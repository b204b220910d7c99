import type { ClientRecord, GrantExchange, GrantRecord } from '../../primitives/records.js';
import type { Repository } from '../../store/repository.js';
import { idleExpiry } from './refresh-token-lifecycle.js';
import { digestOf } from '../../primitives/secrets.js';
import { newId } from '../../primitives/ids.js';
import { newOpaqueSecret } from '../../primitives/random.js';

interface NewGrant {
  readonly grant: GrantRecord;
  /** The first refresh token's plaintext; null when the client may not use the refresh_token grant. */
  readonly refreshToken: string | null;
}

/**
 * Whether a grant of `client` carries a refresh token: exactly when the client may use the
 * refresh_token grant, whatever the scope. `offline_access` is not required (OIDC Core §11 makes it
 * the way an OpenID client asks for access while the user is away; an OAuth client registered for
 * refresh_token asked already), so an agent that forgets it is not signed in again every hour.
 * A public client of the code flow is registered with refresh_token unless it says otherwise
 * (client-metadata.ts, client-id-metadata.ts; docs/agents.md, "Refresh tokens for agents").
 */
export function issuesRefreshToken(client: Pick<ClientRecord, 'grantTypes'>): boolean {
  return client.grantTypes.includes('refresh_token');
}

/** Creates a grant and the first token of its family. Call inside a transaction. */
export async function issueGrant(
  tx: Repository,
  client: ClientRecord,
  subject: string,
  scope: readonly string[],
  now: number,
  dpopJkt?: string,
  /** A token exchange's grant (RFC 8693): what its access tokens carry, and the subject token's grant. */
  exchanged?: { readonly exchange: GrantExchange; readonly parentGrantId: string },
  /** The organization chosen at /authorize, or a token exchange's subject token's: carried at every refresh. */
  organizationId?: string | null,
): Promise<NewGrant> {
  const refreshToken = issuesRefreshToken(client) ? newOpaqueSecret() : null;
  const grant: GrantRecord = {
    id: newId(),
    clientId: client.id,
    subject,
    scope,
    createdAt: now,
    expiresAt: now + client.policy.refreshTokenAbsoluteTtl,
    rotationCount: 0,
    headTokenId: refreshToken === null ? null : digestOf(refreshToken),
    previousTokenId: null,
    revokedAt: null,
    revokedReason: null,
    rotatedAt: null,
    // RFC 9449 §5: a public client's refresh tokens are bound to the key of the proof that got them;
    // a confidential client's stay bound by its authentication.
    dpopJkt: client.secretDigest === null && refreshToken !== null ? (dpopJkt ?? null) : null,
    ...(exchanged === undefined ? {} : { exchange: exchanged.exchange, parentGrantId: exchanged.parentGrantId }),
    ...(organizationId == null ? {} : { organizationId }),
  };
  await tx.insertGrant(grant);
  if (grant.headTokenId !== null) {
    await tx.insertRefreshToken({
      id: grant.headTokenId,
      grantId: grant.id,
      useCount: 0,
      issuedAt: now,
      expiresAt: idleExpiry(grant, client.policy, now),
    });
  }
  return { grant, refreshToken };
}
