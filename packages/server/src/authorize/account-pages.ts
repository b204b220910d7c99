import { escapeHtml, hiddenFields, layout, monogram, type BasePath } from '../html/layout.js';
import { clientClaimHtml, clientMark, clientNameHtml, type ClientLabel } from './client-label.js';

/**
 * The pages of a signed-in person's own session: sign out (RP-initiated or plain), signed out,
 * and the account page listing the applications that hold a grant. Same layout, no script.
 */

interface LogoutPage {
  readonly csrfToken: string;
  /** The logout request's parameters, checked again on POST. */
  readonly query: string;
  readonly username: string | null;
  /** The client that asked for the sign-out (client-label.ts), if any. */
  readonly client: ClientLabel | undefined;
}

export function renderLogoutPage(base: BasePath, page: LogoutPage): string {
  const who = page.username
    ? `<p class="signed-in">Signed in as <strong>${escapeHtml(page.username)}</strong></p>`
    : '<p class="signed-in">You are not signed in.</p>';
  const from = page.client ? `${clientNameHtml(page.client)} asked to sign you out. ` : '';
  return layout(
    base,
    'Sign out',
    `<h1>Sign out of Gatehouse?</h1>
${who}
<p class="lead">${from}The next time an application sends you here, you will sign in again.</p>
<form method="post" action="${base}/logout" class="stack">
${hiddenFields(page.csrfToken, page.query)}
<button type="submit" class="button primary">Sign out</button>
</form>
<p class="fine-print"><a href="${base}/account">Your account</a></p>`,
  );
}

export function renderSignedOutPage(base: BasePath): string {
  return layout(
    base,
    'Signed out',
    `<h1>You are signed out</h1>
<p class="lead">You can close this window. Applications you use will ask you to sign in again.</p>`,
  );
}

/** One application on the account page: a client and what all its grants of the user hold. */
export interface ApplicationView {
  readonly clientId: string;
  /** The client as the pages name it (client-label.ts). */
  readonly client: ClientLabel;
  readonly scopes: readonly string[];
  readonly since: number;
  readonly lastUsed: number;
}

/**
 * What the account page says after each of its forms, on the way back (`/account?done=`): one
 * sentence per change, named in the query by its key; anything else says nothing.
 */
const NOTICES = {
  access_removed: 'Access removed: the application can no longer use your account.',
  two_step_on: 'Two-step verification is on. Keep your recovery codes somewhere safe.',
  two_step_off: 'The authenticator app is turned off, and its recovery codes no longer work.',
  recovery_codes: 'You have new recovery codes. The old ones no longer work.',
  passkey_added: 'Passkey added. It signs you in without a password.',
  passkey_renamed: 'Passkey renamed.',
  passkey_removed: 'Passkey removed. It no longer signs you in.',
} as const;

export type AccountNotice = keyof typeof NOTICES;

/** The notice of `done`, naming the application removed when it is known (client-label.ts). */
export function noticeOf(done: string | undefined, removed?: ClientLabel): string | undefined {
  if (done === undefined || !Object.hasOwn(NOTICES, done)) return undefined;
  if (done === 'access_removed' && removed !== undefined)
    return `Access removed: ${removed.name} can no longer use your account. Its tokens stopped working.`;
  return NOTICES[done as AccountNotice];
}

interface AccountPage {
  readonly username: string;
  readonly csrfToken: string;
  readonly applications: readonly ApplicationView[];
  /** Federation: the upstream identities linked to the account. */
  readonly linked?: readonly LinkedProviderView[];
  /** passkey: the passkeys section's HTML (passkey-page.ts); empty when the server offers none. */
  readonly passkeys?: string;
  /** The security section's HTML (account-security-page.ts); absent: not shown. */
  readonly security?: string;
  /** What the last form did (noticeOf), shown at the top. */
  readonly notice?: string;
}

/** Federation: one linked upstream provider on the account page; unlinked by federation/'s POST /account/unlink. */
export interface LinkedProviderView {
  readonly issuer: string;
  readonly subject: string;
  readonly providerName: string;
  readonly since: string;
}

/** The account page's section listing linked providers, each with its unlink form. */
export function renderLinkedProviders(
  base: BasePath,
  csrfToken: string,
  linked: readonly LinkedProviderView[],
): string {
  if (linked.length === 0) return '';
  const items = linked
    .map(
      (l) => `<li class="application"><div class="application-name"><strong>${escapeHtml(l.providerName)}</strong>
<span class="application-dates">Linked since ${escapeHtml(l.since)}</span></div>
<form method="post" action="${base}/account/unlink">
<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="issuer" value="${escapeHtml(l.issuer)}">
<input type="hidden" name="subject" value="${escapeHtml(l.subject)}">
<button type="submit" class="button secondary">Unlink</button>
</form></li>`,
    )
    .join('\n');
  return `<p class="list-title">Identity providers you sign in with</p>
<ul class="applications linked-providers">
${items}
</ul>
`;
}

/** A date people read; UTC, since the page has no script to learn the browser's zone. */
function day(seconds: number): string {
  return new Date(seconds * 1000).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

function application(base: BasePath, csrfToken: string, a: ApplicationView): string {
  const scopes = a.scopes.map((words) => `<li>${escapeHtml(words)}</li>`).join('');
  return `<li class="application">
<div class="application-head">${clientMark(a.client)}<div class="application-name">${clientNameHtml(a.client)}${clientClaimHtml(a.client)}
<span class="application-dates">Allowed since ${day(a.since)} · Last used ${day(a.lastUsed)}</span></div></div>
<ul class="application-scopes">${scopes}</ul>
<form method="post" action="${base}/account/revoke">
<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="client_id" value="${escapeHtml(a.clientId)}">
<button type="submit" class="button secondary">Remove access</button>
</form>
</li>`;
}

export function renderAccountPage(base: BasePath, page: AccountPage): string {
  const list =
    page.applications.length === 0
      ? '<p class="lead">No application has access to your account.</p>'
      : `<p class="list-title">Applications with access to your account</p>
<ul class="applications">
${page.applications.map((a) => application(base, page.csrfToken, a)).join('\n')}
</ul>`;
  return layout(
    base,
    'Your account',
    `<div class="parties">${monogram(page.username, 'user')}</div>
<h1>Your account</h1>
<p class="signed-in">Signed in as <strong>${escapeHtml(page.username)}</strong></p>
${page.notice === undefined ? '' : `<p class="notice" role="status">${escapeHtml(page.notice)}</p>\n`}${list}
${page.security ?? ''}
${page.passkeys ?? ''}
${renderLinkedProviders(base, page.csrfToken, page.linked ?? [])}<p class="fine-print">Removing access signs the application out at once: its tokens stop working. · <a href="${base}/logout">Sign out</a></p>`,
  );
}

export function renderNotSignedInPage(base: BasePath): string {
  return layout(
    base,
    'Your account',
    `<h1>You are not signed in</h1>
<p class="lead">Sign in through one of your applications, then come back to this page to see which applications have access to your account.</p>`,
  );
}
