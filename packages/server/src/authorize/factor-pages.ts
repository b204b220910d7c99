import { renderSVG } from 'uqr';
import { escapeHtml, layout, type BasePath } from '../html/layout.js';
import { clientMark, clientNameHtml, type ClientLabel } from './client-label.js';
import { signInHeading } from './login-page.js';
import { CSRF_FIELD } from '../html/csrf.js';
import { passkeyScript } from './passkey-page.js';
import type { SecondFactorDue } from './sign-in/second-factor-policy.js';
import { ENROLMENT_METHOD, SECOND_FACTORS } from './sign-in/steps/index.js';

/**
 * The pages of a sign-in's second step: the factor page (a code from the authenticator
 * app, or a recovery code), the enrolment page (a QR code of the `otpauth://` URI, the secret in
 * text, and a confirmation code), and the recovery codes shown once. Same layout, no script; the
 * QR code is inline SVG made of presentation attributes, which the CSP allows.
 */

export interface Alert {
  readonly title: string;
  readonly text: string;
}

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
  /** For enrolment: the sealed secret, its text and its `otpauth://` URI. */
  readonly enrolment?: { readonly sealed: string; readonly secret: string; readonly uri: string };
  /** passkey: the WebAuthn request options (JSON) of the passkey form, when the user may choose it. */
  readonly passkeyOptions?: string;
}

function alertHtml(alert: Alert | undefined): string {
  return alert
    ? `<div class="alert" role="alert"><strong>${escapeHtml(alert.title)}</strong> ${escapeHtml(alert.text)}</div>\n`
    : '';
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
function passkeyForm(base: BasePath, page: FactorPage, primary: boolean): string {
  if (page.passkeyOptions === undefined) return '';
  return `<form method="post" action="${base}${page.form.action}" id="passkey-form" data-mode="get" data-options="${escapeHtml(page.passkeyOptions)}" class="stack" hidden>
${hidden(page.csrfToken, { ...page.form.hidden, method: 'passkey', credential: '' })}
<button type="button" id="passkey-button" class="button ${primary ? 'primary' : 'secondary'} passkey-button">Use a passkey</button>
<p id="passkey-status" class="passkey-status" role="status" aria-live="polite"></p>
</form>
${passkeyScript(base)}`;
}

/** The form of one second factor: a code field and its method (a passkey: its own form). */
function factorForm(base: BasePath, page: FactorPage, method: string, primary: boolean): string {
  if (method === 'passkey') return passkeyForm(base, page, primary);
  const otp = method === 'otp';
  const label = SECOND_FACTORS[method]?.label ?? method;
  const input = otp
    ? `<input id="code-${method}" name="code" class="one-time-code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required${primary ? ' autofocus' : ''}>`
    : `<input id="code-${method}" name="code" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="32" required${primary ? ' autofocus' : ''}>`;
  return `<form method="post" action="${base}${page.form.action}" class="stack">
${hidden(page.csrfToken, { ...page.form.hidden, method })}
<label for="code-${method}">${escapeHtml(label)}</label>
${input}
<button type="submit" class="button ${primary ? 'primary' : 'secondary'}">Verify</button>
</form>`;
}

/** The QR code of an `otpauth://` URI, as inline SVG. */
function qrCode(uri: string): string {
  return renderSVG(uri, { border: 2 }).replace(
    '<svg ',
    '<svg class="qr" role="img" aria-label="QR code for your authenticator app" ',
  );
}

function enrolmentForm(base: BasePath, page: FactorPage): string {
  const enrolment = page.enrolment;
  if (!enrolment) throw new Error('an enrolment page without an enrolment');
  const grouped = enrolment.secret.replace(/(.{4})/g, '$1 ').trim();
  return `<p class="lead">Scan this code with an authenticator app (such as Google Authenticator, 1Password or Aegis), then type the six-digit code it shows.</p>
${qrCode(enrolment.uri)}
<p class="fine-print">Cannot scan it? Enter this key in the app:</p>
<p class="secret" id="totp-secret">${escapeHtml(grouped)}</p>
<form method="post" action="${base}${page.form.action}" class="stack">
${hidden(page.csrfToken, { ...page.form.hidden, method: ENROLMENT_METHOD, enrolment: enrolment.sealed })}
<label for="code">Code from the app</label>
<input id="code" name="code" class="one-time-code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required autofocus>
<button type="submit" class="button primary">Turn on two-step verification</button>
</form>`;
}

/** Why the enrolment page is shown, in words a person understands: a client requires it, or they chose it. */
function enrolmentReason(page: FactorPage): string {
  const signedIn = `Signed in as <strong>${escapeHtml(page.username)}</strong>`;
  if (page.client === undefined) return `<p class="signed-in">${signedIn}</p>`;
  return `<p class="signed-in">${signedIn}</p>
<p class="lead">To continue to ${clientNameHtml(page.client)}, your sign-in needs a second step: after your password, a code from an app on your phone.</p>`;
}

export function renderFactorPage(base: BasePath, page: FactorPage): string {
  if (page.due.kind === 'enrol')
    return layout(
      base,
      'Set up two-step verification',
      `${page.client === undefined ? '' : `<div class="parties">${clientMark(page.client)}</div>\n`}<h1>Set up two-step verification</h1>
${enrolmentReason(page)}
${alertHtml(page.alert)}${enrolmentForm(base, page)}${page.client === undefined ? `\n<p class="fine-print"><a href="${base}/account">Not now: back to your account</a></p>` : ''}`,
    );
  const [first, ...others] = page.due.factors;
  const more =
    others.length === 0
      ? ''
      : `<details class="other-factors">
<summary>Other ways to verify</summary>
${others.map((m) => factorForm(base, page, m, false)).join('\n')}
</details>`;
  return layout(
    base,
    'Two-step verification',
    `${signInHeading(page.client, 'Two-step verification')}
<p class="signed-in">Signed in as <strong>${escapeHtml(page.username)}</strong></p>
${alertHtml(page.alert)}${first === undefined ? '' : factorForm(base, page, first, true)}
${more}`,
  );
}

/** The recovery codes, shown once (after enrolment, or made again on the account page). */
export function renderRecoveryCodesPage(
  base: BasePath,
  page: {
    readonly codes: readonly string[];
    readonly next: string;
    readonly csrfToken?: string;
    readonly form?: StepForm;
  },
): string {
  const items = page.codes.map((c) => `<li>${escapeHtml(c)}</li>`).join('');
  const go =
    page.form && page.csrfToken !== undefined
      ? `<form method="post" action="${base}${page.form.action}" class="stack">
${hidden(page.csrfToken, page.form.hidden)}
<button type="submit" class="button primary">I saved them, continue</button>
</form>`
      : `<p><a class="button primary wide" href="${escapeHtml(page.next)}">I saved them, continue</a></p>`;
  return layout(
    base,
    'Your recovery codes',
    `<h1>Save your recovery codes</h1>
<p class="lead">Each code signs you in once if you lose your authenticator app. Keep them somewhere safe: this is the only time they are shown.</p>
<ul class="recovery-codes" id="recovery-codes">${items}</ul>
${go}`,
  );
}
