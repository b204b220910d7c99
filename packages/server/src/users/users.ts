import { storeAudit } from '../audit/audit.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { UserClaims, UserRecord } from '../store/identity-repository.js';
import { newId } from '../primitives/ids.js';
import type { Store } from '../store/store.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';

/**
 * Users sign in on the authorization pages; the username is the `sub` of the grants they give, the
 * same subject `gatehouse grants issue --user` names. Usernames are lowercase, so that a phone
 * capitalising the first letter still finds the account.
 */
const USERNAME = /^[a-z0-9][a-z0-9._@-]{0,63}$/;

/** The username as typed, in the form it is stored: trimmed and lowercased. */
export function normalizeUsername(typed: string): string {
  return typed.trim().toLowerCase();
}

function checkedUsername(typed: string): string {
  const username = normalizeUsername(typed);
  if (!USERNAME.test(username))
    throw new OperatorInputError(
      'a username is 1 to 64 characters of a-z, 0-9 and . _ @ -, starting with a letter or digit',
    );
  return username;
}

function checkedPassword(password: string): string {
  const problem = passwordProblem(password);
  if (problem) throw new OperatorInputError(problem);
  return password;
}

/**
 * Adds a user with a new subject: 128 random bits, so a subject is never reused, not even by a later
 * user of the same name (OIDC Core §2: "never reassigned").
 */
export async function addUser(
  store: Store,
  typedUsername: string,
  password: string,
  now: number,
  claims: UserClaims = {},
): Promise<UserRecord> {
  const username = checkedUsername(typedUsername);
  const passwordHash = await hashPassword(checkedPassword(password));
  if (await store.findUser(username)) throw new OperatorInputError(`user '${username}' already exists`);
  const user: UserRecord = { username, passwordHash, createdAt: now, updatedAt: now, subject: newId(), claims };
  await store.insertUser(user);
  return user;
}

/** Replaces a user's password and signs the user out of every browser. */
export async function changePassword(
  store: Store,
  typedUsername: string,
  password: string,
  now: number,
): Promise<void> {
  const username = normalizeUsername(typedUsername);
  const passwordHash = await hashPassword(checkedPassword(password));
  const changed = await store.transaction(async (tx) => {
    if (!(await tx.updateUserPassword(username, passwordHash, now))) return false;
    await tx.deleteBrowserSessionsOf(username);
    return true;
  });
  if (!changed) throw new OperatorInputError(`no user '${username}'`);
}

/** Replaces a user's claims (`gatehouse users update`); the subject never changes. */
export async function updateUserClaims(store: Store, typedUsername: string, claims: UserClaims, now: number) {
  const username = normalizeUsername(typedUsername);
  if (!(await store.updateUserClaims(username, claims, now))) throw new OperatorInputError(`no user '${username}'`);
}

/**
 * Renames a user. The OpenID Connect `sub` (the user's `subject`) does not change, so applications
 * that signed the user in still know them; the grants follow the new name and keep working; the
 * user is signed out of every browser. A grant of the old name given before the user existed
 * cannot be told apart, so the new name must be free of grants too.
 */
export async function renameUser(store: Store, typedFrom: string, typedTo: string, now: number): Promise<UserRecord> {
  const from = normalizeUsername(typedFrom);
  const to = checkedUsername(typedTo);
  return store.transaction(async (tx) => {
    if (await tx.findUser(to)) throw new OperatorInputError(`user '${to}' already exists`);
    if (!(await tx.renameUser(from, to, now))) throw new OperatorInputError(`no user '${from}'`);
    return (await tx.findUser(to)) as UserRecord;
  });
}

/**
 * Removes a user, its sessions, and revokes every grant it gave: a later user of the same name
 * must not inherit the old one's consent or tokens.
 */
export async function removeUser(
  store: Store,
  typedUsername: string,
  now: number,
): Promise<{ removed: boolean; grantsRevoked: number }> {
  const username = normalizeUsername(typedUsername);
  return store.transaction(async (tx) => {
    const removed = await tx.removeUser(username);
    const grantsRevoked = removed ? await tx.revokeGrantsOf(username, 'revoked_by_admin', now) : 0;
    // One event for the user's grants (grant_id null): the revocation is one statement.
    if (grantsRevoked > 0)
      await storeAudit(tx, { event: 'grant_revoked', at: now, subject: username, reason: 'revoked_by_admin' });
    return { removed, grantsRevoked };
  });
}

// Verified against when the username is unknown, so that answering takes as long as for a known one.
let unknownUserHash: Promise<string> | undefined;

/** A sign-in attempt's outcome: the user, or why not (for the audit trail, never for the page). */
type PasswordCheck = { readonly user: UserRecord } | { readonly failure: 'unknown_user' | 'wrong_password' };

/**
 * Checks a password. An unknown username costs the same scrypt as a wrong password, so timing does
 * not tell which usernames exist.
 */
export async function checkPassword(store: Store, typedUsername: string, password: string): Promise<PasswordCheck> {
  const user = await store.findUser(normalizeUsername(typedUsername));
  unknownUserHash ??= hashPassword('gatehouse: no such user');
  const matches = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash));
  if (!user) return { failure: 'unknown_user' };
  return matches ? { user } : { failure: 'wrong_password' };
}

/** The user as operators see it: never the hash. */
export function describeUser(u: UserRecord): Record<string, unknown> {
  return {
    username: u.username,
    subject: u.subject,
    ...u.claims,
    created_at: new Date(u.createdAt * 1000).toISOString(),
    updated_at: new Date(u.updatedAt * 1000).toISOString(),
  };
}
