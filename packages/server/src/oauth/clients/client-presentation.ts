import { fetchImage, type ImageLimits } from '../../outbound/images.js';
import type { ClientPresentationRecord } from '../../store/client-presentation-repository.js';
import { OAuthError } from '@gatehouse/contract';
import { OperatorInputError } from '../../primitives/operator-input-error.js';
import { checkPresentationFields, type PresentationFields } from './client-metadata.js';

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

/**
 * An operator's logo URL (the CLI's `label`), fetched when given: it may be on loopback, and one
 * that cannot be fetched is refused, saying why.
 */
export function operatorLogoFetcher(label: string): LogoFetcher {
  return (url) => fetchImage(url, { ...CLIENT_LOGO_LIMITS, label, allowLoopback: true });
}

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
  metadata: PresentationFields,
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

/** An operator's changes to a client's presentation (CLI): each field given replaces its own; an empty one removes it. */
export interface PresentationChanges {
  readonly client_uri?: string;
  readonly logo_uri?: string;
  readonly policy_uri?: string;
  readonly tos_uri?: string;
  /** Names by language tag: each replaces that language's; an empty name removes it. */
  readonly names?: Readonly<Record<string, string>>;
}

/** The stored presentation as the fields registration takes. */
function fieldsOf(presentation: ClientPresentation | undefined): Record<string, string> {
  if (presentation === undefined) return {};
  const fields: Record<string, string> = {};
  for (const [tag, name] of Object.entries(presentation.names)) fields[`client_name#${tag}`] = name;
  if (presentation.clientUri !== undefined) fields['client_uri'] = presentation.clientUri;
  if (presentation.logoUri !== undefined) fields['logo_uri'] = presentation.logoUri;
  if (presentation.policyUri !== undefined) fields['policy_uri'] = presentation.policyUri;
  if (presentation.tosUri !== undefined) fields['tos_uri'] = presentation.tosUri;
  return fields;
}

/**
 * A client's presentation `before` with an operator's changes, checked as a registration's are (RFC
 * 7591 §2, §2.2), the logo fetched with `fetchLogo` (an operator's may be on loopback, and its
 * failure is a refusal that says why). Nothing is stored: a refusal leaves the client as it was.
 */
export async function changedPresentation(
  before: ClientPresentation | undefined,
  changes: PresentationChanges,
  fetchLogo: (url: string) => Promise<ClientPresentation['logo']>,
): Promise<ClientPresentation> {
  const fields = fieldsOf(before);
  for (const name of ['client_uri', 'logo_uri', 'policy_uri', 'tos_uri'] as const) {
    const value = changes[name];
    if (value === '') delete fields[name];
    else if (value !== undefined) fields[name] = value;
  }
  for (const [tag, name] of Object.entries(changes.names ?? {}))
    if (name === '') delete fields[`client_name#${tag}`];
    else fields[`client_name#${tag}`] = name;
  let checked: PresentationFields;
  try {
    checked = checkPresentationFields(fields);
  } catch (error) {
    if (error instanceof OAuthError) throw new OperatorInputError(error.description ?? error.message);
    throw error;
  }
  return clientPresentationOf(checked, before, fetchLogo);
}

/** A presentation as the wire names its fields (RFC 7591 §2): what the CLI prints. */
export function describePresentation(presentation: ClientPresentation | undefined): Record<string, unknown> {
  const fields = fieldsOf(presentation);
  return presentation?.logo === undefined
    ? fields
    : { ...fields, logo: `${presentation.logo.type}, ${presentation.logo.version}` };
}
