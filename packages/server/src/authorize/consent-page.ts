import { escapeHtml, hiddenFields, layout, monogram, type BasePath } from '../html/layout.js';
import { clientClaimHtml, clientMark, type ClientLabel } from './client-label.js';

/** The HTML of the consent page of the authorization code flow, and the scope list it shares with the device page. */

export interface ConsentPage {
  /** The client as the pages name it (client-label.ts): a metadata document's client by its host. */
  readonly client: ClientLabel;
  /** Where the browser goes next, as the user should recognise it (host of the redirect URI). */
  readonly destination: string;
  readonly username: string;
  readonly scopes: readonly { readonly name: string; readonly words: string }[];
  readonly query: string;
  readonly csrfToken: string;
  /** The client registered itself (RFC 7591), so its name is only its own claim (§5). */
  readonly selfRegistered?: boolean;
}

/** What the client may do once allowed, in plain words: the list of scopes, or that it gets none. */
export function scopeAccess(clientName: string, scopes: ConsentPage['scopes']): string {
  const client = escapeHtml(clientName);
  const items = scopes
    .map(
      (s) =>
        `<li><span class="tick" aria-hidden="true"></span><span><span class="scope-words">${escapeHtml(s.words)}</span>` +
        `<code class="scope-name">${escapeHtml(s.name)}</code></span></li>`,
    )
    .join('\n');
  return scopes.length === 0
    ? `<p class="list-title">${client} asks only to know that you are signed in; it gets no access to your data.</p>`
    : `<p class="list-title">This will allow ${client} to:</p>\n<ul class="scopes">\n${items}\n</ul>`;
}

/**
 * The top of a consent page, of a browser's or a device's: the two parties and who is signed in. A
 * metadata document's client is named by its host, its own name below as its claim, and a note
 * says what the host does and does not prove (draft-ietf-oauth-client-id-metadata-document §6).
 */
export function consentHeading(page: { readonly client: ClientLabel; readonly username: string }): string {
  const { client } = page;
  const parties = `${clientMark(client)}<span class="link" aria-hidden="true"></span>${monogram(page.username, 'user')}`;
  const note = client.documentHost
    ? `<p class="alert" role="note"><strong>No administrator added this application.</strong> It describes itself from <strong class="client-host">${escapeHtml(client.name)}</strong>, the only thing Gatehouse could check. Allow it only if you trust that site.</p>\n`
    : '';
  return `<div class="parties">${parties}</div>
<h1><span class="client-name">${escapeHtml(client.name)}</span> wants to access your account</h1>
<p class="signed-in">${clientClaimHtml(client)}Signed in as <strong>${escapeHtml(page.username)}</strong></p>
${note}`;
}

export function renderConsentPage(base: BasePath, page: ConsentPage): string {
  const access = scopeAccess(page.client.name, page.scopes);
  const selfRegistered = page.selfRegistered
    ? `<p class="alert" role="note"><strong>This application registered itself.</strong> No administrator added it, so its name has not been checked: allow it only if you started it yourself.</p>\n`
    : '';
  return layout(
    base,
    `Allow ${page.client.name}?`,
    `${consentHeading(page)}${selfRegistered}${access}
<form method="post" action="${base}/consent" class="actions">
${hiddenFields(page.csrfToken, page.query)}
<button type="submit" name="decision" value="deny" class="button secondary">Deny</button>
<button type="submit" name="decision" value="allow" class="button primary">Allow</button>
</form>
<p class="fine-print">Either way, you will be sent back to <strong>${escapeHtml(page.destination)}</strong>. You can withdraw access later on your <a href="${base}/account">account page</a>.</p>`,
  );
}
