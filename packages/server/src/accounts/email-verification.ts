import { randomInt } from 'node:crypto';
import { usernameKey, type RateLimiter } from '../abuse/rate-limiter.js';
import type { AuditTrail } from '../audit/audit.js';
import { matchLocale, SUPPORTED_LOCALES, type Languages, type PageLocale } from '../i18n/index.js';
import type { Outbox } from '../mail/index.js';
import { constantTimeEqual } from '../primitives/constant-time.js';
import { newOpaqueSecret } from '../primitives/random.js';
import { digestOf } from '../primitives/secrets.js';
import type { AccountLinkRecord } from '../store/account-link-repository.js';
import type { UserRecord } from '../store/identity-repository.js';
import type { Store } from '../store/store.js';
import type { EmailCodes } from '../authorize/sign-in/steps/index.js';
import { accountMail } from './account-mail.js';

/** How long a verification mail works, seconds: 24 hours. */
export const EMAIL_VERIFICATION_TTL = 24 * 60 * 60;

/** The mail's link (GET shows a button, POST verifies) and the code form of a signed-in user. */
export const EMAIL_VERIFICATION_PATH = '/email-verification';

export interface EmailVerificationServices {
  readonly store: Store;
  readonly audit: AuditTrail;
  readonly mail: Outbox;
  readonly languages: Languages;
  readonly rateLimits: RateLimiter;
  readonly issuer: string;
}

/** Whether the user has an address that is not verified yet: what a verification is for. */
export function needsVerification(user: UserRecord): boolean {
  return typeof user.claims.email === 'string' && user.claims.email_verified !== true;
}

/** The code's digest, bound to its user (a code of one user's mail is nothing for another). */
const codeDigest = (subject: string, code: string): string => digestOf(`email_verification:${subject}:${code}`);

/** Six decimal digits, uniformly drawn. */
function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export type VerificationMailOutcome =
  | { readonly kind: 'sent' }
  | { readonly kind: 'nothing_to_verify' }
  | { readonly kind: 'rate_limited'; readonly retryAfter: number };

/**
 * What a mailed link and code verify: `email_verification`, the address the user has; `email_change`,
 * a new address (`email`) that replaces the one the user had when it was asked for (`from`).
 */
export type CodedPurpose = 'email_verification' | 'email_change';

/** A link and its six-digit code, made for one address; the store keeps only their digests. */
export interface CodedLink {
  readonly link: AccountLinkRecord;
  /** The link's URL, with its secret: only in the mail. */
  readonly href: string;
  readonly code: string;
}

/**
 * A new link and code to `email` for `purpose`, both good once, together (using one ends the other),
 * for 24 hours; stored as digests with the address, the code's bound to the user.
 */
export function newCodedLink(
  issuer: string,
  user: UserRecord,
  purpose: CodedPurpose,
  email: string,
  now: number,
  data: Readonly<Record<string, string>> = {},
): CodedLink {
  const secret = newOpaqueSecret();
  const code = newCode();
  const link: AccountLinkRecord = {
    id: digestOf(secret),
    purpose,
    subject: user.subject,
    email,
    createdAt: now,
    expiresAt: now + EMAIL_VERIFICATION_TTL,
    usedAt: null,
    data: { code: codeDigest(user.subject, code), ...data },
  };
  return { link, href: `${issuer}${EMAIL_VERIFICATION_PATH}?${new URLSearchParams({ token: secret })}`, code };
}

/** The language of a mail to `user`: its own choice, else the page's. */
export function userLocale(user: UserRecord, fallback: PageLocale): PageLocale {
  return (user.claims.locale && matchLocale(user.claims.locale, SUPPORTED_LOCALES)) || fallback;
}

/**
 * Mails the user a link and a six-digit code that verify its address (newCodedLink); a new mail ends
 * the one before. Queued with its link row and audited (`email_verification_sent`) in one
 * transaction. At most EMAIL_VERIFICATION_USER mails an hour per account, so that nobody floods its
 * mailbox.
 */
export async function sendVerificationMail(
  services: EmailVerificationServices,
  user: UserRecord,
  request: {
    readonly locale: PageLocale;
    readonly address: string;
    readonly now: number;
    /** The authorization request to go on with once verified (a sign-up's, its handle); none from the account page. */
    readonly continuation?: string;
  },
): Promise<VerificationMailOutcome> {
  if (!needsVerification(user)) return { kind: 'nothing_to_verify' };
  const wait = await services.rateLimits.consume([['email_verification_user', usernameKey(user.subject)]]);
  if (wait > 0) return { kind: 'rate_limited', retryAfter: wait };
  const { issuer, languages, mail } = services;
  const email = user.claims.email as string;
  const continuation: Record<string, string> = request.continuation ? { request: request.continuation } : {};
  const { link, href, code } = newCodedLink(issuer, user, 'email_verification', email, request.now, continuation);
  const message = accountMail(languages.text(userLocale(user, request.locale)), {
    kind: 'email_verification',
    to: email,
    userSubject: user.subject,
    subject: 'mail.verify.subject',
    before: [['mail.verify.lead', { username: user.username }]],
    action: { label: 'mail.verify.action', href },
    after: [['mail.verify.code', { code, hours: EMAIL_VERIFICATION_TTL / 3600 }], ['mail.verify.ignore']],
    issuer,
  });
  await services.audit.transaction(async (tx, record) => {
    await tx.endAccountLinks(user.subject, 'email_verification', request.now);
    await tx.insertAccountLink(link);
    await mail.queueMail({ tx, audit: record }, message);
    await record({
      event: 'email_verification_sent',
      at: request.now,
      subject: user.subject,
      address: request.address,
    });
  });
  return { kind: 'sent' };
}

/**
 * Whether `user` still has the address a link was made against: the verified address itself, or,
 * for a change, the address it had when the change was asked for (a later change ends the link).
 */
function stillFits(link: AccountLinkRecord, user: UserRecord): boolean {
  if (link.purpose === 'email_change') return (user.claims.email ?? '') === (link.data.from ?? '');
  return user.claims.email === link.email;
}

const isCoded = (purpose: string): purpose is CodedPurpose =>
  purpose === 'email_verification' || purpose === 'email_change';

/** The verification a link's secret opens, or undefined: unknown, used, expired, or the address changed since. */
export async function openVerification(
  store: Store,
  secret: string,
  now: number,
): Promise<{ readonly link: AccountLinkRecord; readonly user: UserRecord } | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return undefined;
  const link = await store.findAccountLink(digestOf(secret));
  if (!link || !isCoded(link.purpose) || link.usedAt !== null || link.expiresAt <= now) return undefined;
  const user = await store.findUserBySubject(link.subject);
  if (!user || user.disabledAt || !stillFits(link, user)) return undefined;
  return { link, user };
}

/**
 * Verifies through `link`, in one transaction: the link used (one conditional update: of many uses
 * at once exactly one wins), then `email_verified: true` set on the user, audited `email_verified`;
 * for a change, the new address set too, unless another account has taken it meanwhile, audited
 * `email_changed` (with the verification's reason). False when the link no longer works.
 */
async function verifyThrough(
  services: EmailVerificationServices,
  link: AccountLinkRecord,
  how: string,
  address: string,
  now: number,
): Promise<boolean> {
  const purpose = link.purpose as CodedPurpose;
  try {
    return await services.audit.transaction(async (tx, record) => {
      if (!(await tx.useAccountLink(link.id, purpose, now))) return false;
      const user = await tx.findUserBySubject(link.subject);
      if (!user || !stillFits(link, user)) throw new LinkNoLongerFits();
      if (purpose === 'email_change') {
        // Thrown, not returned: the link stays unused while another account holds the address.
        if ((await tx.listUsersWithEmail(link.email)).some((u) => u.subject !== user.subject))
          throw new LinkNoLongerFits();
        await tx.endAccountLinks(user.subject, 'email_verification', now);
      }
      const claims = { ...user.claims, email: link.email, email_verified: true };
      await tx.updateUserClaims(user.username, claims, now);
      if (purpose === 'email_change')
        await record({ event: 'email_changed', at: now, subject: user.subject, address, reason: how });
      await record({ event: 'email_verified', at: now, subject: user.subject, address, reason: how });
      return true;
    });
  } catch (error) {
    if (error instanceof LinkNoLongerFits) return false;
    throw error;
  }
}

/** Ends a verification's transaction without a change. */
class LinkNoLongerFits extends Error {}

/** Verifies an address by the mail's link (its secret), as POST /email-verification does. */
export async function verifyByLink(
  services: EmailVerificationServices,
  secret: string,
  address: string,
  now: number,
): Promise<boolean> {
  const opened = await openVerification(services.store, secret, now);
  return opened !== undefined && (await verifyThrough(services, opened.link, 'link', address, now));
}

export type CodeVerification =
  | { readonly kind: 'verified'; readonly purpose: CodedPurpose }
  | { readonly kind: 'wrong_code' }
  | { readonly kind: 'rate_limited'; readonly retryAfter: number };

/**
 * Verifies the signed-in user's address by the mail's six-digit code: the newest open mail's of each
 * of `purposes`, compared by digest in constant time. A wrong code counts against
 * EMAIL_VERIFICATION_FAILURE_USER, and past it no code is checked (a million codes get ten guesses
 * an hour, not more; NIST SP 800-63B §5.2.2).
 */
export async function verifyByCode(
  services: EmailVerificationServices,
  user: UserRecord,
  typed: string,
  address: string,
  now: number,
  purposes: readonly CodedPurpose[] = ['email_verification', 'email_change'],
): Promise<CodeVerification> {
  const failures = [['email_verification_failure_user', usernameKey(user.subject)]] as const;
  const wait = await services.rateLimits.peek(failures);
  if (wait > 0) return { kind: 'rate_limited', retryAfter: wait };
  const code = typed.trim();
  for (const purpose of purposes) {
    const link = await services.store.findOpenAccountLink(user.subject, purpose, now);
    const matches =
      link !== undefined &&
      /^\d{6}$/.test(code) &&
      constantTimeEqual(codeDigest(user.subject, code), link.data.code ?? '') &&
      stillFits(link, user);
    if (matches && (await verifyThrough(services, link, 'code', address, now))) return { kind: 'verified', purpose };
  }
  await services.rateLimits.consume(failures);
  await services.audit.record({
    event: 'email_verification_refused',
    at: now,
    subject: user.subject,
    address,
    reason: 'wrong code',
  });
  return { kind: 'wrong_code' };
}

/** The mailed code as the sign-in's e-mail verification step uses it (EMAIL_VERIFICATION=required). */
export function emailCodesOf(services: EmailVerificationServices): EmailCodes {
  return {
    send: (user, request) => sendVerificationMail(services, user, request),
    // The sign-in's step verifies the address the user has; a change is the account page's.
    check: (user, code, address, now) => verifyByCode(services, user, code, address, now, ['email_verification']),
  };
}
