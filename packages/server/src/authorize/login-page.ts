import { escapeHtml, hiddenFields, layout, type BasePath } from '../html/layout.js';
import { clientClaimHtml, clientMark, clientNameHtml, type ClientLabel } from './client-label.js';
import { passkeySignInForm, type PasskeySignInTarget } from './passkey-page.js';

/** The HTML of the sign-in form (the authorization code flow's and the device page's). */

export interface LoginPage {
  /** The client the sign-in is for (client-label.ts); undefined: the account page's own sign-in. */
  readonly client: ClientLabel | undefined;
  readonly query: string;
  readonly csrfToken: string;
  /** The username typed before, kept on a failed attempt. */
  readonly username?: string;
  /** A refusal to show above the form. */
  readonly alert?: { readonly title: string; readonly text: string };
  /** Where the form posts: `/login` unless the device page signs in (`/device/login`). */
  readonly action?: string;
  /** Federation (docs/federation.md): the upstream identity providers offered beside the password. */
  readonly upstreams?: readonly UpstreamChoice[];
  /**
   * passkey: the page's passkey sign-in (passkey-page.ts), where it posts and the WebAuthn request
   * options (JSON); none when not offered.
   */
  readonly passkey?: PasskeySignInTarget & { readonly options: string };
  /** The last line (what comes after signing in); the consent step's by default. */
  readonly finePrint?: string;
}

/** An upstream identity provider as the sign-in page offers it (federation/, passed in by app.ts). */
export interface UpstreamChoice {
  readonly id: string;
  readonly displayName: string;
  /** Its icon's path on this server (the pages' CSP allows images from 'self' only), when it has one. */
  readonly iconPath: string | undefined;
}

/**
 * Federation: one button per upstream provider and an e-mail field for home-realm discovery, in a
 * form of their own that posts to /federation/start (served by federation/, not by this folder).
 */
function upstreamSection(base: BasePath, page: LoginPage): string {
  const upstreams = page.upstreams ?? [];
  if (upstreams.length === 0 || (page.action ?? '/login') !== '/login') return '';
  const buttons = upstreams
    .map((u) => {
      const icon = u.iconPath ? `<img src="${base}${escapeHtml(u.iconPath)}" alt="" width="16" height="16"> ` : '';
      return `<button type="submit" name="provider" value="${escapeHtml(u.id)}" class="button secondary" formnovalidate>${icon}Sign in with ${escapeHtml(u.displayName)}</button>`;
    })
    .join('\n');
  return `<form method="post" action="${base}/federation/start" class="stack upstreams">
${hiddenFields(page.csrfToken, page.query)}
<p class="list-title">Or sign in with your organization</p>
<label for="upstream-email">Work e-mail</label>
<input id="upstream-email" name="email" type="email" autocomplete="email" maxlength="254" required>
<button type="submit" class="button secondary">Continue</button>
${buttons}
</form>
`;
}

/**
 * The top of a sign-in page: the client's mark and name (a metadata document's client by its host,
 * client-label.ts), or, for the account page's own sign-in, no client at all.
 */
export function signInHeading(client: ClientLabel | undefined, title = 'Sign in'): string {
  if (client === undefined)
    return `<h1>${escapeHtml(title)}</h1>
<p class="lead">to your account</p>`;
  return `<div class="parties">${clientMark(client)}</div>
<h1>${escapeHtml(title)}</h1>
<p class="lead">to continue to ${clientNameHtml(client)}${clientClaimHtml(client)}</p>`;
}

export function renderLoginPage(base: BasePath, page: LoginPage): string {
  const alert = page.alert
    ? `<div class="alert" role="alert"><strong>${escapeHtml(page.alert.title)}</strong> ${escapeHtml(page.alert.text)}</div>\n`
    : '';
  return layout(
    base,
    'Sign in',
    `${signInHeading(page.client)}
${alert}<form method="post" action="${base}${page.action ?? '/login'}" class="stack">
${hiddenFields(page.csrfToken, page.query)}
<input type="hidden" name="method" value="password">
<label for="username">Username</label>
<input id="username" name="username" type="text" value="${escapeHtml(page.username ?? '')}" autocomplete="${page.passkey ? 'username webauthn' : 'username'}" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="64" required${page.username ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required${page.username ? ' autofocus' : ''}>
<button type="submit" class="button primary">Sign in</button>
</form>
${page.passkey ? passkeySignInForm(base, page.passkey, page.csrfToken, page.passkey.options) : ''}${upstreamSection(base, page)}<p class="fine-print">${escapeHtml(page.finePrint ?? `Next, you will choose what ${page.client?.name ?? 'the application'} may do with your account.`)}</p>`,
  );
}
