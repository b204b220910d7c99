import { escapeHtml, hiddenFields, layout, linkTo, monogram, type PageView } from '../html/layout.js';
import { clientClaimHtml, clientLinksHtml, clientMark, type ClientLabel } from './client-label.js';

/** The HTML of the consent page of the authorization code flow, and the scope list it shares with the device page. */

export interface ConsentPage {
  /** The client as the pages name it (client-label.ts): a metadata document's client by its host. */
  readonly client: ClientLabel;
  /** Where the browser goes next, as the user should recognise it (host of the redirect URI). */
  readonly destination: string;
  readonly username: string;
  /** Each scope by its name, and in words (HTML, from the catalog). */
  readonly scopes: readonly { readonly name: string; readonly words: string }[];
  readonly query: string;
  readonly csrfToken: string;
  /** The client registered itself (RFC 7591), so its name is only its own claim (§5). */
  readonly selfRegistered?: boolean;
  /** The organization the application's tokens are for (docs/organizations.md), by its name. */
  readonly organization?: string | undefined;
}

/** What the client may do once allowed, in plain words: the list of scopes, or that it gets none. */
export function scopeAccess(view: PageView, clientName: string, scopes: ConsentPage['scopes']): string {
  const { t } = view.text;
  const items = scopes
    .map(
      (s) =>
        `<li><span class="tick" aria-hidden="true"></span><span><span class="scope-words">${s.words}</span>` +
        `<code class="scope-name" translate="no">${escapeHtml(s.name)}</code></span></li>`,
    )
    .join('\n');
  return scopes.length === 0
    ? `<p class="list-title">${t('consent.no-access', { client: clientName })}</p>`
    : `<p class="list-title">${t('consent.will-allow', { client: clientName })}</p>\n<ul class="scopes">\n${items}\n</ul>`;
}

/**
 * The top of a consent page, of a browser's or a device's: the two parties and who is signed in. A
 * metadata document's client is named by its host, its own name below as its claim, and a note
 * says what the host does and does not prove (draft-ietf-oauth-client-id-metadata-document §6).
 */
export function consentHeading(
  view: PageView,
  page: { readonly client: ClientLabel; readonly username: string },
): string {
  const { t } = view.text;
  const { client } = page;
  const parties = `${clientMark(client, view.base)}<span class="link" aria-hidden="true"></span>${monogram(page.username, 'user')}`;
  const note = client.documentHost
    ? `<p class="alert" role="note">${t('consent.document-note', { host: client.name, product: view.brand.name })}</p>\n`
    : '';
  return `<div class="parties">${parties}</div>
<h1>${t('consent.heading', { client: client.name })}</h1>
<p class="signed-in">${clientClaimHtml(view, client)}${t('common.signed-in-as', { username: page.username })}</p>
${clientLinksHtml(view, client)}${note}`;
}

export function renderConsentPage(view: PageView, page: ConsentPage): string {
  const { base, text } = view;
  const { t } = text;
  const access = scopeAccess(view, page.client.name, page.scopes);
  const selfRegistered = page.selfRegistered
    ? `<p class="alert" role="note">${t('consent.self-registered')}</p>\n`
    : '';
  const organization =
    page.organization === undefined
      ? ''
      : `<p class="organization">${t('consent.organization', { organization: page.organization })}</p>\n`;
  const finePrint = t('consent.fine-print', { destination: page.destination, account: linkTo(`${base}/account`) });
  return layout(
    view,
    t('consent.title', { client: page.client.name }),
    `${consentHeading(view, page)}${organization}${selfRegistered}${access}
<form method="post" action="${base}/consent" class="actions">
${hiddenFields(page.csrfToken, page.query)}
<button type="submit" name="decision" value="deny" class="button secondary">${t('consent.deny')}</button>
<button type="submit" name="decision" value="allow" class="button primary">${t('consent.allow')}</button>
</form>
<p class="fine-print">${finePrint}</p>`,
  );
}
