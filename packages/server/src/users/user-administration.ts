import type { Actor, AuditTrail } from '../audit/audit.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { UserClaims, UserRecord } from '../store/identity-repository.js';
import type { Repository } from '../store/repository.js';
import { hashPassword } from './passwords.js';
import { checkedPassword, checkedUsername, insertNewUser, newUser, normalizeUsername } from './users.js';

/**
 * The administrative changes of users, shared by `gatehouse users` and the admin API. Each is one
 * transaction that also records its audit event with the actor (an admin client's id, or `cli`),
 * so a refused change writes nothing. Passwords are hashed before the transaction starts.
 */

export async function createUser(
  trail: AuditTrail,
  typedUsername: string,
  password: string,
  now: number,
  claims: UserClaims,
  actor: Actor,
): Promise<UserRecord> {
  const user = await newUser(typedUsername, password, now, claims);
  return trail.transaction(async (tx, audit) => {
    await insertNewUser(tx, user);
    await audit({ event: 'user_created', at: now, subject: user.username, actor: actor.id });
    return user;
  });
}

/**
 * Changes a user's claims to `claimsOf(current claims)` and, with `rename`, its username: the
 * OpenID Connect `sub` (the user's `subject`) does not change, so applications that signed the
 * user in still know them; the grants follow the new name; the user is signed out of every
 * browser. A grant of the new name given before the user existed cannot be told apart, so the new
 * name must be free of users too.
 */
export async function updateUser(
  trail: AuditTrail,
  typedUsername: string,
  claimsOf: (current: UserClaims) => UserClaims,
  rename: string | undefined,
  now: number,
  actor: Actor,
): Promise<UserRecord> {
  const to = rename === undefined ? undefined : checkedUsername(rename);
  return trail.transaction(async (tx, audit) => {
    const current = await existingUser(tx, typedUsername);
    await tx.updateUserClaims(current.username, claimsOf(current.claims), now);
    let username = current.username;
    if (to !== undefined && to !== username) {
      if (await tx.findUser(to)) throw new OperatorInputError(`user '${to}' already exists`, 'conflict');
      await tx.renameUser(username, to, now);
      username = to;
    }
    await audit({ event: 'user_claims_updated', at: now, subject: username, actor: actor.id });
    return (await tx.findUser(username)) as UserRecord;
  });
}

/** Replaces a user's password and signs the user out of every browser. */
export async function setUserPassword(
  trail: AuditTrail,
  typedUsername: string,
  password: string,
  now: number,
  actor: Actor,
): Promise<void> {
  const passwordHash = await hashPassword(checkedPassword(password));
  await trail.transaction(async (tx, audit) => {
    const { username } = await existingUser(tx, typedUsername);
    await tx.updateUserPassword(username, passwordHash, now);
    await tx.deleteBrowserSessionsOf(username);
    await audit({ event: 'user_password_set', at: now, subject: username, actor: actor.id });
  });
}

/**
 * Disables a user: it can no longer sign in, it is signed out of every browser, and every grant it
 * gave is revoked, so its refresh and access tokens stop working. Disabling a disabled user changes
 * nothing. Returns the user as it now is.
 */
export async function disableUser(trail: AuditTrail, typedUsername: string, now: number, actor: Actor) {
  return trail.transaction(async (tx, audit) => {
    const { username } = await existingUser(tx, typedUsername);
    if (await tx.disableUser(username, now)) {
      await tx.deleteBrowserSessionsOf(username);
      await tx.revokeGrantsOf(username, 'revoked_by_admin', now);
      await audit({ event: 'user_disabled', at: now, subject: username, actor: actor.id });
    }
    return (await tx.findUser(username)) as UserRecord;
  });
}

/** Lets a disabled user sign in again (its revoked grants stay revoked). Enabling an enabled user changes nothing. */
export async function enableUser(trail: AuditTrail, typedUsername: string, now: number, actor: Actor) {
  return trail.transaction(async (tx, audit) => {
    const { username } = await existingUser(tx, typedUsername);
    if (await tx.enableUser(username, now))
      await audit({ event: 'user_enabled', at: now, subject: username, actor: actor.id });
    return (await tx.findUser(username)) as UserRecord;
  });
}

/**
 * Removes a user, its sessions, and revokes every grant it gave: a later user of the same name
 * must not inherit the old one's consent or tokens.
 */
export async function deleteUser(
  trail: AuditTrail,
  typedUsername: string,
  now: number,
  actor: Actor,
): Promise<{ removed: boolean; grantsRevoked: number }> {
  const username = normalizeUsername(typedUsername);
  return trail.transaction(async (tx, audit) => {
    const removed = await tx.removeUser(username);
    if (!removed) return { removed, grantsRevoked: 0 };
    const grantsRevoked = await tx.revokeGrantsOf(username, 'revoked_by_admin', now);
    // One event for the user's grants (grant_id null): the revocation is one statement.
    if (grantsRevoked > 0)
      await audit({
        event: 'grant_revoked',
        at: now,
        subject: username,
        reason: 'revoked_by_admin',
        actor: actor.id,
      });
    await audit({ event: 'user_deleted', at: now, subject: username, actor: actor.id });
    return { removed, grantsRevoked };
  });
}

export async function existingUser(repo: Repository, typedUsername: string): Promise<UserRecord> {
  const username = normalizeUsername(typedUsername);
  const user = await repo.findUser(username);
  if (!user) throw new OperatorInputError(`no user '${username}'`, 'not_found');
  return user;
}
