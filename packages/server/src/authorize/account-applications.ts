import type { AuditTrail } from '../audit/audit.js';
import { revokeFamily } from '../oauth/tokens/index.js';
import type { AccountGrant } from '../store/oidc-repository.js';

/**
 * The account page's view of a user's grants: one application per client, however many times the
 * user signed in to it (each sign-in with consent may make a grant of its own), and its removal.
 */

/** One client holding live grants of the user. */
export interface AccountApplication {
  readonly clientId: string;
  readonly clientName: string;
  /** Every scope any of its grants holds, each once, in the order first granted. */
  readonly scopes: readonly string[];
  /** When the first of its live grants was made. */
  readonly since: number;
  /** The latest sign-in or use of any of its grants. */
  readonly lastUsed: number;
}

/** Groups live grants by client; the most recently used application first. */
export function applicationsOf(grants: readonly AccountGrant[]): AccountApplication[] {
  const byClient = new Map<string, AccountApplication>();
  for (const { grant, clientName, lastUsedAt } of grants) {
    // The code exchange that made the grant is its first use.
    const used = lastUsedAt ?? grant.createdAt;
    const known = byClient.get(grant.clientId);
    byClient.set(grant.clientId, {
      clientId: grant.clientId,
      clientName,
      scopes: [...new Set([...(known?.scopes ?? []), ...grant.scope])],
      since: Math.min(known?.since ?? grant.createdAt, grant.createdAt),
      lastUsed: Math.max(known?.lastUsed ?? used, used),
    });
  }
  return [...byClient.values()].sort((a, b) => b.lastUsed - a.lastUsed || a.clientName.localeCompare(b.clientName));
}

/**
 * Removes an application from the user's account: every live grant of `subject` held by `clientId`
 * is revoked with its family, each through `revokeFamily` (one `grant_revoked` event, reason
 * `revoked_by_user`, per grant), in one transaction. Another user's grants are never touched; a
 * client holding none of the user's grants changes nothing. The number of grants revoked.
 */
export async function removeApplication(
  trail: AuditTrail,
  removal: { readonly subject: string; readonly clientId: string; readonly now: number },
): Promise<number> {
  const { subject, clientId, now } = removal;
  return trail.transaction(async (tx, audit) => {
    const grants = (await tx.listAccountGrants(subject, now)).filter((g) => g.grant.clientId === clientId);
    for (const { grant } of grants) await revokeFamily(tx, audit, grant, { reason: 'revoked_by_user', at: now });
    return grants.length;
  });
}
