import { domainToASCII, domainToUnicode } from 'node:url';
import { ProblemError } from '@gatehouse/contract';
import addressparser from 'nodemailer/lib/addressparser';

/**
 * A message as a feature hands it to the outbox (`Outbox.queueMail`): already rendered, in the
 * recipient's locale. Nothing here is trusted: every part is checked before anything is stored,
 * since a name or an address typed by a person may reach the subject line or the recipient.
 */
export interface MailMessage {
  /** One bare address, `name@domain`: no display name, no list. */
  readonly to: string;
  /** The subject line, one line. */
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** BCP 47, e.g. `en` or `pt-BR`: the language the message was rendered in. */
  readonly locale: string;
  /** What the message is for, lowercase with underscores: `test`, `password_reset`, … */
  readonly kind: string;
  /** The links the message carries (single-use secrets): the embedded transport prints them. */
  readonly links?: readonly string[];
  /** The user (`users.subject`) the message is about, when there is one: the audit events name it. */
  readonly userSubject?: string;
}

/** RFC 5321 §4.5.3.1.3: a path is at most 256 octets, the angle brackets included. */
export const MAX_ADDRESS_LENGTH = 254;
/** RFC 5321 §4.5.3.1.1. */
const MAX_LOCAL_PART_LENGTH = 64;
/** RFC 5322 §2.1.1: a line is at most 998 characters. */
const MAX_SUBJECT_LENGTH = 998;
/** A body larger than this is no notification: a bug or an attack. */
const MAX_BODY_LENGTH = 256 * 1024;

/**
 * C0 and C1 control characters and the Unicode line and paragraph separators: a CR or LF in an
 * address or the subject line would end the header and start another (header injection).
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** The message as the outbox stores it: every part checked, the locale canonical. */
export function checkedMessage(message: MailMessage): MailMessage {
  const to = checkedAddress(message.to);
  if (typeof message.subject !== 'string' || message.subject.trim() === '')
    throw invalidMessage('the subject line is empty');
  if (CONTROL.test(message.subject)) throw invalidMessage('the subject line holds a line break or a control character');
  if (message.subject.length > MAX_SUBJECT_LENGTH)
    throw invalidMessage(`the subject line is over ${MAX_SUBJECT_LENGTH} characters`);
  for (const part of ['text', 'html'] as const) {
    const body = message[part];
    if (typeof body !== 'string' || body.trim() === '') throw invalidMessage(`the ${part} body is empty`);
    if (body.length > MAX_BODY_LENGTH) throw invalidMessage(`the ${part} body is over ${MAX_BODY_LENGTH} characters`);
  }
  if (typeof message.kind !== 'string' || !/^[a-z][a-z0-9_]{0,63}$/.test(message.kind))
    throw invalidMessage('the kind is not lowercase letters, digits and underscores');
  for (const link of message.links ?? [])
    if (typeof link !== 'string' || CONTROL.test(link) || !/^https?:\/\//.test(link) || !URL.canParse(link))
      throw invalidMessage('a link is not an absolute http(s) URL');
  if (message.userSubject !== undefined && (typeof message.userSubject !== 'string' || message.userSubject === ''))
    throw invalidMessage('the user subject is empty');
  return { ...message, to, locale: canonicalLocale(message.locale) };
}

/**
 * `address` when it is one bare address mail can be sent to, else `invalid_email_address`. The
 * address is read by nodemailer's parser, the one that composes the message, and must come back
 * unchanged: a display name, a group, a comment or a second address makes it something else. The
 * domain must be a host name IDNA can encode (node:url's, as the WHATWG URL parser uses).
 */
export function checkedAddress(address: unknown): string {
  if (typeof address !== 'string' || address === '') throw invalidAddress('the address is empty');
  if (CONTROL.test(address)) throw invalidAddress('the address holds a line break or a control character');
  if (address.length > MAX_ADDRESS_LENGTH) throw invalidAddress(`the address is over ${MAX_ADDRESS_LENGTH} characters`);
  const parsed = addressparser(address);
  const [only] = parsed;
  if (parsed.length !== 1 || only === undefined || only.group !== undefined || only.name !== '')
    throw invalidAddress('the address is not one bare address');
  if (only.address !== address) throw invalidAddress('the address is not one bare address');
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (at <= 0 || local.length > MAX_LOCAL_PART_LENGTH || /["@\s<>()[\]\\,;:]/.test(local))
    throw invalidAddress('the part before the @ is not a plain name');
  if (!isHostName(domain)) throw invalidAddress('the domain is not a host name');
  return address;
}

/** A DNS name (not an address literal, not an IP address): labels of 1 to 63 characters, IDNA-encodable. */
function isHostName(domain: string): boolean {
  const ascii = domainToASCII(domain);
  if (ascii === '' || domainToUnicode(ascii) !== domain.toLowerCase()) return false;
  const labels = ascii.split('.');
  return labels.every((label) => label.length >= 1 && label.length <= 63) && !/^\d+$/.test(labels.at(-1) as string);
}

function canonicalLocale(locale: unknown): string {
  try {
    const [canonical] = typeof locale === 'string' && locale !== '' ? Intl.getCanonicalLocales(locale) : [];
    if (canonical !== undefined) return canonical;
  } catch {
    // A RangeError: not a BCP 47 tag.
  }
  throw invalidMessage('the locale is not a BCP 47 language tag');
}

function invalidAddress(why: string): ProblemError {
  return new ProblemError('invalid_email_address', `The e-mail address cannot receive mail: ${why}.`);
}

function invalidMessage(why: string): ProblemError {
  return new ProblemError('invalid_email_message', `The message was not queued: ${why}.`);
}
