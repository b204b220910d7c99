import { auditedTransaction, storeAudit, type Actor } from '../audit/audit.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { UserClaims, UserRecord } from '../store/identity-repository.js';
import type { Repository } from '../store/repository.js';
import type { Store } from '../store/store.js';
import { hashPassword } from './passwords.js';
import { checkedPassword, checkedUsername, insertNewUser, newUser, normalizeUsername } from './users.js';

/**
 * The administrative changes of users, shared by `gatehouse users` and the admin API. Each is one
 * transaction that also records its audit event with the actor (an admin client's id, or `cli`),
 * so a refused change writes nothing. Passwords are hashed before the transaction starts.
 */

export async function createUser(
  store: Store,
  typedUsername: string,
  password: string,
  now: number,
  claims: UserClaims,
  actor: Actor,
): Promise<UserRecord> {
  const user = await newUser(typedUsername, password, now, claims);
  return auditedTransaction(store, actor.sink, async (tx, events) => {
    await insertNewUser(tx, user);
    events.push(await storeAudit(tx, { event: 'user_created', at: now, subject: user.username, actor: actor.id }));
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
  store: Store,
  typedUsername: string,
  claimsOf: (current: UserClaims) => UserClaims,
  rename: string | undefined,
  now: number,
  actor: Actor,
): Promise<UserRecord> {
  const to = rename === undefined ? undefined : checkedUsername(rename);
  return auditedTransaction(store, actor.sink, async (tx, events) => {
    const current = await existingUser(tx, typedUsername);
    await tx.updateUserClaims(current.username, claimsOf(current.claims), now);
    let username = current.username;
    if (to !== undefined && to !== username) {
      if (await tx.findUser(to)) throw new OperatorInputError(`user '${to}' already exists`, 'conflict');
      await tx.renameUser(username, to, now);
      username = to;
    }
    events.push(await storeAudit(tx, { event: 'user_claims_updated', at: now, subject: username, actor: actor.id }));
    return (await tx.findUser(username)) as UserRecord;
  });
}

/** Replaces a user's password and signs the user out of every browser. */
export async function setUserPassword(
  store: Store,
  typedUsername: string,
  password: string,
  now: number,
  actor: Actor,
): Promise<void> {
  const passwordHash = await hashPassword(checkedPassword(password));
  await auditedTransaction(store, actor.sink, async (tx, events) => {
    const { username } = await existingUser(tx, typedUsername);
    await tx.updateUserPassword(username, passwordHash, now);
    await tx.deleteBrowserSessionsOf(username);
    events.push(await storeAudit(tx, { event: 'user_password_set', at: now, subject: username, actor: actor.id }));
  });
}

/**
 * Disables a user: it can no longer sign in, it is signed out of every browser, and every grant it
 * gave is revoked, so its refresh and access tokens stop working. Disabling a disabled user changes
 * nothing. Returns the user as it now is.
 */
export async function disableUser(store: Store, typedUsername: string, now: number, actor: Actor) {
  return auditedTransaction(store, actor.sink, async (tx, events) => {
    const { username } = await existingUser(tx, typedUsername);
    if (await tx.disableUser(username, now)) {
      await tx.deleteBrowserSessionsOf(username);
      await tx.revokeGrantsOf(username, 'revoked_by_admin', now);
      events.push(await storeAudit(tx, { event: 'user_disabled', at: now, subject: username, actor: actor.id }));
    }
    return (await tx.findUser(username)) as UserRecord;
  });
}

/** Lets a disabled user sign in again (its revoked grants stay revoked). Enabling an enabled user changes nothing. */
export async function enableUser(store: Store, typedUsername: string, now: number, actor: Actor) {
  return auditedTransaction(store, actor.sink, async (tx, events) => {
    const { username } = await existingUser(tx, typedUsername);
    if (await tx.enableUser(username, now))
      events.push(await storeAudit(tx, { event: 'user_enabled', at: now, subject: username, actor: actor.id }));
    return (await tx.findUser(username)) as UserRecord;
  });
}

/**
 * Removes a user, its sessions, and revokes every grant it gave: a later user of the same name
 * must not inherit the old one's consent or tokens.
 */
export async function deleteUser(
  store: Store,
  typedUsername: string,
  now: number,
  actor: Actor,
): Promise<{ removed: boolean; grantsRevoked: number }> {
  const username = normalizeUsername(typedUsername);
  return auditedTransaction(store, actor.sink, async (tx, events) => {
    const removed = await tx.removeUser(username);
    if (!removed) return { removed, grantsRevoked: 0 };
    const grantsRevoked = await tx.revokeGrantsOf(username, 'revoked_by_admin', now);
    // One event for the user's grants (grant_id null): the revocation is one statement.
    if (grantsRevoked > 0)
      events.push(
        await storeAudit(tx, {
          event: 'grant_revoked',
          at: now,
          subject: username,
          reason: 'revoked_by_admin',
          actor: actor.id,
        }),
      );
    events.push(await storeAudit(tx, { event: 'user_deleted', at: now, subject: username, actor: actor.id }));
    return { removed, grantsRevoked };
  });
}

export async function existingUser(repo: Repository, typedUsername: string): Promise<UserRecord> {
  const username = normalizeUsername(typedUsername);
  const user = await repo.findUser(username);
  if (!user) throw new OperatorInputError(`no user '${username}'`, 'not_found');
  return user;
}
