import { PROBLEMS } from '@gatehouse/contract';
import { renderSVG } from 'uqr';
import { alertHtml, escapeHtml, layout, type Alert, type PageView } from '../html/layout.js';
import type { MessageId } from '../i18n/index.js';
import { clientMark, type ClientLabel } from './client-label.js';
import { signInHeading } from './login-page.js';
import { CSRF_FIELD } from '../html/csrf.js';
import { passkeyScript, passkeyStatus } from './passkey-page.js';
import type { SecondFactorDue } from './sign-in/second-factor-policy.js';
import { CHANGE_PASSWORD_METHOD, EMAIL_CODE_METHOD, ENROLMENT_METHOD, TERMS_METHOD } from './sign-in/steps/index.js';
import { PASSWORD_LENGTH } from '../users/password-policy.js';

/** The verification page's form that asks a new code by mail (handled by sign-in-forms.ts, not a step). */
export const EMAIL_CODE_RESEND = 'verify_email_resend';

/**
 * The pages of a sign-in's second step: the factor page (a code from the authenticator
 * app, or a recovery code), the enrolment page (a QR code of the `otpauth://` URI, the secret in
 * text, and a confirmation code), and the recovery codes shown once. Same layout, no script; the
 * QR code is inline SVG made of presentation attributes, which the CSP allows.
 */

export type { Alert };

/** Each second factor's name on its form (the methods of sign-in/steps/). */
const FACTOR_LABELS: Readonly<Record<string, MessageId>> = {
  otp: 'factor.label.otp',
  recovery_code: 'factor.label.recovery-code',
  passkey: 'factor.label.passkey',
};

/** Where a step's form posts and what it carries besides the CSRF token. */
export interface StepForm {
  readonly action: string;
  /** Hidden fields (the authorization request, a user code). */
  readonly hidden: Readonly<Record<string, string>>;
}

export interface FactorPage {
  /** The client the sign-in is for (client-label.ts); undefined: the account page's own. */
  readonly client: ClientLabel | undefined;
  readonly username: string;
  readonly csrfToken: string;
  readonly form: StepForm;
  readonly due: Exclude<SecondFactorDue, { kind: 'none' }>;
  readonly alert?: Alert;
  /** The e-mail verification: a new code was just mailed. */
  readonly resent?: boolean;
  /** For enrolment: the sealed secret, its text and its `otpauth://` URI. */
  readonly enrolment?: { readonly sealed: string; readonly secret: string; readonly uri: string };
  /** passkey: the WebAuthn request options (JSON) of the passkey form, when the user may choose it. */
  readonly passkeyOptions?: string;
}

function hidden(csrfToken: string, fields: Readonly<Record<string, string>>): string {
  const pairs: [string, string][] = [[CSRF_FIELD, csrfToken], ...Object.entries(fields)];
  return pairs
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
}

/**
 * The passkey's form (SECOND_FACTORS.passkey): no field to type; the script (`/assets/passkey.js`,
 * webauthn/script.ts) asks the browser for an assertion of this user's passkeys and posts it as
 * `credential`. Hidden until the script finds WebAuthn; another factor stays offered beside it.
 */
function passkeyForm(view: PageView, page: FactorPage, primary: boolean): string {
  if (page.passkeyOptions === undefined) return '';
  const { base, text } = view;
  return `<form method="post" action="${base}${page.form.action}" id="passkey-form" data-mode="get" data-options="${escapeHtml(page.passkeyOptions)}" class="stack" hidden>
${hidden(page.csrfToken, { ...page.form.hidden, method: 'passkey', credential: '' })}
<button type="button" id="passkey-button" class="button ${primary ? 'primary' : 'secondary'} passkey-button">${text.t('passkey.use')}</button>
${passkeyStatus(text)}
</form>
${passkeyScript(base)}`;
}

/** The form of one second factor: a code field and its method (a passkey: its own form). */
function factorForm(view: PageView, page: FactorPage, method: string, primary: boolean): string {
  if (method === 'passkey') return passkeyForm(view, page, primary);
  const { base, text } = view;
  const otp = method === 'otp';
  const known = FACTOR_LABELS[method];
  const label = known === undefined ? escapeHtml(method) : text.t(known);
  const input = otp
    ? `<input id="code-${method}" name="code" class="one-time-code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required${primary ? ' autofocus' : ''}>`
    : `<input id="code-${method}" name="code" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="32" required${primary ? ' autofocus' : ''}>`;
  return `<form method="post" action="${base}${page.form.action}" class="stack">
${hidden(page.csrfToken, { ...page.form.hidden, method })}
<label for="code-${method}">${label}</label>
${input}
<button type="submit" class="button ${primary ? 'primary' : 'secondary'}">${text.t('factor.verify')}</button>
</form>`;
}

/** The QR code of an `otpauth://` URI, as inline SVG. */
function qrCode(uri: string, label: string): string {
  return renderSVG(uri, { border: 2 }).replace('<svg ', `<svg class="qr" role="img" aria-label="${label}" `);
}

function enrolmentForm(view: PageView, page: FactorPage): string {
  const { base, text } = view;
  const { t } = text;
  const enrolment = page.enrolment;
  if (!enrolment) throw new Error('an enrolment page without an enrolment');
  const grouped = enrolment.secret.replace(/(.{4})/g, '$1 ').trim();
  return `<p class="lead">${t('enrol.scan')}</p>
${qrCode(enrolment.uri, t('enrol.qr'))}
<p class="fine-print">${t('enrol.cannot-scan')}</p>
<p class="secret" id="totp-secret" translate="no">${escapeHtml(grouped)}</p>
<form method="post" action="${base}${page.form.action}" class="stack">
${hidden(page.csrfToken, { ...page.form.hidden, method: ENROLMENT_METHOD, enrolment: enrolment.sealed })}
<label for="code">${t('enrol.code')}</label>
<input id="code" name="code" class="one-time-code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required autofocus>
<button type="submit" class="button primary">${t('enrol.submit')}</button>
</form>`;
}

/** Why the enrolment page is shown, in words a person understands: a client requires it, or they chose it. */
function enrolmentReason(view: PageView, page: FactorPage): string {
  const { t } = view.text;
  const signedIn = `<p class="signed-in">${t('common.signed-in-as', { username: page.username })}</p>`;
  if (page.client === undefined) return signedIn;
  return `${signedIn}
<p class="lead">${t('enrol.reason', { client: page.client.name })}</p>`;
}

/**
 * The required verification of the user's address (EMAIL_VERIFICATION=required): the code the mail
 * carries, and a form that mails a new one; for a user with no address, why it cannot go on (the
 * catalog's `email_address_missing`), with no form.
 */
function emailCodePage(view: PageView, page: FactorPage, email: string | undefined): string {
  const { base, text } = view;
  const { t } = text;
  const alert: Alert | undefined =
    email === undefined
      ? { slug: PROBLEMS.email_address_missing.slug, text: { id: 'verify-email.no-address' } }
      : page.alert;
  const heading = `${signInHeading(view, page.client, t('verify-email.title'))}
<p class="signed-in">${t('common.signed-in-as', { username: page.username })}</p>
${alertHtml(view, alert)}`;
  if (email === undefined) return layout(view, t('verify-email.title'), heading);
  return layout(
    view,
    t('verify-email.title'),
    `${heading}${page.resent === true ? `<p class="notice" role="status">${t('verify-email.resent')}</p>\n` : ''}<p class="lead">${t('verify-email.lead', { email })}</p>
<form method="post" action="${base}${page.form.action}" class="stack">
${hidden(page.csrfToken, { ...page.form.hidden, method: EMAIL_CODE_METHOD })}
<label for="code">${t('verify-email.code')}</label>
<input id="code" name="code" class="one-time-code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required autofocus>
<button type="submit" class="button primary">${t('factor.verify')}</button>
</form>
<form method="post" action="${base}${page.form.action}" class="stack">
${hidden(page.csrfToken, { ...page.form.hidden, method: EMAIL_CODE_RESEND })}
<button type="submit" class="button secondary">${t('verify-email.resend')}</button>
</form>`,
  );
}

/**
 * The replacement of an operator's temporary password (`users passwd --temporary`): the new
 * password's field as the password reset's, with the username for password managers.
 */
function changePasswordPage(view: PageView, page: FactorPage): string {
  const { base, text } = view;
  const { t } = text;
  return layout(
    view,
    t('change-password.title'),
    `${signInHeading(view, page.client, t('change-password.title'))}
<p class="signed-in">${t('common.signed-in-as', { username: page.username })}</p>
${alertHtml(view, page.alert)}<p class="lead">${t('change-password.lead')}</p>
<form method="post" action="${base}${page.form.action}" class="stack">
${hidden(page.csrfToken, { ...page.form.hidden, method: CHANGE_PASSWORD_METHOD })}
<input type="text" name="username" value="${escapeHtml(page.username)}" autocomplete="username" hidden>
<label for="password">${t('change-password.password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_LENGTH.min}" maxlength="${PASSWORD_LENGTH.max}" aria-describedby="password-hint" required autofocus>
<p id="password-hint" class="section-text">${t('reset.new.hint', { min: PASSWORD_LENGTH.min })}</p>
<button type="submit" class="button primary">${t('change-password.submit')}</button>
</form>`,
  );
}

/**
 * The terms to accept (TERMS_URL, TERMS_VERSION): a link to the document and Accept / Decline. The
 * form carries the version shown, so that an acceptance is of what the user saw.
 */
function termsPage(view: PageView, page: FactorPage, url: string, version: string): string {
  const { base, text } = view;
  const { t } = text;
  return layout(
    view,
    t('terms.title'),
    `${signInHeading(view, page.client, t('terms.title'))}
<p class="signed-in">${t('common.signed-in-as', { username: page.username })}</p>
${alertHtml(view, page.alert)}<p class="lead">${t('terms.lead', { version })}</p>
<p><a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer" id="terms-link">${t('terms.open')}</a></p>
<form method="post" action="${base}${page.form.action}" class="stack">
${hidden(page.csrfToken, { ...page.form.hidden, method: TERMS_METHOD, version })}
<button type="submit" name="decision" value="accept" class="button primary">${t('terms.accept')}</button>
<button type="submit" name="decision" value="decline" class="button secondary">${t('terms.decline')}</button>
</form>
<p class="fine-print">${t('terms.decline-note')}</p>`,
  );
}

export function renderFactorPage(view: PageView, page: FactorPage): string {
  const { base, text } = view;
  const { t } = text;
  if (page.due.kind === 'verify_email') return emailCodePage(view, page, page.due.email);
  if (page.due.kind === 'change_password') return changePasswordPage(view, page);
  if (page.due.kind === 'accept_terms') return termsPage(view, page, page.due.url, page.due.version);
  if (page.due.kind === 'enrol') {
    const notNow =
      page.client === undefined
        ? `\n<p class="fine-print"><a href="${base}/account">${t('enrol.not-now')}</a></p>`
        : '';
    return layout(
      view,
      t('enrol.title'),
      `${page.client === undefined ? '' : `<div class="parties">${clientMark(page.client, view.base)}</div>\n`}<h1>${t('enrol.title')}</h1>
${enrolmentReason(view, page)}
${alertHtml(view, page.alert)}${enrolmentForm(view, page)}${notNow}`,
    );
  }
  const [first, ...others] = page.due.factors;
  const more =
    others.length === 0
      ? ''
      : `<details class="other-factors">
<summary>${t('factor.other-ways')}</summary>
${others.map((m) => factorForm(view, page, m, false)).join('\n')}
</details>`;
  return layout(
    view,
    t('factor.title'),
    `${signInHeading(view, page.client, t('factor.title'))}
<p class="signed-in">${t('common.signed-in-as', { username: page.username })}</p>
${alertHtml(view, page.alert)}${first === undefined ? '' : factorForm(view, page, first, true)}
${more}`,
  );
}

/** The recovery codes, shown once (after enrolment, or made again on the account page). */
export function renderRecoveryCodesPage(
  view: PageView,
  page: {
    readonly codes: readonly string[];
    readonly next: string;
    readonly csrfToken?: string;
    readonly form?: StepForm;
  },
): string {
  const { base, text } = view;
  const { t } = text;
  const items = page.codes.map((c) => `<li>${escapeHtml(c)}</li>`).join('');
  const go =
    page.form && page.csrfToken !== undefined
      ? `<form method="post" action="${base}${page.form.action}" class="stack">
${hidden(page.csrfToken, page.form.hidden)}
<button type="submit" class="button primary">${t('recovery.continue')}</button>
</form>`
      : `<p><a class="button primary wide" href="${escapeHtml(page.next)}">${t('recovery.continue')}</a></p>`;
  return layout(
    view,
    t('recovery.title'),
    `<h1>${t('recovery.heading')}</h1>
<p class="lead">${t('recovery.lead')}</p>
<ul class="recovery-codes" id="recovery-codes" translate="no">${items}</ul>
${go}`,
  );
}
