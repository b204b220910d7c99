import { isClientIdMetadataUrl } from '../oauth/client-id-metadata/index.js';
import { escapeHtml, monogram, type PageView } from '../html/layout.js';

/**
 * How every page names a client: the sign-in, second-step, consent and device pages, the account
 * page's applications and the sign-out page. A registered client goes by its registered name. A
 * client of a metadata document goes by the host of its client_id URL, the only fact about it the
 * server verified (it fetched the document from there); its `client_name` is what the document
 * claims and is shown below the host as that claim, never as a heading, a page title or an icon
 * (draft-ietf-oauth-client-id-metadata-document §6: an attacker can pick any name).
 */
export interface ClientLabel {
  /** What a page calls the client: its registered name, or its document URL's host name. */
  readonly name: string;
  /** Whether `name` is the host of a metadata document's URL. */
  readonly documentHost: boolean;
  /** A document client's own `client_name`, when it says more than the host: its claim. */
  readonly claimedName?: string;
  /** Its logo's path on this server (client-presentation.ts); the monogram without one. */
  readonly logo?: string;
  /** Its home page, privacy policy and terms (RFC 7591 §2), each with the host it leads to. */
  readonly links?: readonly ClientLink[];
}

/** What each link of a client is called on the pages. */
const LINK_WORDS = {
  home: 'client.link.home',
  policy: 'client.link.policy',
  terms: 'client.link.terms',
} as const satisfies Record<ClientLink['kind'], string>;

/** A link of a client's registration: what it is, where, and that place's host, shown beside it. */
export interface ClientLink {
  readonly kind: 'home' | 'policy' | 'terms';
  readonly href: string;
  readonly host: string;
}

/** The label of a client record (or of any client by its id and stored name). */
export function clientLabel(client: { readonly id: string; readonly name: string }): ClientLabel {
  const url = isClientIdMetadataUrl(client.id) ? URL.parse(client.id) : null;
  if (url === null) return { name: client.name, documentHost: false };
  const claimed = client.name.trim();
  // A document without client_name is stored under its host name: nothing more is claimed.
  return claimed === '' || claimed === url.hostname
    ? { name: url.hostname, documentHost: true }
    : { name: url.hostname, documentHost: true, claimedName: claimed };
}

/**
 * The client's mark: its logo (the name beside it says who it is: the image says nothing more), or
 * the first letter of the name a page calls it by, never of a claimed name.
 */
export function clientMark(label: ClientLabel, base = ''): string {
  if (label.logo !== undefined)
    return `<img class="mark mark-logo" src="${escapeHtml(`${base}${label.logo}`)}" alt="" width="56" height="56">`;
  return monogram(label.name, 'client');
}

/** The client's name on its own, in bold, as it is (never translated). */
export function clientNameHtml(label: ClientLabel): string {
  return `<strong class="client-name" translate="no">${escapeHtml(label.name)}</strong>`;
}

/**
 * A document client's own name, as its claim, for the line under the name a page calls it by (a
 * block of its own inside that line's paragraph); empty for any other client.
 */
export function clientClaimHtml(view: PageView, label: ClientLabel): string {
  if (label.claimedName === undefined) return '';
  return `<span class="client-claim">${view.text.t('client.claim', { name: label.claimedName })}</span>`;
}

/** The client's links under its name: each in the page's words, with the host it leads to. */
export function clientLinksHtml(view: PageView, label: ClientLabel): string {
  if (label.links === undefined || label.links.length === 0) return '';
  const { t } = view.text;
  const items = label.links.map(
    (link) =>
      `<li><a href="${escapeHtml(link.href)}" rel="noopener noreferrer">${t(LINK_WORDS[link.kind])}</a> ` +
      `<span class="client-host" translate="no">${escapeHtml(link.host)}</span></li>`,
  );
  return `<ul class="client-links" aria-label="${t('client.links')}">${items.join('')}</ul>\n`;
}
