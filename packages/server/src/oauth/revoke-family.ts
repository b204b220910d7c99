import type { AuditRecorder, AuditEventName } from '../audit/audit.js';
import type { GrantRecord, GrantRevocationReason } from '../primitives/records.js';
import type { Repository } from '../store/repository.js';

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
 * Runs in the caller's audited transaction `tx` (AuditTrail.transaction), and records
 * `grant_revoked` there with `audit`, so the two commit together and the event reaches the log
 * after the commit. Revoking a revoked family changes nothing and records nothing.
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
  if (!(await tx.revokeGrant(grant.id, reason, at))) return false;
  const who = { at, clientId: grant.clientId, subject: grant.subject, grantId: grant.id };
  if (detected !== undefined) await audit({ ...who, event: detected });
  await audit({ ...who, event: 'grant_revoked', reason, ...(actor ? { actor } : {}) });
  return true;
}
