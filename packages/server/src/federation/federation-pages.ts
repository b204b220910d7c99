import { passkeyScript, passkeyStatus } from '../authorize/passkey-page.js';
import { alertHtml, escapeHtml, hiddenFields, layout, monogram, type Alert, type PageView } from '../html/layout.js';

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
  readonly alert?: Alert;
}

/**
 * The link page's passkey form, hidden until `/assets/passkey.js` finds WebAuthn in the browser
 * (passkey-page.ts): it posts the assertion to /federation/link with `method=passkey`.
 */
function passkeyProofForm(view: PageView, page: LinkPage, options: string): string {
  const { base, text } = view;
  return `<form method="post" action="${base}/federation/link" id="passkey-form" data-mode="get" data-options="${escapeHtml(options)}" hidden>
<p class="passkey-or">${text.t('passkey.or')}</p>
${hiddenFields(page.csrfToken, page.query)}
<input type="hidden" name="method" value="passkey">
<input type="hidden" name="credential" value="">
<button type="button" id="passkey-button" class="button secondary passkey-button">${text.t('link.passkey')}</button>
${passkeyStatus(text)}
</form>
${passkeyScript(base)}
`;
}

export function renderLinkPage(view: PageView, page: LinkPage): string {
  const { base, text } = view;
  const { t } = text;
  const lead = t(page.passkeyOptions === undefined ? 'link.lead' : 'link.lead-passkey', {
    provider: page.providerName,
  });
  return layout(
    view,
    t('link.title'),
    `<div class="parties">${monogram(page.providerName, 'client')}</div>
<h1>${t('link.title')}</h1>
<p class="lead">${lead}</p>
${alertHtml(view, page.alert)}<form method="post" action="${base}/federation/link" class="stack">
${hiddenFields(page.csrfToken, page.query)}
<label for="password">${t('link.password')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required autofocus>
<button type="submit" class="button primary">${t('link.submit')}</button>
</form>
${page.passkeyOptions === undefined ? '' : passkeyProofForm(view, page, page.passkeyOptions)}<p class="fine-print">${t('link.fine-print')}</p>`,
  );
}

/** Signed in through the upstream: on to the authorization request (see routes.ts, continueToAuthorize). */
export function renderContinuePage(view: PageView, next: string): string {
  const { t } = view.text;
  return layout(
    view,
    t('continue.title'),
    `<meta http-equiv="refresh" content="0;url=${escapeHtml(next)}">
<h1>${t('continue.title')}</h1>
<p class="lead">${t('continue.lead')}</p>
<p><a class="button primary" id="continue" href="${escapeHtml(next)}">${t('continue.button')}</a></p>`,
  );
}
