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

/** The client's mark: the first letter of the name a page calls it by, never of a claimed name. */
export function clientMark(label: ClientLabel): string {
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
