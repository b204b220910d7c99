import { CSRF_FIELD } from '../html/csrf.js';
import { alertHtml, escapeHtml, layout, markup, verbatim, type Alert, type PageView } from '../html/layout.js';
import { PASSWORD_LENGTH } from '../users/password-policy.js';
import { EMAIL_VERIFICATION_TTL } from './email-verification.js';
import { signInHref } from './password-reset-pages.js';
import { SIGN_UP_PATH } from './sign-up.js';

/**
 * The pages of a sign-up: the form (from the sign-in page's "Create an account") and the page that
 * answers it, the same whether the address has an account or not. Every word from the catalog,
 * every value escaped, no script.
 */

export interface SignUpFormPage {
  readonly csrfToken: string;
  /** The authorization request the sign-in page was for (its handle); '' for none. */
  readonly continuation: string;
  /** SIGN_UP_DOMAINS, named under the address when there are any. */
  readonly domains: readonly string[];
  /** What was typed, shown again after a refusal (never the password). */
  readonly email?: string;
  readonly name?: string;
  readonly alert?: Alert;
}

/** The allowed domains as one value the catalog places: each shown as typed, never translated. */
export const domainList = (domains: readonly string[]) => markup(verbatim(domains.join(', '), 'strong'));

/** GET /sign-up: the address, a name and a password. */
export function renderSignUpPage(view: PageView, page: SignUpFormPage): string {
  const { base, text } = view;
  const { t } = text;
  const domains =
    page.domains.length === 0
      ? ''
      : `<p id="email-hint" class="section-text">${t('sign-up.domains', { domains: domainList(page.domains) })}</p>\n`;
  return layout(
    view,
    t('sign-up.title'),
    `<h1>${t('sign-up.title')}</h1>
<p class="lead">${t('sign-up.lead')}</p>
${alertHtml(view, page.alert)}<form method="post" action="${base}${SIGN_UP_PATH}" class="stack">
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(page.csrfToken)}">
<input type="hidden" name="request" value="${escapeHtml(page.continuation)}">
<label for="email">${t('sign-up.email')}</label>
<input id="email" name="email" type="email" value="${escapeHtml(page.email ?? '')}" autocomplete="email" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="254"${domains ? ' aria-describedby="email-hint"' : ''} required autofocus>
${domains}<label for="name">${t('sign-up.name')}</label>
<input id="name" name="name" type="text" value="${escapeHtml(page.name ?? '')}" autocomplete="name" maxlength="128" required>
<label for="password">${t('sign-in.password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_LENGTH.min}" maxlength="${PASSWORD_LENGTH.max}" aria-describedby="password-hint" required>
<p id="password-hint" class="section-text">${t('reset.new.hint', { min: PASSWORD_LENGTH.min })}</p>
<button type="submit" class="button primary">${t('sign-up.submit')}</button>
</form>
<p class="fine-print"><a href="${escapeHtml(signInHref(base, page.continuation))}">${t('reset.back')}</a></p>`,
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
