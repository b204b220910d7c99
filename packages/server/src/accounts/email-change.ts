import { usernameKey } from '../abuse/rate-limiter.js';
import type { PageLocale } from '../i18n/index.js';
import type { MailMessage } from '../mail/index.js';
import type { UserRecord } from '../store/identity-repository.js';
import { accountMail } from './account-mail.js';
import {
  EMAIL_VERIFICATION_TTL,
  newCodedLink,
  userLocale,
  type EmailVerificationServices,
} from './email-verification.js';
import { warnOwner } from './owner-warning.js';
import { PASSWORD_RESET_PATH } from './password-reset.js';
import { checkedEmail } from './sign-up.js';

/** The account page's form that asks for a new address (a change to how one signs in: fresh sign-in). */
export const EMAIL_CHANGE_PATH = '/account/email';

/** What the form's answer can be; the same for an address another account has and a free one. */
export type EmailChangeCheck =
  | { readonly kind: 'accepted'; readonly email: string }
  | { readonly kind: 'address_refused' }
  | { readonly kind: 'rate_limited'; readonly retryAfter: number };

/**
 * The form's checks, before its answer: the address as sign-up checks one (sign-up.ts: no line
 * break, no control character, no display name, at most 254 characters), then EMAIL_CHANGE_USER
 * (per account, whether another account has the address or not, so a refusal tells nothing).
 */
export async function checkEmailChange(
  services: Pick<EmailVerificationServices, 'rateLimits'>,
  user: UserRecord,
  typed: string,
): Promise<EmailChangeCheck> {
  const email = checkedEmail(typed);
  if (email === undefined) return { kind: 'address_refused' };
  const wait = await services.rateLimits.consume([['email_change_user', usernameKey(user.subject)]]);
  if (wait > 0) return { kind: 'rate_limited', retryAfter: wait };
  return { kind: 'accepted', email };
}

export interface EmailChangeRequest {
  readonly user: UserRecord;
  /** The new address, as checkEmailChange accepted it. */
  readonly email: string;
  readonly locale: PageLocale;
  readonly address: string;
  readonly now: number;
}

/**
 * The work after the answer (docs/accounts.md, "Changing the address"). The address stays as it is;
 * the old address, when there is one, is told that a change to the new one was asked for. Then:
 *
 * - a new address no other account has gets a link and a six-digit code (email-verification.ts, purpose
 *   `email_change`, 24 hours, once, digests) that set it, verified, when used while the account still
 *   has the old one; a newer change ends the one before;
 * - an address another account has changes nothing: that account's owner is told that someone asked
 *   to use its address for another account (never which account, nor its address), at most once an
 *   hour per address (owner-warning.ts).
 *
 * Audited `email_change_requested` (reason `address already registered` for the second).
 */
export async function completeEmailChange(services: EmailVerificationServices, request: EmailChangeRequest) {
  const { store, audit, mail } = services;
  const { user, email, now } = request;
  const owners = (await store.listUsersWithEmail(email)).filter((u) => u.subject !== user.subject);
  const old = user.claims.email;
  const notice = old !== undefined && old !== email ? noticeToOld(services, user, old, request) : undefined;
  const coded =
    owners.length === 0
      ? newCodedLink(services.issuer, user, 'email_change', email, now, { from: old ?? '' })
      : undefined;
  await audit.transaction(async (tx, record) => {
    await tx.endAccountLinks(user.subject, 'email_change', now);
    if (notice) await mail.queueMail({ tx, audit: record }, notice);
    if (coded) {
      await tx.insertAccountLink(coded.link);
      await mail.queueMail({ tx, audit: record }, toNewAddress(services, user, coded, request));
    }
    await record({
      event: 'email_change_requested',
      at: now,
      subject: user.subject,
      address: request.address,
      ...(coded ? {} : { reason: 'address already registered' }),
    });
  });
  for (const owner of owners) if (!owner.disabledAt) await warnOwner(services, toOwner(services, owner, request));
}

/** To the new address: its link and code, naming the account it becomes the address of. */
function toNewAddress(
  { issuer, languages }: EmailVerificationServices,
  user: UserRecord,
  coded: { readonly href: string; readonly code: string },
  request: EmailChangeRequest,
): MailMessage {
  return accountMail(languages.text(userLocale(user, request.locale)), {
    kind: 'email_change',
    to: request.email,
    userSubject: user.subject,
    subject: 'mail.email-change.subject',
    before: [['mail.email-change.lead', { username: user.username }]],
    action: { label: 'mail.verify.action', href: coded.href },
    after: [
      ['mail.verify.code', { code: coded.code, hours: EMAIL_VERIFICATION_TTL / 3600 }],
      ['mail.email-change.ignore'],
    ],
    issuer,
  });
}

/** To the old address: the change asked for, and what to do when it was not the owner. */
function noticeToOld(
  { issuer, languages }: EmailVerificationServices,
  user: UserRecord,
  old: string,
  request: EmailChangeRequest,
): MailMessage {
  return accountMail(languages.text(userLocale(user, request.locale)), {
    kind: 'email_change_notice',
    to: old,
    userSubject: user.subject,
    subject: 'mail.email-change-notice.subject',
    before: [['mail.email-change-notice.lead', { username: user.username, email: request.email }]],
    action: { label: 'mail.email-change-notice.action', href: `${issuer}/account` },
    after: [['mail.email-change-notice.ignore']],
    issuer,
  });
}

/** To another account's owner whose address was typed: nothing of the account that typed it. */
function toOwner(
  { issuer, languages }: EmailVerificationServices,
  owner: UserRecord,
  request: EmailChangeRequest,
): MailMessage {
  return accountMail(languages.text(userLocale(owner, request.locale)), {
    kind: 'email_change_attempted',
    to: owner.claims.email as string,
    userSubject: owner.subject,
    subject: 'mail.email-change-taken.subject',
    before: [['mail.email-change-taken.lead', { username: owner.username }]],
    action: { label: 'mail.sign-up-taken.action', href: `${issuer}${PASSWORD_RESET_PATH}` },
    after: [['mail.email-change-taken.ignore']],
    issuer,
  });
}
