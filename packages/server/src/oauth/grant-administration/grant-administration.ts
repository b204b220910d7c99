import type { Actor, AuditTrail } from '../../audit/audit.js';
import { revokeFamily } from '../tokens/index.js';
import type { GrantRecord } from '../../primitives/records.js';

/**
 * Revokes a grant for an operator (`gatehouse grants revoke`, the admin API): its refresh tokens and
 * access tokens stop working at once. The grant as it was before, or undefined when there is none;
 * revoking a revoked grant changes nothing and records nothing.
 */
export async function revokeGrantAsAdmin(
  trail: AuditTrail,
  id: string,
  now: number,
  actor: Actor,
): Promise<GrantRecord | undefined> {
  return trail.transaction(async (tx, audit) => {
    const grant = await tx.findGrant(id);
    if (grant) await revokeFamily(tx, audit, grant, { reason: 'revoked_by_admin', at: now, actor: actor.id });
    return grant;
  });
}

/**
 * A grant's state as an operator lists it: revoked (by anyone, for any reason), expired (its
 * family's absolute lifetime has passed: no refresh token of it is accepted), else active.
 */
export function grantState(g: GrantRecord, now: number): 'active' | 'expired' | 'revoked' {
  if (g.revokedAt !== null) return 'revoked';
  return g.expiresAt <= now ? 'expired' : 'active';
}

/** A grant as operators see it; `subject` is its user's subject, the `sub` of its tokens. */
export function describeGrant(g: GrantRecord): Record<string, unknown> {
  const iso = (t: number): string => new Date(t * 1000).toISOString();
  return {
    grant_id: g.id,
    client_id: g.clientId,
    subject: g.subject,
    scope: g.scope.join(' '),
    created_at: iso(g.createdAt),
    expires_at: iso(g.expiresAt),
    rotation_count: g.rotationCount,
    revoked_at: g.revokedAt === null ? null : iso(g.revokedAt),
    revoked_reason: g.revokedReason,
  };
}
