import { createHash } from 'node:crypto';
import type { Actor, AuditTrail } from '../audit/audit.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { Repository } from '../store/repository.js';
import { existingUser } from './user-administration.js';

/**
 * A user's browser sessions as an operator sees and ends them, shared by the admin API and the
 * console. A session is named by a handle made from its stored id (itself a digest of the cookie),
 * so what an operator reads leads back to neither the cookie nor the stored id.
 */

/** A session's handle: 22 hex characters of SHA-256 over its stored id. */
export function sessionHandle(session: Pick<BrowserSessionRecord, 'id'>): string {
  return createHash('sha256').update(`session-handle:${session.id}`).digest('hex').slice(0, 22);
}

/** A session as the admin API answers it. */
export function describeSession(session: BrowserSessionRecord): Record<string, unknown> {
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  return {
    session_id: sessionHandle(session),
    created_at: iso(session.createdAt),
    signed_in_at: session.authenticatedAt === null ? null : iso(session.authenticatedAt),
    expires_at: iso(session.expiresAt),
    // RFC 8176 `amr` values of the sign-in, in the order done.
    methods: [...new Set((session.methods ?? []).map((m) => m.method))],
  };
}

/** The user's signed-in browser sessions at `now`, oldest first. */
export async function listUserSessions(
  store: Repository,
  typedUsername: string,
  now: number,
): Promise<BrowserSessionRecord[]> {
  const { username } = await existingUser(store, typedUsername);
  return store.listSignedInSessions(username, now);
}

/**
 * Ends one browser session of the user: its next request is anonymous. The grants it gave stay
 * (revoke them one by one, or sign the user out everywhere).
 */
export async function endUserSession(
  trail: AuditTrail,
  typedUsername: string,
  handle: string,
  now: number,
  actor: Actor,
): Promise<void> {
  await trail.transaction(async (tx, audit) => {
    const { username, subject } = await existingUser(tx, typedUsername);
    const session = (await tx.listSignedInSessions(username, now)).find((s) => sessionHandle(s) === handle);
    if (session === undefined)
      throw new OperatorInputError(`user '${username}' has no session '${handle}'`, 'not_found');
    await tx.deleteBrowserSession(session.id);
    await audit({ event: 'user_session_ended', at: now, subject, actor: actor.id, reason: `session ${handle}` });
  });
}

/**
 * Signs the user out everywhere: every browser session ends and every live grant is revoked (its
 * refresh and access tokens with it), as disabling does, but the user may sign in again at once.
 */
export async function signOutEverywhere(
  trail: AuditTrail,
  typedUsername: string,
  now: number,
  actor: Actor,
): Promise<{ sessionsEnded: number; grantsRevoked: number }> {
  return trail.transaction(async (tx, audit) => {
    const { username, subject } = await existingUser(tx, typedUsername);
    const sessionsEnded = await tx.deleteBrowserSessionsOf(username);
    const grantsRevoked = await tx.revokeGrantsOf(subject, 'revoked_by_admin', now);
    await audit({
      event: 'user_signed_out_everywhere',
      at: now,
      subject,
      actor: actor.id,
      reason: `${sessionsEnded} sessions ended, ${grantsRevoked} grants revoked`,
    });
    return { sessionsEnded, grantsRevoked };
  });
}
