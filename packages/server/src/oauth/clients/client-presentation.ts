import { fetchImage, type ImageLimits } from '../../outbound/images.js';
import type { ClientPresentationRecord } from '../../store/client-presentation-repository.js';
import type { ClientMetadata } from './client-metadata.js';

/**
 * How the consent and sign-in pages present a client, from its registered metadata (RFC 7591 §2):
 * its home page, privacy policy and terms (shown with their host), its name in other languages
 * (§2.2, `client_name#de`), and its logo. The logo is fetched once, at registration, through the
 * SSRF-safe fetch, checked as the federation icons are (outbound/images.ts), and served from this
 * origin: the pages' CSP allows images from 'self' only, and nothing is hot-linked. A logo that
 * cannot be fetched does not refuse the registration (RFC 7591 §2 leaves display to the server):
 * the page shows the client's monogram instead.
 */
export type ClientPresentation = Omit<ClientPresentationRecord, 'clientId'>;

/** A mark 56 px a side on the pages: 64 KiB and 1024 px are plenty, as for an upstream's icon. */
export const CLIENT_LOGO_LIMITS: ImageLimits = {
  label: 'logo_uri',
  maxBytes: 64 * 1024,
  maxSide: 1024,
  allowLoopback: false,
};

/** How a logo is fetched: undefined when it cannot be (the page then shows the monogram). */
export type LogoFetcher = (url: string) => Promise<ClientPresentation['logo']>;

/** The SSRF-safe fetch to public addresses only: anyone may register a client under CLIENT_REGISTRATION=open. */
export const fetchClientLogo: LogoFetcher = async (url) => {
  try {
    return await fetchImage(url, CLIENT_LOGO_LIMITS);
  } catch {
    return undefined;
  }
};

/** The presentation of `metadata`; the logo of `previous` kept when its URL did not change. */
export async function clientPresentationOf(
  metadata: ClientMetadata,
  previous: ClientPresentation | undefined,
  fetchLogo: LogoFetcher,
): Promise<ClientPresentation> {
  const names: Record<string, string> = {};
  for (const [field, value] of Object.entries(metadata))
    if (field.startsWith('client_name#') && typeof value === 'string')
      names[field.slice('client_name#'.length)] = value;
  const logoUri = metadata.logo_uri;
  const logo =
    logoUri === undefined ? undefined : previous?.logo?.source === logoUri ? previous.logo : await fetchLogo(logoUri);
  return {
    names,
    ...(metadata.client_uri !== undefined && { clientUri: metadata.client_uri }),
    ...(metadata.policy_uri !== undefined && { policyUri: metadata.policy_uri }),
    ...(metadata.tos_uri !== undefined && { tosUri: metadata.tos_uri }),
    ...(logoUri !== undefined && { logoUri }),
    ...(logo && { logo }),
  };
}
