import { importJWK } from 'jose';
import type { KeyEncryption } from '../oauth/keys/index.js';
import { isSealed } from '../oauth/keys/index.js';
import { isHttpsOrLoopbackHttp, LOOPBACK_HTTP_RULE } from '../primitives/loopback.js';
import { fetchUpstreamIcon, type StoredIcon } from './upstream-icons.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { SealedPrivateKey } from '../primitives/records.js';
import type { UpstreamProviderRow } from '../store/federation-repository.js';
import type { Repository } from '../store/repository.js';
import type { UserClaims } from '../store/identity-repository.js';

/**
 * Upstream OpenID Providers, as an operator configures them (CLI, config file, admin API all end
 * in `putProvider`). The client credential is sealed at rest under KEY_ENCRYPTION_KEY exactly as a
 * signing key is (`oauth/keys/key-sealing.ts`), with the provider's id as associated data.
 */

/** RFC 6749 §2.3.1 Basic, or RFC 7523 §2.2 `private_key_jwt` (OIDC Core §9). */
export const UPSTREAM_CLIENT_AUTH = ['client_secret_basic', 'private_key_jwt'] as const;
export type UpstreamClientAuth = (typeof UPSTREAM_CLIENT_AUTH)[number];

/** The local claims an upstream claim may fill (OIDC Core §5.1). */
export const MAPPED_CLAIMS = ['name', 'given_name', 'family_name', 'preferred_username', 'email'] as const;
export type MappedClaim = (typeof MAPPED_CLAIMS)[number];

/** What an operator says of a provider; the wire names (snake_case) of the config file and the CLI's JSON. */
export interface UpstreamProviderInput {
  readonly id: string;
  readonly issuer: string;
  readonly client_id: string;
  readonly client_auth?: UpstreamClientAuth;
  /** For `client_secret_basic`. */
  readonly client_secret?: string;
  /** For `private_key_jwt`: the private JWK (with its `alg`, ES256 or RS256 or PS256). */
  readonly private_jwk?: JsonWebKey & { readonly kid?: string; readonly alg?: string };
  readonly scopes?: readonly string[];
  readonly display_name?: string;
  /**
   * An image shown beside the name on the sign-in page: an https URL (http on loopback) or a
   * data:image/ URL, fetched when configured and served by Gatehouse (upstream-icons.ts).
   */
  readonly icon?: string;
  /** Home-realm discovery: e-mail domains whose users are sent to this provider. */
  readonly domains?: readonly string[];
  /**
   * Domains for which the upstream's `email_verified: true` is trusted to link an existing local
   * account with that e-mail without its password. Empty (the default): always ask for proof.
   */
  readonly trust_email_verified_domains?: readonly string[];
  /** Whether a first sign-in with no local account makes one (just in time). Default true. */
  readonly provision?: boolean;
  /** Local claim ← upstream claim; the default maps each claim to the claim of the same name. */
  readonly claims?: Partial<Record<MappedClaim, string>>;
  /** RP-initiated logout at Gatehouse also ends the upstream session (its end_session_endpoint). */
  readonly end_session?: boolean;
  /**
   * Upstream `acr` values (OIDC Core §2) the operator trusts as multi-factor: a sign-in whose
   * upstream ID token carries one counts as `mfa` here (primitives/acr.ts). Default none.
   */
  readonly mfa_acr_values?: readonly string[];
}

/** The settings kept beside the credential, in the `settings` column. */
export interface ProviderSettings {
  readonly scopes: readonly string[];
  readonly displayName: string;
  readonly icon: string | undefined;
  /** The icon as fetched, checked and served; absent without an icon (or in settings stored before it). */
  readonly iconImage?: StoredIcon;
  readonly domains: readonly string[];
  readonly trustEmailVerifiedDomains: readonly string[];
  readonly provision: boolean;
  readonly claims: Partial<Record<MappedClaim, string>>;
  readonly endSession: boolean;
  /** Upstream acr values that count as multi-factor; absent in settings stored before it existed. */
  readonly mfaAcrValues?: readonly string[];
}

/** A provider, its credential opened: what the relying party uses. */
export interface UpstreamProvider extends ProviderSettings {
  readonly id: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientAuth: UpstreamClientAuth;
  readonly clientSecret: string | undefined;
  readonly privateJwk: (JsonWebKey & { readonly kid?: string; readonly alg?: string }) | undefined;
}

const ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function refuse(message: string): never {
  throw new OperatorInputError(message);
}

function domainsOf(name: string, value: readonly string[] | undefined): string[] {
  const domains = (value ?? []).map((d) => d.trim().toLowerCase());
  for (const d of domains) if (!DOMAIN.test(d)) refuse(`${name}: '${d}' is not a domain name`);
  return domains;
}

function isIconUrl(icon: unknown): boolean {
  if (typeof icon !== 'string') return false;
  if (icon.startsWith('data:image/')) return true;
  try {
    const url = new URL(icon);
    return isHttpsOrLoopbackHttp(url) && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** The input checked: every refusal says what to fix. */
export function checkedProviderInput(input: UpstreamProviderInput): {
  readonly row: Omit<UpstreamProviderRow, 'credential' | 'settings' | 'createdAt' | 'updatedAt'>;
  readonly settings: ProviderSettings;
  readonly secret:
    { readonly kind: 'secret'; readonly value: string } | { readonly kind: 'jwk'; readonly value: JsonWebKey };
} {
  if (typeof input.id !== 'string' || !ID.test(input.id))
    refuse('id: lowercase letters, digits, - and _, at most 40, e.g. "corp"');
  let issuer: URL;
  try {
    issuer = new URL(input.issuer);
  } catch {
    refuse(`issuer: '${String(input.issuer)}' is not a URL`);
  }
  // OIDC Discovery §3 / RFC 8414 §2: the issuer is an https URL without query or fragment; plain
  // http only on loopback, the rule the relying party applies to every request (relying-party.ts).
  if (issuer.search !== '' || issuer.hash !== '') refuse('issuer: no query or fragment');
  if (issuer.username !== '' || issuer.password !== '') refuse('issuer: no user name or password in the URL');
  if (!isHttpsOrLoopbackHttp(issuer)) refuse(`issuer: '${issuer.href}' must be ${LOOPBACK_HTTP_RULE}`);
  if (typeof input.client_id !== 'string' || input.client_id === '') refuse('client_id: required');
  const clientAuth = input.client_auth ?? 'client_secret_basic';
  if (!UPSTREAM_CLIENT_AUTH.includes(clientAuth)) refuse(`client_auth: one of ${UPSTREAM_CLIENT_AUTH.join(', ')}`);
  const secret =
    clientAuth === 'client_secret_basic'
      ? {
          kind: 'secret' as const,
          value: input.client_secret ?? refuse('client_secret: required for client_secret_basic'),
        }
      : { kind: 'jwk' as const, value: input.private_jwk ?? refuse('private_jwk: required for private_key_jwt') };
  if (secret.kind === 'jwk' && typeof (secret.value as { d?: unknown }).d !== 'string')
    refuse('private_jwk: a private key (with "d")');
  const scopes = [...(input.scopes ?? ['openid', 'profile', 'email'])];
  if (!scopes.includes('openid')) refuse('scopes: must include openid');
  const claims = { ...(input.claims ?? {}) };
  for (const key of Object.keys(claims))
    if (!MAPPED_CLAIMS.includes(key as MappedClaim))
      refuse(`claims: '${key}' is not one of ${MAPPED_CLAIMS.join(', ')}`);
  const mfaAcrValues: unknown = input.mfa_acr_values ?? [];
  if (!Array.isArray(mfaAcrValues) || mfaAcrValues.some((v) => typeof v !== 'string' || v.trim() === ''))
    refuse(
      'mfa_acr_values: a list of acr values, e.g. ["http://schemas.openid.net/pape/policies/2007/06/multi-factor"]',
    );
  if (input.icon !== undefined && !isIconUrl(input.icon))
    refuse(`icon: a data:image/ URL, or a URL that is ${LOOPBACK_HTTP_RULE}`);
  return {
    row: { id: input.id, issuer: issuer.href.replace(/\/$/, ''), clientId: input.client_id, clientAuth },
    settings: {
      scopes,
      displayName: input.display_name ?? input.id,
      icon: input.icon,
      domains: domainsOf('domains', input.domains),
      trustEmailVerifiedDomains: domainsOf('trust_email_verified_domains', input.trust_email_verified_domains),
      provision: input.provision ?? true,
      claims,
      endSession: input.end_session ?? false,
      mfaAcrValues: [...(mfaAcrValues as string[])],
    },
    secret,
  };
}

/** The private_key_jwt signing key (RFC 7523 §2.2): the JWK imported for its `alg` (ES256 for EC, else RS256). */
export async function upstreamSigningKey(jwk: NonNullable<UpstreamProviderInput['private_jwk']>): Promise<CryptoKey> {
  const key = await importJWK(jwk, jwk.alg ?? (jwk.kty === 'EC' ? 'ES256' : 'RS256'));
  if (key instanceof Uint8Array) throw new Error('not an asymmetric key');
  return key;
}

/** The associated data a sealed credential is bound to: a credential copied to another row does not open. */
const sealingContext = (id: string): string => `upstream:${id}`;

/**
 * The icon to store: fetched and checked when the entry's `icon` is new or changed, kept as it was
 * when unchanged (UPSTREAMS_FILE applies every entry at every start; the icon's host need not be up).
 */
async function iconImageOf(
  icon: string | undefined,
  existing: UpstreamProviderRow | undefined,
): Promise<{ iconImage?: StoredIcon }> {
  if (icon === undefined) return {};
  const before = existing && (JSON.parse(existing.settings) as ProviderSettings).iconImage;
  return { iconImage: before?.source === icon ? before : await fetchUpstreamIcon(icon) };
}

/** Stores a provider (new, or replacing the one with its id), its credential sealed when a key is set. */
export async function putProvider(
  store: Repository,
  input: UpstreamProviderInput,
  now: number,
  encryption: KeyEncryption | undefined,
): Promise<UpstreamProvider> {
  const checked = checkedProviderInput(input);
  const { row, secret } = checked;
  const plain: JsonWebKey = secret.kind === 'secret' ? { kty: 'oct', k: secret.value } : secret.value;
  const credential = encryption ? encryption.seal(plain, sealingContext(row.id)) : plain;
  const existing = await store.findUpstreamProvider(row.id);
  if (secret.kind === 'jwk')
    await upstreamSigningKey(secret.value).catch((error: Error) =>
      refuse(`private_jwk: Gatehouse cannot sign with it (${error.message})`),
    );
  const settings = { ...checked.settings, ...(await iconImageOf(checked.settings.icon, existing)) };
  await store.putUpstreamProvider({
    ...row,
    credential: JSON.stringify(credential),
    settings: JSON.stringify(settings),
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  });
  return openProvider(
    {
      ...row,
      credential: JSON.stringify(credential),
      settings: JSON.stringify(settings),
      createdAt: now,
      updatedAt: now,
    },
    encryption,
  );
}

/** A stored provider with its credential opened. */
export function openProvider(row: UpstreamProviderRow, encryption: KeyEncryption | undefined): UpstreamProvider {
  const stored = JSON.parse(row.credential) as JsonWebKey | SealedPrivateKey;
  let plain: JsonWebKey;
  if (isSealed(stored)) {
    if (!encryption)
      throw new Error(
        `upstream ${row.id}: its credential is sealed: set KEY_ENCRYPTION_KEY to the key it was sealed with`,
      );
    plain = encryption.open(stored, sealingContext(row.id));
  } else plain = stored;
  const settings = JSON.parse(row.settings) as ProviderSettings;
  const clientAuth = row.clientAuth as UpstreamClientAuth;
  return {
    ...settings,
    id: row.id,
    issuer: row.issuer,
    clientId: row.clientId,
    clientAuth,
    clientSecret: clientAuth === 'client_secret_basic' ? (plain as { k?: string }).k : undefined,
    privateJwk: clientAuth === 'private_key_jwt' ? plain : undefined,
  };
}

/** What the sign-in page and the CLI show of a provider: never its credential. */
export function describeProvider(p: UpstreamProvider, sealed: boolean): Record<string, unknown> {
  return {
    id: p.id,
    issuer: p.issuer,
    client_id: p.clientId,
    client_auth: p.clientAuth,
    credential_sealed: sealed,
    scopes: p.scopes,
    display_name: p.displayName,
    icon: p.icon,
    domains: p.domains,
    trust_email_verified_domains: p.trustEmailVerifiedDomains,
    provision: p.provision,
    claims: p.claims,
    end_session: p.endSession,
    mfa_acr_values: p.mfaAcrValues ?? [],
  };
}

/** Every provider, opened. */
export async function listProviders(
  store: Repository,
  encryption: KeyEncryption | undefined,
): Promise<UpstreamProvider[]> {
  return (await store.listUpstreamProviders()).map((row) => openProvider(row, encryption));
}

/** The provider serving an e-mail's domain (home-realm discovery), if any. */
export function providerForEmail(providers: readonly UpstreamProvider[], email: string): UpstreamProvider | undefined {
  const at = email.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return providers.find((p) => p.domains.includes(domain));
}

/** The local claims an upstream's claims give, through the provider's mapping (OIDC Core §5.1). */
export function mappedClaims(provider: UpstreamProvider, upstream: Readonly<Record<string, unknown>>): UserClaims {
  const claims: Record<string, string | boolean> = {};
  for (const claim of MAPPED_CLAIMS) {
    const value = upstream[provider.claims[claim] ?? claim];
    if (typeof value === 'string' && value.trim() !== '') claims[claim] = value.trim().normalize('NFC');
  }
  // email_verified follows the e-mail it speaks of, and only when that e-mail is the upstream's `email`.
  if (claims.email !== undefined && (provider.claims.email ?? 'email') === 'email')
    claims.email_verified = upstream.email_verified === true;
  return claims;
}
