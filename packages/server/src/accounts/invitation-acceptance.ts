import type { AuditTrail } from '../audit/audit.js';
import type { UserRecord } from '../store/identity-repository.js';
import type { PasskeyRecord } from '../store/passkey-repository.js';
import type { Repository } from '../store/repository.js';
import { checkedUsername, newUser } from '../users/users.js';
import { verifyEnrolment, type EnrolmentRefusal, type PasskeyOwner, type RelyingParty } from '../webauthn/index.js';
import { passwordRefusal, type PasswordRefusal } from '../users/password-policy.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { applyInvitation, openInvitation, type OpenInvitation } from './invitation.js';
import { NO_PASSWORD } from './new-account-passkey.js';

/** A new account's form as posted. */
export interface NewAccountSubmission {
  readonly secret: string;
  readonly username: string;
  readonly password: string;
  readonly address: string;
  readonly now: number;
}

/** What became of an acceptance. */
export type AcceptanceOutcome =
  | { readonly kind: 'invalid_link' }
  | { readonly kind: 'username_refused'; readonly why: 'invalid' | 'taken'; readonly invitation: OpenInvitation }
  | { readonly kind: 'password_refused'; readonly refusal: PasswordRefusal; readonly invitation: OpenInvitation }
  | { readonly kind: 'passkey_refused'; readonly reason: EnrolmentRefusal }
  | { readonly kind: 'done'; readonly username: string };

/**
 * Accepts an invitation for a new account (docs/accounts.md, "Invitations"): the username is one
 * the CLI would take and is free, the password passes the policy (users/password-policy.ts). Then,
 * in one transaction: the link used (one conditional update: of many uses at once exactly one
 * wins), the account made with the invitation's address, verified (the link reached it), the
 * groups and organization applied, audited `user_created` and `invitation_accepted`. The operator
 * who invited never sees the password.
 */
export async function acceptNewAccount(
  trail: AuditTrail,
  store: Repository,
  submission: NewAccountSubmission,
): Promise<AcceptanceOutcome> {
  const { now } = submission;
  const invitation = await openInvitation(store, submission.secret, now);
  if (!invitation || invitation.kind !== 'new') return { kind: 'invalid_link' };
  const { link } = invitation;
  const refusal = await passwordRefusal(submission.password, [submission.username, link.email]);
  if (refusal) return { kind: 'password_refused', refusal, invitation };
  let user: UserRecord;
  try {
    const claims = { email: link.email, email_verified: true };
    // The policy above is stricter than the CLI's check newUser repeats; the hash is made once here.
    user = { ...(await newUser(submission.username, submission.password, now, claims)), subject: link.subject };
  } catch (error) {
    if (error instanceof OperatorInputError) return { kind: 'username_refused', why: 'invalid', invitation };
    throw error;
  }
  return makeAccount(trail, invitation, user, submission.address, now);
}

/**
 * In one transaction: the link used (one conditional update: of many uses at once exactly one
 * wins), the account stored, with its passkey when it is made with one, the groups and organization
 * applied, audited `user_created` and `invitation_accepted` (and `passkey_enrolled`).
 */
async function makeAccount(
  trail: AuditTrail,
  invitation: OpenInvitation,
  user: UserRecord,
  address: string,
  now: number,
  passkey?: PasskeyRecord,
): Promise<AcceptanceOutcome> {
  const { link } = invitation;
  try {
    return await trail.transaction(async (tx, record): Promise<AcceptanceOutcome> => {
      if (!(await tx.useAccountLink(link.id, 'invitation', now))) return { kind: 'invalid_link' };
      // Thrown, not returned: the link's use is rolled back with the account's.
      if ((await tx.listUsersWithEmail(link.email)).length > 0) throw new Refused('invalid_link');
      if (!(await tx.insertUserIfAbsent(user))) throw new Refused('taken');
      if (passkey) await tx.insertPasskey(passkey);
      await applyInvitation(tx, invitation, user.subject, now);
      await record({ event: 'user_created', at: now, subject: user.subject, address });
      if (passkey) {
        const kind = passkey.backupEligible ? 'synced' : 'device_bound';
        await record({ event: 'passkey_enrolled', at: now, subject: user.subject, reason: kind, address });
      }
      await record({ event: 'invitation_accepted', at: now, subject: user.subject, address });
      return { kind: 'done', username: user.username };
    });
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    return error.why === 'taken' ? { kind: 'username_refused', why: 'taken', invitation } : { kind: 'invalid_link' };
  }
}

/** A new account's passkey form as posted: the browser's answer to the page's creation options. */
export interface PasskeySubmission {
  readonly secret: string;
  readonly username: string;
  /** The registration response (JSON), as the page's script posts it. */
  readonly credential: string;
  /** The browser session the page's creation options were made for. */
  readonly sessionId: string;
  readonly address: string;
  readonly now: number;
}

/**
 * The passkey a new account's page offers instead of a password (WebAuthn §5.4 creation options, as
 * the account page's enrolment makes them), for the subject the invitation chose and the address it
 * was sent to; the challenge is kept for this browser session.
 */
export function passkeyOwnerOf(invitation: OpenInvitation): PasskeyOwner {
  return { subject: invitation.link.subject, username: invitation.link.email, displayName: invitation.link.email };
}

/**
 * Accepts an invitation for a new account with a passkey instead of a password: the username as the
 * password form's; the passkey checked as the account page's enrolment checks one (webauthn/, §7.1:
 * this session's challenge, the issuer's origin, user verification), then stored with the account
 * in makeAccount's transaction. The account has no password (NO_PASSWORD) until a reset sets one;
 * its address is verified, as the link reached it.
 */
export async function acceptWithPasskey(
  trail: AuditTrail,
  store: Repository,
  rp: RelyingParty,
  submission: PasskeySubmission,
): Promise<AcceptanceOutcome> {
  const { now } = submission;
  const invitation = await openInvitation(store, submission.secret, now);
  if (!invitation || invitation.kind !== 'new') return { kind: 'invalid_link' };
  let username: string;
  try {
    username = checkedUsername(submission.username);
  } catch (error) {
    if (error instanceof OperatorInputError) return { kind: 'username_refused', why: 'invalid', invitation };
    throw error;
  }
  // Asked before the passkey's challenge is taken, so that a username taken leaves the form usable.
  if ((await store.findUser(username)) !== undefined) return { kind: 'username_refused', why: 'taken', invitation };
  const checked = await verifyEnrolment(store, rp, {
    owner: passkeyOwnerOf(invitation),
    sessionId: submission.sessionId,
    response: submission.credential,
    name: undefined,
    now,
  });
  if (!checked.ok) return { kind: 'passkey_refused', reason: checked.reason };
  const claims = { email: invitation.link.email, email_verified: true };
  const user: UserRecord = {
    username,
    passwordHash: NO_PASSWORD,
    createdAt: now,
    updatedAt: now,
    subject: invitation.link.subject,
    claims,
  };
  return makeAccount(trail, invitation, user, submission.address, now, checked.passkey);
}

/** Ends an acceptance's transaction without a change. */
class Refused extends Error {
  readonly why: 'taken' | 'invalid_link';
  constructor(why: 'taken' | 'invalid_link') {
    super(why);
    this.why = why;
  }
}

/**
 * Accepts an invitation for an existing account, by its owner signed in on this browser
 * (`subject`): the link used, the groups and organization applied, audited `invitation_accepted`,
 * in one transaction. Undefined when the link does not work or is another account's.
 */
export async function acceptAsMember(
  trail: AuditTrail,
  store: Repository,
  secret: string,
  subject: string,
  address: string,
  now: number,
): Promise<OpenInvitation | undefined> {
  const invitation = await openInvitation(store, secret, now);
  if (!invitation || invitation.kind !== 'existing' || invitation.link.subject !== subject) return undefined;
  return trail.transaction(async (tx, record) => {
    if (!(await tx.useAccountLink(invitation.link.id, 'invitation', now))) return undefined;
    await applyInvitation(tx, invitation, subject, now);
    await record({ event: 'invitation_accepted', at: now, subject, address });
    return invitation;
  });
}
