import { CSRF_FIELD } from '../html/csrf.js';
import { alertHtml, escapeHtml, layout, markup, verbatim, type Alert, type PageView } from '../html/layout.js';
import { PASSWORD_LENGTH } from '../users/password-policy.js';
import { newAccountPasskeyForm } from './new-account-passkey.js';

/**
 * The pages of an invitation: the form a new person's link opens (a username and a password, or a
 * passkey instead), the page an existing account's link opens (sign in, then accept), and the pages
 * after them. Every word from the catalog, every value escaped; the only script is the passkey's asset.
 */

const hidden = (csrfToken: string, token: string): string =>
  `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">`;

const strong = (value: string) => markup(verbatim(value, 'strong'));

export interface NewAccountPage {
  readonly csrfToken: string;
  readonly token: string;
  /** The organization's name, or the server's address. */
  readonly where: string;
  readonly email: string;
  readonly username: string;
  readonly alert?: Alert;
  /** The WebAuthn creation options (JSON) of a passkey instead of a password; none when the server offers no passkeys. */
  readonly passkeyOptions?: string;
}

/** GET /invitation?token=… for an address no account has: a username and a password. */
export function renderNewAccountPage(view: PageView, page: NewAccountPage): string {
  const { base, text } = view;
  const { t } = text;
  return layout(
    view,
    t('invite.title'),
    `<h1>${t('invite.title')}</h1>
<p class="lead">${t('invite.lead', { where: strong(page.where), email: strong(page.email) })}</p>
${alertHtml(view, page.alert)}<form method="post" action="${base}/invitation" class="stack">
${hidden(page.csrfToken, page.token)}
<label for="username">${t('invite.username')}</label>
<input id="username" name="username" type="text" value="${escapeHtml(page.username)}" autocomplete="username" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="64" aria-describedby="username-hint" required>
<p id="username-hint" class="section-text">${t('invite.username-hint')}</p>
<label for="password">${t('invite.password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_LENGTH.min}" maxlength="${PASSWORD_LENGTH.max}" aria-describedby="password-hint" required autofocus>
<p id="password-hint" class="section-text">${t('reset.new.hint', { min: PASSWORD_LENGTH.min })}</p>
<button type="submit" class="button primary">${t('invite.submit')}</button>
</form>
${page.passkeyOptions === undefined ? '' : passkeyForm(view, page, page.passkeyOptions)}`,
  );
}

/** "Create my account with a passkey", the username typed above copied in (new-account-passkey.ts). */
function passkeyForm(view: PageView, page: NewAccountPage, options: string): string {
  return newAccountPasskeyForm(view, {
    action: '/invitation',
    hidden: hidden(page.csrfToken, page.token),
    copy: ['username'],
    hint: 'invite.passkey.hint',
    submit: 'invite.passkey.submit',
    options,
  });
}

/** After a new account is made: its address is verified; sign in with the new password or passkey. */
export function renderAccountMadePage(view: PageView, username: string, withPasskey = false): string {
  const { base, text } = view;
  const { t } = text;
  const lead = withPasskey ? 'invite.done.passkey-lead' : 'invite.done.lead';
  return layout(
    view,
    t('invite.done.title'),
    `<h1>${t('invite.done.title')}</h1>
<p class="lead" role="status">${t(lead, { username: strong(username) })}</p>
<p><a class="button primary wide" href="${base}/account">${t('reset.done.sign-in')}</a></p>`,
  );
}

export interface MemberPage {
  readonly csrfToken: string;
  readonly token: string;
  readonly where: string;
  readonly username: string;
  /** Whether this browser is signed in as that account: then "Accept", else "Sign in first". */
  readonly signedIn: boolean;
}

/** GET /invitation?token=… for an address an account has: accept when signed in as it. */
export function renderMemberPage(view: PageView, page: MemberPage): string {
  const { base, text } = view;
  const { t } = text;
  const action = page.signedIn
    ? `<form method="post" action="${base}/invitation/accept" class="stack">
${hidden(page.csrfToken, page.token)}
<button type="submit" class="button primary">${t('invite.member.accept')}</button>
</form>`
    : `<p class="section-text">${t('invite.member.sign-in-first', { username: strong(page.username) })}</p>
<p><a class="button primary wide" href="${base}/account">${t('reset.done.sign-in')}</a></p>`;
  return layout(
    view,
    t('invite.title'),
    `<h1>${t('invite.title')}</h1>
<p class="lead">${t('invite.member.lead', { where: strong(page.where), username: strong(page.username) })}</p>
${action}`,
  );
}

/** After an existing account accepted. */
export function renderJoinedPage(view: PageView, where: string): string {
  const { base, text } = view;
  const { t } = text;
  return layout(
    view,
    t('invite.joined.title'),
    `<h1>${t('invite.joined.title')}</h1>
<p class="lead" role="status">${t('invite.joined.lead', { where: strong(where) })}</p>
<p><a class="button primary wide" href="${base}/account">${t('verify.back')}</a></p>`,
  );
}
