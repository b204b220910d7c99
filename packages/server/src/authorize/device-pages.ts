import { CSRF_FIELD } from '../html/csrf.js';
import { escapeHtml, hiddenFields, layout, type BasePath } from '../html/layout.js';
import { consentHeading, scopeAccess, type ConsentPage } from './consent-page.js';
import type { ClientLabel } from './client-label.js';

/**
 * The HTML of the device page (RFC 8628 §3.3): the code entry form, the consent that names the code
 * to compare with the device, and the outcome. Same layout, stylesheet and escaping as the sign-in
 * and consent pages.
 */

type Alert = { readonly title: string; readonly text: string } | undefined;

function alertBox(alert: Alert): string {
  return alert
    ? `<div class="alert" role="alert"><strong>${escapeHtml(alert.title)}</strong> ${escapeHtml(alert.text)}</div>\n`
    : '';
}

export interface UserCodePage {
  readonly csrfToken: string;
  /** What to show in the field: the code of verification_uri_complete, or what was typed. */
  readonly userCode: string;
  readonly alert?: Alert;
}

export function renderUserCodePage(base: BasePath, page: UserCodePage): string {
  return layout(
    base,
    'Connect a device',
    `<div class="parties"><span class="mark mark-client" aria-hidden="true">#</span></div>
<h1>Connect a device</h1>
<p class="lead">Enter the code shown on your device.</p>
${alertBox(page.alert)}<form method="post" action="${base}/device" class="stack">
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(page.csrfToken)}">
<label for="user_code">Code</label>
<input id="user_code" name="user_code" type="text" class="user-code" value="${escapeHtml(page.userCode)}" placeholder="XXXX-XXXX" autocomplete="off" autocapitalize="characters" autocorrect="off" spellcheck="false" maxlength="32" required autofocus>
<button type="submit" class="button primary">Continue</button>
</form>
<p class="fine-print">Only enter a code from a device you are setting up yourself.</p>`,
  );
}

export interface DeviceConsentPage {
  /** The client as the pages name it (client-label.ts): a metadata document's client by its host. */
  readonly client: ClientLabel;
  readonly username: string;
  readonly userCode: string;
  readonly scopes: ConsentPage['scopes'];
  readonly csrfToken: string;
}

/** The consent page of a device: it asks the user to compare the code with the device's (RFC 8628 §5.4). */
export function renderDeviceConsentPage(base: BasePath, page: DeviceConsentPage): string {
  return layout(
    base,
    `Allow ${page.client.name}?`,
    `${consentHeading(page)}<p class="device-code">Check that your device shows <code class="user-code">${escapeHtml(page.userCode)}</code></p>
${scopeAccess(page.client.name, page.scopes)}
<form method="post" action="${base}/device/consent" class="actions">
${hiddenFields(page.csrfToken, page.userCode)}
<button type="submit" name="decision" value="deny" class="button secondary">Deny</button>
<button type="submit" name="decision" value="allow" class="button primary">Allow</button>
</form>
<p class="fine-print">If the codes differ, or you did not start this on a device, choose Deny. You can withdraw access later on your <a href="${base}/account">account page</a>.</p>`,
  );
}

/** What the user sees after deciding; the device learns it at its next poll. */
export function renderDeviceDonePage(base: BasePath, page: { client: ClientLabel; approved: boolean }): string {
  const client = escapeHtml(page.client.name);
  const [title, mark, text] = page.approved
    ? ['Device connected', 'mark-client', `${client} now has access. Go back to your device: it continues by itself.`]
    : ['Access denied', 'mark-error', `${client} was not given access. You can close this page.`];
  return layout(
    base,
    title,
    `<div class="parties"><span class="mark ${mark}" aria-hidden="true">${page.approved ? '✓' : '×'}</span></div>
<h1>${title}</h1>
<p class="summary">${text}</p>`,
  );
}
