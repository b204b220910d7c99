import { escapeHtml, hiddenFields, layout, monogram, type BasePath } from '../html/layout.js';

/** The HTML of the sign-in form (the authorization code flow's and the device page's). */

export interface LoginPage {
  readonly clientName: string;
  readonly query: string;
  readonly csrfToken: string;
  /** The username typed before, kept on a failed attempt. */
  readonly username?: string;
  /** A refusal to show above the form. */
  readonly alert?: { readonly title: string; readonly text: string };
  /** Where the form posts: `/login` unless the device page signs in (`/device/login`). */
  readonly action?: string;
  /** The last line (what comes after signing in); the consent step's by default. */
  readonly finePrint?: string;
}

export function renderLoginPage(base: BasePath, page: LoginPage): string {
  const alert = page.alert
    ? `<div class="alert" role="alert"><strong>${escapeHtml(page.alert.title)}</strong> ${escapeHtml(page.alert.text)}</div>\n`
    : '';
  return layout(
    base,
    'Sign in',
    `<div class="parties">${monogram(page.clientName, 'client')}</div>
<h1>Sign in</h1>
<p class="lead">to continue to <strong class="client-name">${escapeHtml(page.clientName)}</strong></p>
${alert}<form method="post" action="${base}${page.action ?? '/login'}" class="stack">
${hiddenFields(page.csrfToken, page.query)}
<input type="hidden" name="method" value="password">
<label for="username">Username</label>
<input id="username" name="username" type="text" value="${escapeHtml(page.username ?? '')}" autocomplete="username" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="64" required${page.username ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required${page.username ? ' autofocus' : ''}>
<button type="submit" class="button primary">Sign in</button>
</form>
<p class="fine-print">${escapeHtml(page.finePrint ?? `Next, you will choose what ${page.clientName} may do with your account.`)}</p>`,
  );
}
