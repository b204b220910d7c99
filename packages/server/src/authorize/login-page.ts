import { alertHtml, escapeHtml, hiddenFields, layout, type Alert, type PageView } from '../html/layout.js';
import type { MessageId } from '../i18n/index.js';
import { clientClaimHtml, clientLinksHtml, clientMark, type ClientLabel } from './client-label.js';
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
  readonly alert?: Alert;
  /** Where the form posts: `/login` unless the device page signs in (`/device/login`). */
  readonly action?: string;
  /** Federation (docs/federation.md): the upstream identity providers offered beside the password. */
  readonly upstreams?: readonly UpstreamChoice[];
  /**
   * passkey: the page's passkey sign-in (passkey-page.ts), where it posts and the WebAuthn request
   * options (JSON); none when not offered.
   */
  readonly passkey?: PasskeySignInTarget & { readonly options: string };
  /** Whether the username and password form is shown; false when the organization's policy allows no password. */
  readonly passwordForm?: boolean;
  /** "Forgot your password?" (accounts/): where it leads, the request's handle appended; none when absent. */
  readonly passwordReset?: string;
  /** "Create an account" (SIGN_UP=open), carrying the authorization request like the reset's link. */
  readonly signUp?: string;
  /** The last line (what comes after signing in); the consent step's by default. */
  readonly finePrint?: MessageId;
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
function upstreamSection(view: PageView, page: LoginPage): string {
  const { base, text } = view;
  const upstreams = page.upstreams ?? [];
  if (upstreams.length === 0 || (page.action ?? '/login') !== '/login') return '';
  const buttons = upstreams
    .map((u) => {
      const icon = u.iconPath ? `<img src="${base}${escapeHtml(u.iconPath)}" alt="" width="16" height="16"> ` : '';
      const label = text.t('sign-in.upstreams.provider', { provider: u.displayName });
      return `<button type="submit" name="provider" value="${escapeHtml(u.id)}" class="button secondary" formnovalidate>${icon}${label}</button>`;
    })
    .join('\n');
  return `<form method="post" action="${base}/federation/start" class="stack upstreams">
${hiddenFields(page.csrfToken, page.query)}
<p class="list-title">${text.t('sign-in.upstreams.title')}</p>
<label for="upstream-email">${text.t('sign-in.upstreams.email')}</label>
<input id="upstream-email" name="email" type="email" autocomplete="email" maxlength="254" required>
<button type="submit" class="button secondary">${text.t('sign-in.upstreams.continue')}</button>
${buttons}
</form>
`;
}

/**
 * The top of a sign-in page: the client's mark and name (a metadata document's client by its host,
 * client-label.ts), or, for the account page's own sign-in, no client at all.
 */
export function signInHeading(view: PageView, client: ClientLabel | undefined, title: string): string {
  const { t } = view.text;
  if (client === undefined)
    return `<h1>${title}</h1>
<p class="lead">${t('sign-in.lead.account')}</p>`;
  return `<div class="parties">${clientMark(client, view.base)}</div>
<h1>${title}</h1>
<p class="lead">${t('sign-in.lead.client', { client: client.name })}${clientClaimHtml(view, client)}</p>
${clientLinksHtml(view, client)}`;
}

/** The query that carries the authorization request to an account page and back; only the code flow's form has one. */
function continuationQuery(page: LoginPage): string {
  return page.query === '' || (page.action ?? '/login') !== '/login'
    ? ''
    : `?${new URLSearchParams({ request: page.query })}`;
}

/** "Forgot your password?", leading to the reset with the authorization request to come back to. */
function forgotPassword(view: PageView, page: LoginPage): string {
  if (page.passwordReset === undefined) return '';
  const href = escapeHtml(page.passwordReset + continuationQuery(page));
  return `<p class="forgot-password"><a href="${view.base}${href}">${view.text.t('sign-in.forgot-password')}</a></p>\n`;
}

/** "Create an account" (SIGN_UP=open), leading to the sign-up with the authorization request to go on with. */
function signUpLink(view: PageView, page: LoginPage): string {
  if (page.signUp === undefined) return '';
  const href = escapeHtml(page.signUp + continuationQuery(page));
  return `<p class="sign-up"><a href="${view.base}${href}">${view.text.t('sign-in.sign-up')}</a></p>\n`;
}

/** The username and password form, with "Forgot your password?". */
function passwordForm(view: PageView, page: LoginPage): string {
  const { t } = view.text;
  return `<form method="post" action="${view.base}${page.action ?? '/login'}" class="stack">
${hiddenFields(page.csrfToken, page.query)}
<input type="hidden" name="method" value="password">
<label for="username">${t('sign-in.username')}</label>
<input id="username" name="username" type="text" value="${escapeHtml(page.username ?? '')}" autocomplete="${page.passkey ? 'username webauthn' : 'username'}" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="64" required${page.username ? '' : ' autofocus'}>
<label for="password">${t('sign-in.password')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required${page.username ? ' autofocus' : ''}>
<button type="submit" class="button primary">${t('sign-in.submit')}</button>
</form>
${forgotPassword(view, page)}`;
}

export function renderLoginPage(view: PageView, page: LoginPage): string {
  const { text } = view;
  const { t } = text;
  const next =
    page.finePrint === undefined
      ? t('sign-in.next.consent', { client: page.client?.name ?? t('client.any') })
      : t(page.finePrint);
  return layout(
    view,
    t('sign-in.title'),
    `${signInHeading(view, page.client, t('sign-in.title'))}
${alertHtml(view, page.alert)}${page.passwordForm === false ? '' : passwordForm(view, page)}${signUpLink(view, page)}${page.passkey ? passkeySignInForm(view, page.passkey, page.csrfToken, page.passkey.options) : ''}${upstreamSection(view, page)}<p class="fine-print">${next}</p>`,
  );
}
