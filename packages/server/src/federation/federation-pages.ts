import { escapeHtml, hiddenFields, layout, monogram, type BasePath } from '../html/layout.js';

/** The pages of federation that are not errors: proving an existing account before linking it. */

export interface LinkPage {
  readonly csrfToken: string;
  readonly query: string;
  readonly username: string;
  readonly providerName: string;
  readonly alert?: { readonly title: string; readonly text: string };
}

export function renderLinkPage(base: BasePath, page: LinkPage): string {
  const alert = page.alert
    ? `<div class="alert" role="alert"><strong>${escapeHtml(page.alert.title)}</strong> ${escapeHtml(page.alert.text)}</div>\n`
    : '';
  return layout(
    base,
    'Link your account',
    `<div class="parties">${monogram(page.username, 'user')}</div>
<h1>Link your account</h1>
<p class="lead">An account with your e-mail address already exists: <strong>${escapeHtml(page.username)}</strong>.
Enter its password to sign in with <strong>${escapeHtml(page.providerName)}</strong> from now on.</p>
${alert}<form method="post" action="${base}/federation/link" class="stack">
${hiddenFields(page.csrfToken, page.query)}
<label for="password">Password of ${escapeHtml(page.username)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required autofocus>
<button type="submit" class="button primary">Link and continue</button>
</form>
<p class="fine-print">Not your account? Close this window: nothing is linked without the password.</p>`,
  );
}

/** Signed in through the upstream: on to the authorization request (see routes.ts, continueToAuthorize). */
export function renderContinuePage(base: BasePath, next: string): string {
  return layout(
    base,
    'Signed in',
    `<meta http-equiv="refresh" content="0;url=${escapeHtml(next)}">
<h1>Signed in</h1>
<p class="lead">Taking you back to the application…</p>
<p><a class="button primary" id="continue" href="${escapeHtml(next)}">Continue</a></p>`,
  );
}
