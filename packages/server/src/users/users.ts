import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { UserClaims, UserRecord } from '../store/identity-repository.js';
import { newId } from '../primitives/ids.js';
import type { Repository } from '../store/repository.js';
import type { Store } from '../store/store.js';
import { hashPassword, passwordHashCost, passwordProblem, verifyPassword } from './passwords.js';

/**
 * Users sign in on the authorization pages with their username, which may change; their grants and
 * tokens name them by their opaque `subject` (the `sub`), never by the username. Usernames are
 * lowercase, so that a phone capitalising the first letter still finds the account.
 */
const USERNAME = /^[a-z0-9][a-z0-9._@-]{0,63}$/;

/** The username as typed, in the form it is stored: trimmed and lowercased. */
export function normalizeUsername(typed: string): string {
  return typed.trim().toLowerCase();
}

export function checkedUsername(typed: string): string {
  const username = normalizeUsername(typed);
  if (!USERNAME.test(username))
    throw new OperatorInputError(
      'a username is 1 to 64 characters of a-z, 0-9 and . _ @ -, starting with a letter or digit',
    );
  return username;
}

export function checkedPassword(password: string): string {
  const problem = passwordProblem(password);
  if (problem) throw new OperatorInputError(problem);
  return password;
}

/**
 * A new user, checked and with its password hashed, not yet stored. Its subject is 128 random
 * bits, so a subject is never reused, not even by a later user of the same name (OIDC Core §2:
 * "never reassigned").
 */
export async function newUser(
  typedUsername: string,
  password: string,
  now: number,
  claims: UserClaims = {},
): Promise<UserRecord> {
  const username = checkedUsername(typedUsername);
  const passwordHash = await hashPassword(checkedPassword(password));
  return { username, passwordHash, createdAt: now, updatedAt: now, subject: newId(), claims };
}

/** Stores `user` unless its username is taken. */
export async function insertNewUser(repo: Repository, user: UserRecord): Promise<UserRecord> {
  // One statement decides: two additions of one username at once get one user and one conflict.
  if (!(await repo.insertUserIfAbsent(user)))
    throw new OperatorInputError(`user '${user.username}' already exists`, 'conflict');
  return user;
}

/** Adds a user (see newUser). */
export async function addUser(
  store: Repository,
  typedUsername: string,
  password: string,
  now: number,
  claims: UserClaims = {},
): Promise<UserRecord> {
  return insertNewUser(store, await newUser(typedUsername, password, now, claims));
}

// Verified against when the username is unknown, so that answering takes as long as for a known one:
// made at the cost of new hashes, the cost of every user's hash but those made before it changed.
let unknownUser: { readonly cost: number; readonly hash: Promise<string> } | undefined;

function unknownUserHash(): Promise<string> {
  const cost = passwordHashCost();
  if (unknownUser?.cost !== cost) unknownUser = { cost, hash: hashPassword('gatehouse: no such user') };
  return unknownUser.hash;
}

/** A sign-in attempt's outcome: the user, or why not (for the audit trail, never for the page). */
type PasswordCheck =
  { readonly user: UserRecord } | { readonly failure: 'unknown_user' | 'wrong_password' | 'user_disabled' };

/**
 * Checks a password. An unknown username costs the same scrypt as a wrong password, so timing does
 * not tell which usernames exist.
 */
export async function checkPassword(store: Store, typedUsername: string, password: string): Promise<PasswordCheck> {
  const user = await store.findUser(normalizeUsername(typedUsername));
  const matches = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash()));
  if (!user) return { failure: 'unknown_user' };
  if (!matches) return { failure: 'wrong_password' };
  // A disabled user is told what anyone with a wrong password is told; the audit trail says why.
  return user.disabledAt == null ? { user } : { failure: 'user_disabled' };
}

/** The user as operators see it: never the hash. */
export function describeUser(u: UserRecord): Record<string, unknown> {
  return {
    username: u.username,
    subject: u.subject,
    ...u.claims,
    created_at: new Date(u.createdAt * 1000).toISOString(),
    updated_at: new Date(u.updatedAt * 1000).toISOString(),
    ...(u.disabledAt == null ? {} : { disabled_at: new Date(u.disabledAt * 1000).toISOString() }),
    ...(u.secondFactorRequired === true ? { second_factor_required: true } : {}),
    ...(u.passwordTemporary === true ? { password_temporary: true } : {}),
    ...(u.termsAccepted
      ? { terms_version: u.termsAccepted.version, terms_accepted_at: new Date(u.termsAccepted.at * 1000).toISOString() }
      : {}),
  };
}
