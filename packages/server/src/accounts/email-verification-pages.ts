import { CSRF_FIELD } from '../html/csrf.js';
import { alertHtml, escapeHtml, layout, markup, verbatim, type Alert, type PageView } from '../html/layout.js';
import { signInHref } from './password-reset-pages.js';

/**
 * The pages of an e-mail verification: the mail's link opens a page with one button (a mail
 * scanner that follows links verifies nothing), the code's form for a signed-in user, and the page
 * after it. Every word from the catalog, every value escaped, no script.
 */

const csrfField = (csrfToken: string): string =>
  `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrfToken)}">`;

/** GET /email-verification?token=…: the address and the account, and "Verify my address". */
export function renderVerifyLinkPage(
  view: PageView,
  page: { readonly csrfToken: string; readonly token: string; readonly email: string; readonly username: string },
): string {
  const { base, text } = view;
  const { t } = text;
  const values = { email: markup(verbatim(page.email, 'strong')), username: markup(verbatim(page.username, 'strong')) };
  return layout(
    view,
    t('verify.title'),
    `<h1>${t('verify.title')}</h1>
<p class="lead">${t('verify.lead', values)}</p>
<form method="post" action="${base}/email-verification" class="stack">
${csrfField(page.csrfToken)}
<input type="hidden" name="token" value="${escapeHtml(page.token)}">
<button type="submit" class="button primary">${t('verify.submit')}</button>
</form>`,
  );
}

/** GET /email-verification/code: the six-digit code of the newest mail, for the signed-in user (its address's or a change's). */
export function renderVerifyCodePage(
  view: PageView,
  page: { readonly csrfToken: string; readonly email: string | undefined; readonly alert?: Alert },
): string {
  const { base, text } = view;
  const { t } = text;
  return layout(
    view,
    t('verify.code.title'),
    `<h1>${t('verify.code.title')}</h1>
<p class="lead">${page.email === undefined ? t('verify.code.lead-any') : t('verify.code.lead', { email: markup(verbatim(page.email, 'strong')) })}</p>
${alertHtml(view, page.alert)}<form method="post" action="${base}/email-verification/code" class="stack">
${csrfField(page.csrfToken)}
<label for="code">${t('verify.code.label')}</label>
<input id="code" name="code" type="text" class="one-time-code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus>
<button type="submit" class="button primary">${t('verify.code.submit')}</button>
</form>
<p class="fine-print"><a href="${base}/account">${t('verify.back')}</a></p>`,
  );
}

/**
 * After the link: the address is verified. A sign-up's mail carries the authorization request it
 * came from: the page then leads to that request's sign-in instead of the account page.
 */
export function renderVerifiedPage(view: PageView, email: string, continuation?: string): string {
  const { base, text } = view;
  const { t } = text;
  const next = continuation
    ? `<a class="button primary wide" href="${escapeHtml(signInHref(base, continuation))}">${t('reset.done.sign-in')}</a>`
    : `<a class="button primary wide" href="${base}/account">${t('verify.back')}</a>`;
  return layout(
    view,
    t('verify.done.title'),
    `<h1>${t('verify.done.title')}</h1>
<p class="lead" role="status">${t('verify.done.lead', { email: markup(verbatim(email, 'strong')) })}</p>
<p>${next}</p>`,
  );
}
