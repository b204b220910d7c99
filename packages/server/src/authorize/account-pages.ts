import type { FactorSummary } from '../factors/factors.js';
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
  const from = page.client ? ` ${clientNameHtml(page.client)} asked to sign you out.` : '';
  return layout(
    base,
    'Sign out',
    `<h1>Sign out of Gatehouse?</h1>
${who}
<p class="lead">You will need your password to sign in to applications again.${from}</p>
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

interface AccountPage {
  readonly username: string;
  readonly csrfToken: string;
  readonly applications: readonly ApplicationView[];
  /** Federation: the upstream identities linked to the account. */
  readonly linked?: readonly LinkedProviderView[];
  /** passkey: the passkeys section's HTML (passkey-page.ts); empty when the server offers none. */
  readonly passkeys?: string;
  /** The user's second factors (no secret); absent: the section is not shown. */
  readonly factors?: readonly FactorSummary[];
  /** Whether the sign-in is recent enough to change them (sign-in-freshness.ts). */
  readonly fresh?: boolean;
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

function csrfField(csrfToken: string): string {
  return `<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">`;
}

/** The security section: two-step verification on or off, and what the user may do about it. */
function security(base: BasePath, page: AccountPage): string {
  const factors = page.factors ?? [];
  const otp = factors.find((f) => f.kind === 'otp');
  const codes = factors.find((f) => f.kind === 'recovery_codes');
  const reauth = `<p class="fine-print">To change how you sign in, sign in again first.</p>
<form method="post" action="${base}/account/login" class="stack">
${csrfField(page.csrfToken)}
<input type="hidden" name="method" value="password">
<input type="hidden" name="username" value="${escapeHtml(page.username)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required>
<button type="submit" class="button secondary">Confirm it's you</button>
</form>`;
  // A passkey is a second factor of its own (it proves possession and, with user verification, the
  // user): a user with one and no authenticator app has two-step verification on.
  const passkeys = factors.filter((f) => f.kind === 'passkey').length;
  const passkeyText = passkeys === 0 ? '' : `${passkeys} ${passkeys === 1 ? 'passkey' : 'passkeys'}`;
  const status = otp
    ? `<p class="lead" id="two-step-status">Two-step verification is <strong>on</strong>: codes from your authenticator app, since ${day(otp.createdAt ?? 0)}${passkeys === 0 ? '' : `, and ${passkeyText}`}. ${codes?.remaining ?? 0} recovery codes left.</p>`
    : passkeys > 0
      ? `<p class="lead" id="two-step-status">Two-step verification is <strong>on</strong>: ${passkeyText}.</p>`
      : '<p class="lead" id="two-step-status">Two-step verification is <strong>off</strong>.</p>';
  const actions = !page.fresh
    ? reauth
    : otp
      ? `<div class="actions">
<form method="post" action="${base}/account/recovery-codes">${csrfField(page.csrfToken)}<button type="submit" class="button secondary">New recovery codes</button></form>
<form method="post" action="${base}/account/two-step/remove">${csrfField(page.csrfToken)}<button type="submit" class="button secondary">Turn off</button></form>
</div>`
      : `<p><a class="button primary" href="${base}/account/two-step">Set up two-step verification</a></p>`;
  return `<p class="list-title section-title">How you sign in</p>
${status}
${actions}`;
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
${list}
${page.factors === undefined ? '' : security(base, page)}
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
