import type { AuditRecorder, AuditEventName } from '../../audit/audit.js';
import type { GrantRecord, GrantRevocationReason } from '../../primitives/records.js';
import type { Repository } from '../../store/repository.js';

/** Why and when a family is revoked, and by whom when an operator does it. */
export interface FamilyRevocation {
  readonly reason: GrantRevocationReason;
  readonly at: number;
  /** The operator who revoked it (an admin client's id, or `cli`); absent otherwise. */
  readonly actor?: string;
  /** An event recorded before `grant_revoked`, naming what was detected (a refresh-token reuse). */
  readonly detected?: AuditEventName;
}

/**
 * Revokes a grant and with it its whole family: every refresh token of the grant and every access
 * token issued under it stop working (introspection, userinfo and the refresh check the grant).
 * The grants token exchanges made from it (RFC 8693; to any depth) are revoked with it, reason
 * `parent_revoked`. Runs in the caller's audited transaction `tx` (AuditTrail.transaction), and
 * records `grant_revoked` there with `audit`, one per grant revoked, so they commit together and
 * the events reach the log after the commit. Revoking a revoked family changes nothing and records
 * nothing.
 *
 * Its callers: a refresh-token reuse (RFC 9700 §4.14.2), an authorization code used twice
 * (RFC 6749 §4.1.2), a client's revocation (RFC 7009 §2.1), an operator's, and the user's own on the
 * account page.
 */
export async function revokeFamily(
  tx: Repository,
  audit: AuditRecorder,
  grant: Pick<GrantRecord, 'id' | 'clientId' | 'subject'>,
  revocation: FamilyRevocation,
): Promise<boolean> {
  const { reason, at, actor, detected } = revocation;
  const revoked = await tx.revokeGrant(grant.id, reason, at, 'parent_revoked');
  const revokedItself = revoked.some((r) => r.id === grant.id);
  const by = actor ? { actor } : {};
  if (revokedItself) {
    const who = { at, clientId: grant.clientId, subject: grant.subject, grantId: grant.id };
    if (detected !== undefined) await audit({ ...who, event: detected });
    await audit({ ...who, event: 'grant_revoked', reason, ...by });
  }
  for (const child of revoked)
    if (child.id !== grant.id)
      await audit({
        at,
        event: 'grant_revoked',
        clientId: child.clientId,
        subject: child.subject,
        grantId: child.id,
        reason: 'parent_revoked',
        ...by,
      });
  return revokedItself;
}
