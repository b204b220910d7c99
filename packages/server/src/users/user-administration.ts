import type { Actor, AuditTrail } from '../audit/audit.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { UserClaims, UserRecord } from '../store/identity-repository.js';
import type { Repository } from '../store/repository.js';
import { hashPassword } from './passwords.js';
import { checkedPassword, checkedUsername, insertNewUser, newUser, normalizeUsername } from './users.js';

/**
 * The administrative changes of users, shared by `gatehouse users` and the admin API. Each is one
 * transaction that also records its audit event with the actor (an admin client's id, or `cli`),
 * so a refused change writes nothing. Passwords are hashed before the transaction starts. Events
 * name the user by its opaque subject, as grants and tokens do: one identifier across renames.
 */

export async function createUser(
  trail: AuditTrail,
  typedUsername: string,
  password: string,
  now: number,
  claims: UserClaims,
  actor: Actor,
  options: { readonly secondFactorRequired?: boolean } = {},
): Promise<UserRecord> {
  const user = { ...(await newUser(typedUsername, password, now, claims)), ...options };
  return trail.transaction(async (tx, audit) => {
    await insertNewUser(tx, user);
    await audit({ event: 'user_created', at: now, subject: user.subject, actor: actor.id });
    return user;
  });
}

/**
 * Changes a user's claims to `claimsOf(current claims)` and, with `rename`, its username: only
 * `users.username` changes. The `sub` of every token (the user's `subject`) does not, so grants,
 * refresh tokens and applications that signed the user in go on as before; the user is signed out
 * of every browser (sessions name the user by username). The new name must be free.
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
    const { subject } = current;
    await audit({ event: 'user_claims_updated', at: now, subject, actor: actor.id });
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
  options: { readonly temporary?: boolean } = {},
): Promise<void> {
  const passwordHash = await hashPassword(checkedPassword(password));
  const temporary = options.temporary === true;
  await trail.transaction(async (tx, audit) => {
    const { username, subject } = await existingUser(tx, typedUsername);
    // Temporary: the user replaces it at its next sign-in (the sign-in's change_password step).
    await tx.updateUserPassword(username, passwordHash, now, temporary);
    await tx.deleteBrowserSessionsOf(username);
    await audit({
      event: 'user_password_set',
      at: now,
      subject,
      actor: actor.id,
      ...(temporary ? { reason: 'temporary' } : {}),
    });
  });
}

/**
 * Requires the user to have a second factor from its next sign-in (`required`), or no longer
 * (`users require-second-factor NAME [--off]`): a user without one then enrols an authenticator
 * app during that sign-in, whatever the client's policy. Audited `second_factor_requirement_set`
 * (reason `required` or `not required`). Returns the user as it now is.
 */
export async function setSecondFactorRequirement(
  trail: AuditTrail,
  typedUsername: string,
  required: boolean,
  now: number,
  actor: Actor,
): Promise<UserRecord> {
  return trail.transaction(async (tx, audit) => {
    const { username, subject } = await existingUser(tx, typedUsername);
    await tx.setSecondFactorRequired(subject, required);
    await audit({
      event: 'second_factor_requirement_set',
      at: now,
      subject,
      actor: actor.id,
      reason: required ? 'required' : 'not required',
    });
    return (await tx.findUser(username)) as UserRecord;
  });
}

/**
 * Disables a user: it can no longer sign in, it is signed out of every browser, and every grant it
 * gave is revoked, so its refresh and access tokens stop working. Disabling a disabled user changes
 * nothing. Returns the user as it now is.
 */
export async function disableUser(trail: AuditTrail, typedUsername: string, now: number, actor: Actor) {
  return trail.transaction(async (tx, audit) => {
    const { username, subject } = await existingUser(tx, typedUsername);
    if (await tx.disableUser(username, now)) {
      await tx.deleteBrowserSessionsOf(username);
      await tx.revokeGrantsOf(subject, 'revoked_by_admin', now);
      await audit({ event: 'user_disabled', at: now, subject, actor: actor.id });
    }
    return (await tx.findUser(username)) as UserRecord;
  });
}

/** Lets a disabled user sign in again (its revoked grants stay revoked). Enabling an enabled user changes nothing. */
export async function enableUser(trail: AuditTrail, typedUsername: string, now: number, actor: Actor) {
  return trail.transaction(async (tx, audit) => {
    const { subject, username } = await existingUser(tx, typedUsername);
    if (await tx.enableUser(username, now)) await audit({ event: 'user_enabled', at: now, subject, actor: actor.id });
    return (await tx.findUser(username)) as UserRecord;
  });
}

/**
 * Removes a user, its sessions, and revokes every grant it gave. A later user of the same name has
 * another subject, so inherits nothing anyway; the revocation ends the tokens at once.
 */
export async function deleteUser(
  trail: AuditTrail,
  typedUsername: string,
  now: number,
  actor: Actor,
): Promise<{ removed: boolean; grantsRevoked: number }> {
  const username = normalizeUsername(typedUsername);
  return trail.transaction(async (tx, audit) => {
    const user = await tx.findUser(username);
    if (!user || !(await tx.removeUser(username))) return { removed: false, grantsRevoked: 0 };
    const { subject } = user;
    await tx.deleteSecondFactors(subject);
    const grantsRevoked = await tx.revokeGrantsOf(subject, 'revoked_by_admin', now);
    // One event for the user's grants (grant_id null): the revocation is one statement.
    if (grantsRevoked > 0)
      await audit({
        event: 'grant_revoked',
        at: now,
        subject,
        reason: 'revoked_by_admin',
        actor: actor.id,
      });
    await audit({ event: 'user_deleted', at: now, subject, actor: actor.id });
    return { removed: true, grantsRevoked };
  });
}

export async function existingUser(repo: Repository, typedUsername: string): Promise<UserRecord> {
  const username = normalizeUsername(typedUsername);
  const user = await repo.findUser(username);
  if (!user) throw new OperatorInputError(`no user '${username}'`, 'not_found');
  return user;
}
