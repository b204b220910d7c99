import { addressKey, usernameKey, type Charge, type RateLimiter } from '../abuse/rate-limiter.js';
import type { SignUpSettings } from '../context.js';
import { matchLocale, SUPPORTED_LOCALES, type PageLocale } from '../i18n/index.js';
import { newId } from '../primitives/ids.js';
import type { UserRecord } from '../store/identity-repository.js';
import type { PasskeyRecord } from '../store/passkey-repository.js';
import { hashPassword } from '../users/passwords.js';
import { passwordRefusal, type PasswordRefusal } from '../users/password-policy.js';
import { accountMail } from './account-mail.js';
import { sendVerificationMail, type EmailVerificationServices } from './email-verification.js';
import { NO_PASSWORD } from './new-account-passkey.js';
import { warnOwner } from './owner-warning.js';
import { PASSWORD_RESET_PATH } from './password-reset.js';

/** The sign-up form (GET) and its answer (POST). */
export const SIGN_UP_PATH = '/sign-up';

/** RFC 5321 §4.5.3.1.3: a path is at most 256 octets, so an address at most 254 characters. */
const MAX_EMAIL_LENGTH = 254;
/** A display name, as typed; longer is refused rather than cut. */
const MAX_NAME_LENGTH = 128;
/** An authorization request carried through the verification mail; longer is dropped. */
const MAX_CONTINUATION_LENGTH = 4096;
/** The username rule of users/users.ts: 1 to 64 of a-z 0-9 . _ @ -, starting with a letter or digit. */
const USERNAME_LENGTH = 64;

/**
 * How a person came to the form: `invited`, through an invitation link that works. Invitations make
 * their accounts on their own page (invitation.ts), so the form sees nobody invited today.
 */
export interface SignUpArrival {
  readonly invited: boolean;
}

/**
 * Whether the form may create an account for someone who arrived so: SIGN_UP=open lets anyone,
 * `invite` only a person who came through an invitation, `off` nobody. The one place that decides.
 */
export function signUpAllowed(settings: SignUpSettings, arrival: SignUpArrival): boolean {
  if (settings.mode === 'open') return true;
  return settings.mode === 'invite' && arrival.invited;
}

/** The form as typed; `password` undefined for a sign-up with a passkey. */
export interface SignUpForm {
  readonly email: string;
  readonly name: string;
  readonly password: string | undefined;
}

/** A form that passed every check: the address lowercased, the name trimmed. */
export interface CheckedSignUp {
  readonly email: string;
  readonly domain: string;
  readonly name: string;
}

/** What the new account signs in with: a password (hashed after the answer) or a passkey (verified before it). */
export type SignUpCredential =
  | { readonly kind: 'password'; readonly password: string }
  | { readonly kind: 'passkey'; readonly passkey: PasskeyRecord };

export type SignUpRefusal =
  | { readonly kind: 'address' }
  | { readonly kind: 'domain' }
  | { readonly kind: 'name' }
  | { readonly kind: 'password'; readonly refusal: PasswordRefusal };

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * An address a mail can go to and that no mail header can be made of: one `@`, a local part without
 * spaces, quotes, angle brackets, parentheses, commas, semicolons, colons or backslashes, and a
 * domain of DNS labels with a dot (RFC 5321 §4.1.2, the dot-atom form; quoted local parts refused).
 */
const ADDRESS = /^[^\s@"<>()[\]\\,;:]{1,64}@([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The address as stored and compared: trimmed, NFC, lowercase. */
export function typedEmail(typed: string): string {
  return typed.normalize('NFC').trim().toLowerCase();
}

/**
 * An address as typed, trimmed and lowercased, when a mail can go to it and no mail header can be
 * made of it (ADDRESS, no control character, at most 254 characters); undefined otherwise. The one
 * check of an address a person types (a sign-up's, a new address on the account page).
 */
export function checkedEmail(typed: string): string | undefined {
  const email = typedEmail(typed);
  if ([...email].length > MAX_EMAIL_LENGTH || CONTROL.test(email) || !ADDRESS.test(email)) return undefined;
  return email;
}

/**
 * Checks the form before anything else, the same whether an account has the address or not: the
 * address (its shape, its domain among SIGN_UP_DOMAINS), the name, and the password (NIST SP
 * 800-63B §3.1.1.2 through users/password-policy.ts, the address and the name as the account's own words).
 */
export async function checkSignUp(settings: SignUpSettings, form: SignUpForm): Promise<CheckedSignUp | SignUpRefusal> {
  const email = checkedEmail(form.email);
  if (email === undefined) return { kind: 'address' };
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (settings.domains.length > 0 && !settings.domains.includes(domain)) return { kind: 'domain' };
  const name = form.name.normalize('NFC').trim();
  if (name === '' || [...name].length > MAX_NAME_LENGTH || CONTROL.test(name)) return { kind: 'name' };
  const refusal = form.password === undefined ? undefined : await passwordRefusal(form.password, [email, name]);
  if (refusal) return { kind: 'password', refusal };
  return { email, domain, name };
}

/**
 * Charges one sign-up: per client address and per e-mail domain (an account with the address or
 * not, so a refusal tells nothing). Whole seconds to wait when refused, else 0.
 */
export async function chargeSignUp(rateLimits: RateLimiter, domain: string, address: string): Promise<number> {
  const charges: Charge[] = [
    ['sign_up_address', addressKey(address)],
    ['sign_up_domain', usernameKey(domain)],
  ];
  return rateLimits.consume(charges);
}

/** A sign-up whose page has been answered: what happens next depends on whether the address is known. */
export interface SignUpRequest {
  readonly form: CheckedSignUp;
  readonly credential: SignUpCredential;
  /** The authorization request the sign-in page was for (its handle); '' for none. */
  readonly continuation: string;
  readonly locale: PageLocale;
  readonly address: string;
  readonly now: number;
}

export type SignUpOutcome = 'created' | 'address_taken';

/**
 * The work after the answer. An address no account has: the account is created (username from the
 * address, `email_verified: false`, the name, the page's language as `locale`), audited `signed_up`,
 * and sent the verification mail (email-verification.ts), which carries the authorization request
 * on. An address an account has already: nothing is created; each enabled owner is mailed that
 * someone tried to sign up with it (with the way to a password reset), audited `sign_up_refused`.
 * The answer was the same for both, and as fast: the password is hashed here, after it, on both ways.
 * A sign-up with a passkey makes the account with it and no password (NO_PASSWORD); for an address
 * that has an account the passkey is dropped, never attached to that account.
 */
export async function completeSignUp(
  services: EmailVerificationServices,
  request: SignUpRequest,
): Promise<SignUpOutcome> {
  const { store, audit } = services;
  const { form, now } = request;
  // Hashed first, whichever way it goes: both ways cost the server the same, and begin the same way.
  const { credential } = request;
  const passwordHash = credential.kind === 'password' ? await hashPassword(credential.password) : NO_PASSWORD;
  const owners = await store.listUsersWithEmail(form.email);
  if (owners.length === 0) {
    const user = await createAccount(services, request, passwordHash);
    if (user !== undefined) {
      const continuation = request.continuation.length <= MAX_CONTINUATION_LENGTH ? request.continuation : '';
      await sendVerificationMail(services, user, {
        locale: request.locale,
        address: request.address,
        now,
        continuation,
      });
      return 'created';
    }
  }
  // Taken, or taken meanwhile by a sign-up of the same address at once.
  let warned = false;
  for (const owner of await store.listUsersWithEmail(form.email))
    if (!owner.disabledAt) warned = (await mailOwner(services, request, owner)) || warned;
  await audit.record({
    event: 'sign_up_refused',
    at: now,
    subject: owners[0]?.subject ?? null,
    address: request.address,
    reason: warned ? 'address already registered' : 'address already registered, owner warned within the hour',
  });
  return 'address_taken';
}

/** The username an address gives: the address itself when it is one, else its characters that are. */
function usernameOf(email: string): string {
  const plain = email.replace(/[^a-z0-9._@-]/g, '-').replace(/^[^a-z0-9]+/, '');
  return plain.slice(0, USERNAME_LENGTH) || 'user';
}

/**
 * Stores the account; undefined when the address was registered meanwhile. The username is the
 * address's; when another account has it (a username chosen by an operator), a short random suffix
 * makes it unique. The mail names the username the person signs in with. A passkey is stored with
 * the account, for the subject its options were made for, in the same transaction.
 */
async function createAccount(
  services: EmailVerificationServices,
  request: SignUpRequest,
  passwordHash: string,
): Promise<UserRecord | undefined> {
  const { form, now } = request;
  const base = usernameOf(form.email);
  const locale = matchLocale(request.locale, SUPPORTED_LOCALES);
  const claims = { email: form.email, email_verified: false, name: form.name, ...(locale ? { locale } : {}) };
  const passkey = request.credential.kind === 'passkey' ? request.credential.passkey : undefined;
  const subject = passkey?.subject ?? newId();
  for (const username of [base, `${base.slice(0, USERNAME_LENGTH - 7)}-${newId().slice(0, 6).toLowerCase()}`]) {
    const user: UserRecord = { username, passwordHash, createdAt: now, updatedAt: now, subject, claims };
    const created = await services.audit.transaction(async (tx, record) => {
      // One statement per row decides: an address signed up twice at once gets one account.
      if ((await tx.listUsersWithEmail(form.email)).length > 0) return 'taken';
      if (!(await tx.insertUserIfAbsent(user))) return 'username';
      await record({ event: 'signed_up', at: now, subject: user.subject, address: request.address });
      if (passkey) {
        await tx.insertPasskey(passkey);
        const kind = passkey.backupEligible ? 'synced' : 'device_bound';
        await record({ event: 'passkey_enrolled', at: now, subject, reason: kind, address: request.address });
      }
      return 'created';
    });
    if (created === 'created') return user;
    if (created === 'taken') return undefined;
  }
  return undefined;
}

/**
 * "Someone tried to sign up with your address": to the owner, in its language, with the way to a
 * reset; at most one an hour per address (owner-warning.ts). False when the limit held it back.
 */
async function mailOwner(
  services: EmailVerificationServices,
  request: SignUpRequest,
  owner: UserRecord,
): Promise<boolean> {
  const { issuer, languages } = services;
  const locale = (owner.claims.locale && matchLocale(owner.claims.locale, SUPPORTED_LOCALES)) || request.locale;
  const message = accountMail(languages.text(locale), {
    kind: 'sign_up_attempted',
    to: owner.claims.email as string,
    userSubject: owner.subject,
    subject: 'mail.sign-up-taken.subject',
    before: [['mail.sign-up-taken.lead', { username: owner.username }]],
    action: { label: 'mail.sign-up-taken.action', href: `${issuer}${PASSWORD_RESET_PATH}` },
    after: [['mail.sign-up-taken.ignore']],
    issuer,
  });
  return warnOwner(services, message);
}
