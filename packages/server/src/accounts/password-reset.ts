import { addressKey, usernameKey, type Charge, type RateLimiter } from '../abuse/rate-limiter.js';
import type { AuditTrail } from '../audit/audit.js';
import { checkOneTimeCode, useRecoveryCode, type FactorServices } from '../factors/factors.js';
import { matchLocale, SUPPORTED_LOCALES, type Languages, type PageLocale } from '../i18n/index.js';
import type { Outbox } from '../mail/index.js';
import { newOpaqueSecret } from '../primitives/random.js';
import { digestOf } from '../primitives/secrets.js';
import type { AccountLinkRecord } from '../store/account-link-repository.js';
import type { UserRecord } from '../store/identity-repository.js';
import type { Store } from '../store/store.js';
import { hashPassword } from '../users/passwords.js';
import { passwordRefusal, type PasswordRefusal } from '../users/password-policy.js';
import { normalizeUsername } from '../users/users.js';
import { accountMail } from './account-mail.js';

/** How long a password reset link works, seconds: 30 minutes (OWASP Forgot Password Cheat Sheet). */
export const PASSWORD_RESET_TTL = 30 * 60;

/** Where the mail's link leads (GET shows the form, POST sets the password). */
export const PASSWORD_RESET_PATH = '/password-reset';
export const PASSWORD_RESET_CONFIRM_PATH = '/password-reset/confirm';

/** What is typed on the form: a username or an e-mail address, at most this long (RFC 5321 §4.5.3.1.3). */
const MAX_TYPED_LENGTH = 254;
/** An authorization request carried through the link, to go back to after the reset; longer is dropped. */
const MAX_CONTINUATION_LENGTH = 4096;

/** What a password reset needs of the server: no request, no reply. */
export interface PasswordResetServices {
  readonly store: Store;
  readonly audit: AuditTrail;
  readonly mail: Outbox;
  readonly languages: Languages;
  readonly rateLimits: RateLimiter;
  readonly factors: FactorServices;
  readonly issuer: string;
  /** PASSWORD_RESET_REVOKES_GRANTS. */
  readonly revokesGrants: boolean;
}

/** What was typed, as the limits and the lookup take it: trimmed, NFC, lowercase; undefined when it cannot name an account. */
export function typedAccount(typed: string): string | undefined {
  const trimmed = normalizeUsername(typed.normalize('NFC'));
  // eslint-disable-next-line no-control-regex
  if (trimmed === '' || [...trimmed].length > MAX_TYPED_LENGTH || /[\u0000-\u001f\u007f-\u009f]/.test(trimmed))
    return undefined;
  return trimmed;
}

/**
 * Charges one request for a reset mail: per client address and per account asked for (what was
 * typed, whether an account has it or not, so the limit tells nothing of which exist). Whole
 * seconds to wait when refused, else 0.
 */
export async function chargePasswordResetRequest(
  rateLimits: RateLimiter,
  typed: string | undefined,
  address: string,
): Promise<number> {
  const charges: Charge[] = [['password_reset_address', addressKey(address)]];
  if (typed !== undefined) charges.push(['password_reset_account', usernameKey(typed)]);
  return rateLimits.consume(charges);
}

/** A request for reset mails, as the form gave it; the page has been answered already. */
export interface PasswordResetRequest {
  /** `typedAccount` of the form's field; undefined: nothing that names an account. */
  readonly typed: string | undefined;
  /** The authorization request the sign-in page was for (its handle), to go back to after the reset. */
  readonly continuation: string;
  /** The language the form was shown in: the mail's, unless the user chose one (its `locale` claim). */
  readonly locale: PageLocale;
  readonly address: string;
  readonly now: number;
}

/**
 * The accounts a typed value names: the user of that username, and the users whose e-mail address
 * it is; only those that can sign in and have an address to send to.
 */
async function accountsNamed(store: Store, typed: string): Promise<UserRecord[]> {
  const byName = await store.findUser(typed);
  const byEmail = typed.includes('@') ? await store.listUsersWithEmail(typed) : [];
  const users = new Map<string, UserRecord>();
  for (const user of [byName, ...byEmail])
    if (user && !user.disabledAt && typeof user.claims.email === 'string') users.set(user.subject, user);
  return [...users.values()];
}

/**
 * Sends a reset link to each account the request names (OWASP Forgot Password Cheat Sheet): a new
 * 256-bit secret per account, stored as its SHA-256 digest with the user's subject and address, for
 * PASSWORD_RESET_TTL, in the transaction that queues the mail in the outbox and audits
 * `password_reset_requested`. A request that names no account sends nothing and is audited as
 * `password_reset_refused`. Run after the page was answered, so the answer is the same, and as
 * fast, whichever accounts exist. Returns how many mails were queued.
 */
export async function mailPasswordResetLinks(
  services: PasswordResetServices,
  request: PasswordResetRequest,
): Promise<number> {
  const { store, audit, now } = { ...services, now: request.now };
  const users = request.typed === undefined ? [] : await accountsNamed(store, request.typed);
  if (users.length === 0) {
    await audit.record({
      event: 'password_reset_refused',
      at: now,
      address: request.address,
      reason: request.typed === undefined ? 'nothing that names an account' : 'no account with an address',
    });
    return 0;
  }
  for (const user of users) await mailOneLink(services, request, user);
  return users.length;
}

async function mailOneLink(
  services: PasswordResetServices,
  request: PasswordResetRequest,
  user: UserRecord,
): Promise<void> {
  const { issuer, languages, mail } = services;
  const email = user.claims.email as string;
  const secret = newOpaqueSecret();
  const continuation = request.continuation.length <= MAX_CONTINUATION_LENGTH ? request.continuation : '';
  const link: AccountLinkRecord = {
    id: digestOf(secret),
    purpose: 'password_reset',
    subject: user.subject,
    email,
    createdAt: request.now,
    expiresAt: request.now + PASSWORD_RESET_TTL,
    usedAt: null,
    data: continuation === '' ? {} : { request: continuation },
  };
  const locale = (user.claims.locale && matchLocale(user.claims.locale, SUPPORTED_LOCALES)) || request.locale;
  const href = `${issuer}${PASSWORD_RESET_CONFIRM_PATH}?${new URLSearchParams({ token: secret })}`;
  const message = accountMail(languages.text(locale), {
    kind: 'password_reset',
    to: email,
    userSubject: user.subject,
    subject: 'mail.reset.subject',
    before: [['mail.reset.lead', { username: user.username, minutes: PASSWORD_RESET_TTL / 60 }]],
    action: { label: 'mail.reset.action', href },
    after: [['mail.reset.ignore']],
    issuer,
  });
  await services.audit.transaction(async (tx, record) => {
    await tx.deleteExpiredAccountLinks(request.now);
    await tx.insertAccountLink(link);
    await mail.queueMail({ tx, audit: record }, message);
    await record({
      event: 'password_reset_requested',
      at: request.now,
      subject: user.subject,
      address: request.address,
    });
  });
}

/** What a user must pass besides the link before the new password is set. */
export type ResetSecondFactor = 'none' | 'code';

/** A link that works: its record, its user, and whether a code is asked. */
export interface OpenReset {
  readonly link: AccountLinkRecord;
  readonly user: UserRecord;
  readonly secondFactor: ResetSecondFactor;
}

/**
 * The reset a link's secret opens, or undefined when it does not work: not a secret this server
 * made, of another purpose, used, expired, or for a user gone, disabled or whose address changed
 * since it was sent. Reading it changes nothing (a mail scanner that follows the link uses nothing).
 */
export async function openPasswordReset(store: Store, secret: string, now: number): Promise<OpenReset | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return undefined;
  const link = await store.findAccountLink(digestOf(secret));
  if (!link || link.purpose !== 'password_reset' || link.usedAt !== null || link.expiresAt <= now) return undefined;
  const user = await store.findUserBySubject(link.subject);
  if (!user || user.disabledAt || user.claims.email !== link.email) return undefined;
  // A one-time code or a recovery code: what the reset page can ask. A user whose only second factor
  // is a passkey is asked it at the next sign-in, which a new password alone never passes.
  const hasCode =
    (await store.findSecondFactor(user.subject, 'otp')) !== undefined ||
    (await store.countRecoveryCodes(user.subject)) > 0;
  return { link, user, secondFactor: hasCode ? 'code' : 'none' };
}

/** The new password and code as the form gave them. */
export interface PasswordResetSubmission {
  readonly secret: string;
  readonly password: string;
  /** A code of the user's authenticator app, or one of its recovery codes; asked when the user has either. */
  readonly code: string;
  readonly address: string;
  readonly now: number;
}

/** What became of a submitted reset. */
export type PasswordResetOutcome =
  | { readonly kind: 'invalid_link' }
  | { readonly kind: 'password_refused'; readonly refusal: PasswordRefusal; readonly reset: OpenReset }
  | { readonly kind: 'code_refused'; readonly reset: OpenReset }
  | { readonly kind: 'rate_limited'; readonly retryAfter: number; readonly reset: OpenReset }
  | {
      readonly kind: 'done';
      readonly username: string;
      readonly grantsRevoked: number;
      /** The authorization request the reset was asked from, to sign in to again. */
      readonly continuation: string | undefined;
    };

/**
 * Sets a new password through a link: the link works (`openPasswordReset`), the password passes
 * the policy (users/password-policy.ts), and a user with a one-time code or recovery codes gives one
 * (a wrong one counts with the sign-in's failures of that user and address, and past their limit
 * none is checked, NIST SP 800-63B §5.2.2). Then, in one transaction: the link used (one conditional
 * update: of many uses at once exactly one wins), the password replaced, the address marked
 * verified (`email_verified`: the link reached it), the user's other reset
 * links ended, every browser session of the user ended, and, with PASSWORD_RESET_REVOKES_GRANTS,
 * every grant of the user revoked (their refresh and access tokens stop working); audited
 * `password_reset`.
 */
export async function completePasswordReset(
  services: PasswordResetServices,
  submission: PasswordResetSubmission,
): Promise<PasswordResetOutcome> {
  const { store, audit, now } = { ...services, now: submission.now };
  const reset = await openPasswordReset(store, submission.secret, now);
  if (!reset) return { kind: 'invalid_link' };
  const { user } = reset;
  const context = [user.username, user.claims.email ?? '', user.claims.name ?? ''];
  const refusal = await passwordRefusal(submission.password, context);
  if (refusal) return { kind: 'password_refused', refusal, reset };
  if (reset.secondFactor === 'code') {
    const failures: Charge[] = [
      ['login_failure_user', usernameKey(user.username)],
      ['login_failure_address', addressKey(submission.address)],
    ];
    const wait = await services.rateLimits.peek(failures);
    if (wait > 0) return { kind: 'rate_limited', retryAfter: wait, reset };
    if (!(await codePasses(services, user, submission))) {
      await services.rateLimits.consume(failures);
      await audit.record({
        event: 'password_reset_refused',
        at: now,
        subject: user.subject,
        address: submission.address,
        reason: 'wrong second factor code',
      });
      return { kind: 'code_refused', reset };
    }
  }
  const passwordHash = await hashPassword(submission.password);
  const done = await audit.transaction(async (tx, record) => {
    if (!(await tx.useAccountLink(reset.link.id, 'password_reset', now))) return undefined;
    await tx.updateUserPassword(user.username, passwordHash, now);
    // The link reached the account's address: that proves the address as a verification mail would.
    const current = await tx.findUserBySubject(user.subject);
    if (current && current.claims.email === reset.link.email && current.claims.email_verified !== true)
      await tx.updateUserClaims(current.username, { ...current.claims, email_verified: true }, now);
    await tx.endAccountLinks(user.subject, 'password_reset', now);
    const sessions = await tx.deleteBrowserSessionsOf(user.username);
    const grantsRevoked = services.revokesGrants ? await tx.revokeGrantsOf(user.subject, 'password_reset', now) : 0;
    // One event for the user's grants (grant_id null): the revocation is one statement.
    if (grantsRevoked > 0)
      await record({ event: 'grant_revoked', at: now, subject: user.subject, reason: 'password_reset' });
    await record({
      event: 'password_reset',
      at: now,
      subject: user.subject,
      address: submission.address,
      reason: `signed out of ${sessions} browser sessions, ${grantsRevoked} grants revoked`,
    });
    return grantsRevoked;
  });
  if (done === undefined) return { kind: 'invalid_link' };
  return { kind: 'done', username: user.username, grantsRevoked: done, continuation: reset.link.data.request };
}

/** A six-digit code is the authenticator app's (RFC 6238); anything else is tried as a recovery code. */
async function codePasses(
  { store, audit, factors }: PasswordResetServices,
  user: UserRecord,
  { code, now, address }: PasswordResetSubmission,
): Promise<boolean> {
  const typed = code.trim();
  const passed = { at: now, subject: user.subject, address, event: 'sign_in_step_passed' as const };
  if (/^\d{6}$/.test(typed))
    return (
      (await checkOneTimeCode(audit, store, factors, {
        subject: user.subject,
        code: typed,
        now,
        audited: { ...passed, reason: 'otp: password reset' },
      })) === 'ok'
    );
  return useRecoveryCode(audit, {
    subject: user.subject,
    typed,
    now,
    audited: (left) => ({ ...passed, reason: `recovery_code: password reset, ${left} left` }),
  });
}
