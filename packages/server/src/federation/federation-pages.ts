import { passkeyScript } from '../authorize/passkey-page.js';
import { escapeHtml, hiddenFields, layout, monogram, type BasePath } from '../html/layout.js';

/** The pages of federation that are not errors: proving an existing account before linking it. */

/**
 * The link page never names the local account (docs/federation.md, "How it works", 3):
 * whoever's upstream account claims an e-mail address would learn the username behind it, the name
 * the sign-in form and its rate limits key on. It says only that an account uses that address.
 */
export interface LinkPage {
  readonly csrfToken: string;
  readonly query: string;
  readonly providerName: string;
  /** The WebAuthn request options (JSON) when the account has a passkey (link-proof.ts). */
  readonly passkeyOptions?: string | undefined;
  readonly alert?: { readonly title: string; readonly text: string };
}

/**
 * The link page's passkey form, hidden until `/assets/passkey.js` finds WebAuthn in the browser
 * (passkey-page.ts): it posts the assertion to /federation/link with `method=passkey`.
 */
function passkeyProofForm(base: BasePath, page: LinkPage, options: string): string {
  return `<form method="post" action="${base}/federation/link" id="passkey-form" data-mode="get" data-options="${escapeHtml(options)}" hidden>
<p class="passkey-or">or</p>
${hiddenFields(page.csrfToken, page.query)}
<input type="hidden" name="method" value="passkey">
<input type="hidden" name="credential" value="">
<button type="button" id="passkey-button" class="button secondary passkey-button">Use a passkey of that account</button>
<p id="passkey-status" class="passkey-status" role="status" aria-live="polite"></p>
</form>
${passkeyScript(base)}
`;
}

export function renderLinkPage(base: BasePath, page: LinkPage): string {
  const alert = page.alert
    ? `<div class="alert" role="alert"><strong>${escapeHtml(page.alert.title)}</strong> ${escapeHtml(page.alert.text)}</div>\n`
    : '';
  return layout(
    base,
    'Link your account',
    `<div class="parties">${monogram(page.providerName, 'client')}</div>
<h1>Link your account</h1>
<p class="lead">An account here already uses the e-mail address that <strong>${escapeHtml(page.providerName)}</strong> gave.
If it is yours, enter its password${page.passkeyOptions === undefined ? '' : ' or use one of its passkeys'} to sign in with <strong>${escapeHtml(page.providerName)}</strong> from now on.</p>
${alert}<form method="post" action="${base}/federation/link" class="stack">
${hiddenFields(page.csrfToken, page.query)}
<label for="password">Password of that account</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required autofocus>
<button type="submit" class="button primary">Link and continue</button>
</form>
${page.passkeyOptions === undefined ? '' : passkeyProofForm(base, page, page.passkeyOptions)}<p class="fine-print">Not your account? Close this window: nothing is linked without the account's password or passkey.</p>`,
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
