import { CSRF_FIELD } from '../html/csrf.js';
import { alertHtml, escapeHtml, layout, markup, verbatim, type Alert, type PageView } from '../html/layout.js';
import { PASSWORD_LENGTH } from '../users/password-policy.js';
import { EMAIL_VERIFICATION_TTL } from './email-verification.js';
import { signInHref } from './password-reset-pages.js';
import { newAccountPasskeyForm } from './new-account-passkey.js';
import { SIGN_UP_PATH } from './sign-up.js';

/**
 * The pages of a sign-up: the form (from the sign-in page's "Create an account") and the page that
 * answers it, the same whether the address has an account or not. Every word from the catalog,
 * every value escaped; the only script is the passkey's asset, when the form offers one.
 */

export interface SignUpFormPage {
  readonly csrfToken: string;
  /** The authorization request the sign-in page was for (its handle); '' for none. */
  readonly continuation: string;
  /** SIGN_UP_DOMAINS, named under the address when there are any. */
  readonly domains: readonly string[];
  /** Whether the form asks for a password (SIGN_UP_METHODS). */
  readonly password: boolean;
  /** A passkey instead (SIGN_UP_METHODS): its creation options (JSON), for the subject the account will have. */
  readonly passkey?: { readonly options: string; readonly subject: string };
  /** What was typed, shown again after a refusal (never the password). */
  readonly email?: string;
  readonly name?: string;
  readonly alert?: Alert;
}

/** The allowed domains as one value the catalog places: each shown as typed, never translated. */
export const domainList = (domains: readonly string[]) => markup(verbatim(domains.join(', '), 'strong'));

const hidden = (page: SignUpFormPage): string =>
  `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(page.csrfToken)}">
<input type="hidden" name="request" value="${escapeHtml(page.continuation)}">`;

/** The address and the name, in whichever form holds them. */
function identityFields(view: PageView, page: SignUpFormPage): string {
  const { t } = view.text;
  const domains =
    page.domains.length === 0
      ? ''
      : `<p id="email-hint" class="section-text">${t('sign-up.domains', { domains: domainList(page.domains) })}</p>\n`;
  return `<label for="email">${t('sign-up.email')}</label>
<input id="email" name="email" type="email" value="${escapeHtml(page.email ?? '')}" autocomplete="email" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="254"${domains ? ' aria-describedby="email-hint"' : ''} required autofocus>
${domains}<label for="name">${t('sign-up.name')}</label>
<input id="name" name="name" type="text" value="${escapeHtml(page.name ?? '')}" autocomplete="name" maxlength="128" required>
`;
}

/** The password form: the address, a name and a password. */
function passwordForm(view: PageView, page: SignUpFormPage): string {
  const { base, text } = view;
  const { t } = text;
  return `<form method="post" action="${base}${SIGN_UP_PATH}" class="stack">
${hidden(page)}
${identityFields(view, page)}<label for="password">${t('sign-in.password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_LENGTH.min}" maxlength="${PASSWORD_LENGTH.max}" aria-describedby="password-hint" required>
<p id="password-hint" class="section-text">${t('reset.new.hint', { min: PASSWORD_LENGTH.min })}</p>
<button type="submit" class="button primary">${t('sign-up.submit')}</button>
</form>
`;
}

/**
 * The passkey form (new-account-passkey.ts), hidden until the script finds WebAuthn: under the
 * password form it copies the address and the name typed there; alone it holds them itself, and a
 * line says what a browser without passkeys lacks (the script hides it).
 */
function passkeyForm(view: PageView, page: SignUpFormPage, passkey: NonNullable<SignUpFormPage['passkey']>): string {
  const subject = `<input type="hidden" name="subject" value="${escapeHtml(passkey.subject)}">`;
  const form = newAccountPasskeyForm(view, {
    action: SIGN_UP_PATH,
    hidden: `${hidden(page)}\n${subject}`,
    copy: page.password ? ['email', 'name'] : [],
    user: 'email',
    ...(page.password ? {} : { fields: identityFields(view, page) }),
    hint: 'invite.passkey.hint',
    submit: 'invite.passkey.submit',
    options: passkey.options,
  });
  const unavailable = page.password
    ? ''
    : `\n<p id="passkey-unavailable" class="section-text">${view.text.t('sign-up.passkey-unavailable')}</p>`;
  return `${form}${unavailable}\n`;
}

/** GET /sign-up: the address, a name, and a password or a passkey (SIGN_UP_METHODS). */
export function renderSignUpPage(view: PageView, page: SignUpFormPage): string {
  const { base, text } = view;
  const { t } = text;
  const forms =
    (page.password ? passwordForm(view, page) : '') + (page.passkey ? passkeyForm(view, page, page.passkey) : '');
  return layout(
    view,
    t('sign-up.title'),
    `<h1>${t('sign-up.title')}</h1>
<p class="lead">${t(page.password ? 'sign-up.lead' : 'sign-up.passkey-lead')}</p>
${alertHtml(view, page.alert)}${forms}<p class="fine-print"><a href="${escapeHtml(signInHref(base, page.continuation))}">${t('reset.back')}</a></p>`,
  );
}

/** The answer to POST /sign-up: the same page whether the address had an account or not. */
export function renderSignUpSentPage(view: PageView, continuation: string): string {
  const { base, text } = view;
  const { t } = text;
  return layout(
    view,
    t('reset.sent.title'),
    `<h1>${t('reset.sent.title')}</h1>
<p class="lead">${t('sign-up.sent.lead', { hours: EMAIL_VERIFICATION_TTL / 3600 })}</p>
<p class="section-text">${t('reset.sent.spam')}</p>
<p class="fine-print"><a href="${escapeHtml(signInHref(base, continuation))}">${t('reset.back')}</a></p>`,
  );
}
