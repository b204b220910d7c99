import type { FastifyReply } from 'fastify';
import type { AuditTrail } from '../audit/audit.js';
import { passkeyScript, passkeyStatus } from '../authorize/passkey-page.js';
import { escapeHtml, type PageView } from '../html/layout.js';
import { sendPageUnder } from '../html/responses.js';
import type { MessageId } from '../i18n/index.js';
import type { PasskeyRepository } from '../store/passkey-repository.js';
import {
  registrationOptions,
  relyingPartyOf,
  type EnrolmentPurpose,
  type EnrolmentRefusal,
  type PasskeyOwner,
} from '../webauthn/index.js';

/**
 * A passkey instead of a password for an account being made (an invitation's, a sign-up's): the
 * creation options its page carries, the page sent with the passkey's script allowed, the form the
 * script reveals, and the audit of a passkey that did not verify. Verifying it is webauthn/'s
 * `verifyEnrolment`; storing it, the transaction that makes the account.
 */

/** The password hash of an account made with a passkey: not a scrypt hash, so no password matches it. */
export const NO_PASSWORD = 'passkey$no-password';

/** Where a new account's passkey is asked for: the ceremony's owner and what its challenge is kept for. */
export interface NewAccountPasskey {
  readonly store: PasskeyRepository;
  readonly issuer: string;
  readonly owner: PasskeyOwner;
  readonly sessionId: string;
  readonly now: number;
  readonly purpose: EnrolmentPurpose;
}

/**
 * The creation options (JSON, WebAuthn §5.4) of the page's passkey, their challenge kept for this
 * browser session; undefined where the issuer can have no passkeys (an IP address, relying-party.ts).
 */
export async function newAccountPasskeyOptions(asked: NewAccountPasskey): Promise<string | undefined> {
  const rp = relyingPartyOf(asked.issuer);
  if (rp === undefined) return undefined;
  const options = await registrationOptions(asked.store, rp, asked.owner, asked.sessionId, asked.now, asked.purpose);
  return JSON.stringify(options);
}

/** Sends a new account's form; its CSP allows the passkey's script (an asset of this server) when it offers one. */
export function sendNewAccountPage(
  reply: FastifyReply,
  status: number,
  html: string,
  passkeyOptions: string | undefined,
): FastifyReply {
  const scripts = passkeyOptions === undefined ? [] : ["'self'"];
  return sendPageUnder(reply, status, html, { formAction: ["'self'"], scripts });
}

/** The passkey form of a new account's page. */
export interface NewAccountPasskeyForm {
  /** Where it posts: the page's own path. */
  readonly action: string;
  /** Its hidden fields (the CSRF token and the page's own), as markup already escaped. */
  readonly hidden: string;
  /** The ids (and names) of fields typed in the page's other form, copied in before it posts. */
  readonly copy: readonly string[];
  /** The id of the field whose value names the passkey's user on the authenticator; the options' name else. */
  readonly user?: string;
  /** Fields typed in this form itself (when no other form has them), as markup already escaped. */
  readonly fields?: string;
  readonly hint: MessageId;
  readonly submit: MessageId;
  /** The creation options (JSON). */
  readonly options: string;
}

/**
 * "Create my account with a passkey": hidden until the script (webauthn/script.ts) finds WebAuthn;
 * it copies the fields of `copy`, makes the passkey and posts it in `credential` to the same path.
 */
export function newAccountPasskeyForm(view: PageView, form: NewAccountPasskeyForm): string {
  const { base, text } = view;
  const { t } = text;
  const copied = form.copy.map((id) => `<input type="hidden" name="${id}" value="">\n`).join('');
  const user = form.user === undefined ? '' : ` data-user="${form.user}"`;
  return `<form method="post" action="${base}${form.action}" id="passkey-form" class="stack" data-mode="create" data-copy="${form.copy.join(' ')}"${user} data-options="${escapeHtml(form.options)}" hidden>
${form.hidden}
${copied}<input type="hidden" name="credential" value="">
${form.fields ?? ''}<p class="section-text">${t(form.hint)}</p>
<button type="button" id="passkey-button" class="button secondary passkey-button">${t(form.submit)}</button>
${passkeyStatus(text)}
</form>
${passkeyScript(base)}`;
}

/** A new account's passkey that did not verify: audited `passkey_enrolment_failed`, for no subject (none was made). */
export async function recordPasskeyRefusal(
  audit: AuditTrail,
  reason: EnrolmentRefusal,
  address: string,
  now: number,
): Promise<void> {
  await audit.record({ event: 'passkey_enrolment_failed', at: now, subject: null, reason, address });
}
