import { CSRF_FIELD } from '../html/csrf.js';
import { alertHtml, escapeHtml, layout, markup, verbatim, type Alert, type PageView } from '../html/layout.js';
import { PASSWORD_LENGTH } from '../users/password-policy.js';
import type { ResetSecondFactor } from './password-reset.js';

/**
 * The pages of a password reset: the form that asks for a link (from the sign-in page's "Forgot
 * your password?"), the page that answers it (the same whichever account exists), the form a link
 * opens (the new password, and a code when the user has two-step verification) and the page after
 * it. Every word from the catalog, every value escaped, no script.
 */

function hidden(fields: Readonly<Record<string, string>>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
}

/** Where "Back to sign-in" leads: the authorization request's sign-in, or the account page's. */
export function signInHref(base: string, continuation: string | undefined): string {
  return continuation ? `${base}/authorize?${continuation}` : `${base}/account`;
}

export interface ResetRequestPage {
  readonly csrfToken: string;
  /** The authorization request the sign-in page was for (its handle); '' for none. */
  readonly continuation: string;
  readonly typed?: string;
  readonly alert?: Alert;
}

/** GET /password-reset: a username or e-mail address, and a button. */
export function renderResetRequestPage(view: PageView, page: ResetRequestPage): string {
  const { base, text } = view;
  const { t } = text;
  return layout(
    view,
    t('reset.title'),
    `<h1>${t('reset.title')}</h1>
<p class="lead">${t('reset.lead')}</p>
${alertHtml(view, page.alert)}<form method="post" action="${base}/password-reset" class="stack">
${hidden({ [CSRF_FIELD]: page.csrfToken, request: page.continuation })}
<label for="identifier">${t('reset.identifier')}</label>
<input id="identifier" name="identifier" type="text" value="${escapeHtml(page.typed ?? '')}" autocomplete="username" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="254" required autofocus>
<button type="submit" class="button primary">${t('reset.submit')}</button>
</form>
<p class="fine-print"><a href="${escapeHtml(signInHref(base, page.continuation))}">${t('reset.back')}</a></p>`,
  );
}

/** The answer to POST /password-reset: the same page whether any account matched or not. */
export function renderResetSentPage(view: PageView, continuation: string, minutes: number): string {
  const { base, text } = view;
  const { t } = text;
  return layout(
    view,
    t('reset.sent.title'),
    `<h1>${t('reset.sent.title')}</h1>
<p class="lead">${t('reset.sent.lead', { minutes })}</p>
<p class="section-text">${t('reset.sent.spam')}</p>
<p class="fine-print"><a href="${escapeHtml(signInHref(base, continuation))}">${t('reset.back')}</a></p>`,
  );
}

export interface NewPasswordPage {
  readonly csrfToken: string;
  /** The link's secret, posted back with the form. */
  readonly token: string;
  readonly username: string;
  readonly secondFactor: ResetSecondFactor;
  readonly alert?: Alert;
}

/** GET /password-reset/confirm: the new password, and a code when the user has two-step verification. */
export function renderNewPasswordPage(view: PageView, page: NewPasswordPage): string {
  const { base, text } = view;
  const { t } = text;
  const code =
    page.secondFactor === 'code'
      ? `<p class="section-text">${t('reset.new.code-why')}</p>
<label for="code">${t('reset.new.code')}</label>
<input id="code" name="code" type="text" inputmode="text" autocomplete="one-time-code" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="64" required>
`
      : '';
  return layout(
    view,
    t('reset.new.title'),
    `<h1>${t('reset.new.title')}</h1>
<p class="lead">${t('reset.new.lead', { username: markup(verbatim(page.username, 'strong')) })}</p>
${alertHtml(view, page.alert)}<form method="post" action="${base}/password-reset/confirm" class="stack">
${hidden({ [CSRF_FIELD]: page.csrfToken, token: page.token })}
<input type="text" name="username" value="${escapeHtml(page.username)}" autocomplete="username" hidden>
<label for="password">${t('reset.new.password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_LENGTH.min}" maxlength="${PASSWORD_LENGTH.max}" aria-describedby="password-hint" required autofocus>
<p id="password-hint" class="section-text">${t('reset.new.hint', { min: PASSWORD_LENGTH.min })}</p>
${code}<button type="submit" class="button primary">${t('reset.new.submit')}</button>
</form>`,
  );
}

/** After the reset: signed out everywhere; sign in again with the new password. */
export function renderResetDonePage(
  view: PageView,
  done: { readonly continuation: string | undefined; readonly grantsRevoked: number },
): string {
  const { base, text } = view;
  const { t } = text;
  const grants = done.grantsRevoked > 0 ? `<p class="section-text">${t('reset.done.grants')}</p>\n` : '';
  return layout(
    view,
    t('reset.done.title'),
    `<h1>${t('reset.done.title')}</h1>
<p class="lead" role="status">${t('reset.done.lead')}</p>
${grants}<p><a class="button primary wide" href="${escapeHtml(signInHref(base, done.continuation))}">${t('reset.done.sign-in')}</a></p>`,
  );
}
