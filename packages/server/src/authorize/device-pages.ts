import { CSRF_FIELD } from '../html/csrf.js';
import { alertHtml, escapeHtml, hiddenFields, layout, linkTo, type Alert, type PageView } from '../html/layout.js';
import { consentHeading, scopeAccess, type ConsentPage } from './consent-page.js';
import type { ClientLabel } from './client-label.js';

/**
 * The HTML of the device page (RFC 8628 §3.3): the code entry form, the consent that names the code
 * to compare with the device, and the outcome. Same layout, stylesheet and escaping as the sign-in
 * and consent pages.
 */

export interface UserCodePage {
  readonly csrfToken: string;
  /** What to show in the field: the code of verification_uri_complete, or what was typed. */
  readonly userCode: string;
  readonly alert?: Alert | undefined;
}

export function renderUserCodePage(view: PageView, page: UserCodePage): string {
  const { base, text } = view;
  const { t } = text;
  return layout(
    view,
    t('device.title'),
    `<div class="parties"><span class="mark mark-client" aria-hidden="true">#</span></div>
<h1>${t('device.title')}</h1>
<p class="lead">${t('device.lead')}</p>
${alertHtml(view, page.alert)}<form method="post" action="${base}/device" class="stack">
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(page.csrfToken)}">
<label for="user_code">${t('device.code')}</label>
<input id="user_code" name="user_code" type="text" class="user-code" value="${escapeHtml(page.userCode)}" placeholder="${t('device.code-placeholder')}" autocomplete="off" autocapitalize="characters" autocorrect="off" spellcheck="false" maxlength="32" required autofocus>
<button type="submit" class="button primary">${t('device.continue')}</button>
</form>
<p class="fine-print">${t('device.fine-print')}</p>`,
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
export function renderDeviceConsentPage(view: PageView, page: DeviceConsentPage): string {
  const { base, text } = view;
  const { t } = text;
  const code = (chunks: string[]): string => `<code class="user-code" translate="no">${chunks.join('')}</code>`;
  return layout(
    view,
    t('consent.title', { client: page.client.name }),
    `${consentHeading(view, page)}<p class="device-code">${t('device.check-code', { userCode: page.userCode, usercode: code })}</p>
${scopeAccess(view, page.client.name, page.scopes)}
<form method="post" action="${base}/device/consent" class="actions">
${hiddenFields(page.csrfToken, page.userCode)}
<button type="submit" name="decision" value="deny" class="button secondary">${t('consent.deny')}</button>
<button type="submit" name="decision" value="allow" class="button primary">${t('consent.allow')}</button>
</form>
<p class="fine-print">${t('device.consent-fine-print', { account: linkTo(`${base}/account`) })}</p>`,
  );
}

/** What the user sees after deciding; the device learns it at its next poll. */
export function renderDeviceDonePage(view: PageView, page: { client: ClientLabel; approved: boolean }): string {
  const { t } = view.text;
  const client = page.client.name;
  const [title, mark, text] = page.approved
    ? [t('device.connected.title'), 'mark-client', t('device.connected.text', { client })]
    : [t('device.denied.title'), 'mark-error', t('device.denied.text', { client })];
  return layout(
    view,
    title,
    `<div class="parties"><span class="mark ${mark}" aria-hidden="true">${page.approved ? '✓' : '×'}</span></div>
<h1>${title}</h1>
<p class="summary">${text}</p>`,
  );
}
