/**
 * An upstream provider's form (docs/federation.md, "Configuring upstreams"): what the operator typed,
 * the checks made while typing (the server checks them again, and more), and the admin API's body.
 */

/** An upstream provider as the admin API answers it (GET /upstreams/{id}): never its credential. */
export interface Upstream {
  readonly id: string;
  readonly issuer: string;
  readonly client_id: string;
  readonly client_auth: 'client_secret_basic' | 'private_key_jwt';
  readonly credential_sealed: boolean;
  readonly scopes: readonly string[];
  readonly display_name: string;
  readonly icon?: string;
  readonly domains: readonly string[];
  readonly trust_email_verified_domains: readonly string[];
  readonly provision: boolean;
  readonly claims: Readonly<Record<string, string>>;
  readonly end_session: boolean;
  readonly mfa_acr_values: readonly string[];
}

/** The local claims a provider maps from the upstream's (providers.ts MAPPED_CLAIMS). */
export const MAPPED_CLAIMS = ['name', 'given_name', 'family_name', 'preferred_username', 'email'] as const;

/** The form's fields, as typed. */
export interface UpstreamForm {
  readonly id: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientAuth: 'client_secret_basic' | 'private_key_jwt';
  /** The client secret, or the private JWK as JSON: never answered, so typed at every save. */
  readonly credential: string;
  readonly displayName: string;
  readonly scopes: string;
  readonly domains: string;
  readonly trustedDomains: string;
  readonly provision: boolean;
  readonly endSession: boolean;
  readonly mfaAcrValues: string;
  readonly claims: Readonly<Record<string, string>>;
  readonly icon: string;
}

export const EMPTY_FORM: UpstreamForm = {
  id: '',
  issuer: '',
  clientId: '',
  clientAuth: 'client_secret_basic',
  credential: '',
  displayName: '',
  scopes: 'openid profile email',
  domains: '',
  trustedDomains: '',
  provision: true,
  endSession: false,
  mfaAcrValues: '',
  claims: {},
  icon: '',
};

/** The form of a provider read from the admin API (its credential empty: it is never answered). */
export function formOf(upstream: Upstream): UpstreamForm {
  return {
    id: upstream.id,
    issuer: upstream.issuer,
    clientId: upstream.client_id,
    clientAuth: upstream.client_auth,
    credential: '',
    displayName: upstream.display_name,
    scopes: upstream.scopes.join(' '),
    domains: upstream.domains.join(' '),
    trustedDomains: upstream.trust_email_verified_domains.join(' '),
    provision: upstream.provision,
    endSession: upstream.end_session,
    mfaAcrValues: upstream.mfa_acr_values.join(' '),
    claims: upstream.claims,
    icon: upstream.icon ?? '',
  };
}

/** Words separated by spaces, commas or new lines. */
export function wordsOf(text: string): string[] {
  return text.split(/[\s,]+/).filter((word) => word !== '');
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Why an issuer could never be accepted, or undefined: an absolute URL without query, fragment or
 * credentials, https or http on loopback (OIDC Discovery 1.0 §3, RFC 8414 §2; the server's rule,
 * primitives/loopback.ts).
 */
export function issuerRefusal(issuer: string): 'url' | 'query' | 'https' | undefined {
  if (issuer.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(issuer.trim());
  } catch {
    return 'url';
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return 'query';
  if (url.protocol === 'https:') return undefined;
  return url.protocol === 'http:' && LOOPBACK.test(url.hostname) ? undefined : 'https';
}

/** Why the private JWK could never be used, or undefined: JSON of a private key (with `d`). */
export function privateJwkRefusal(text: string): 'json' | 'private' | undefined {
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'json';
  }
  return typeof parsed === 'object' && parsed !== null && typeof (parsed as { d?: unknown }).d === 'string'
    ? undefined
    : 'private';
}

/** The admin API's body (PUT /upstreams/{id}, UpstreamPut): a full replacement. */
export function bodyOf(form: UpstreamForm): Record<string, unknown> {
  const claims = Object.fromEntries(
    Object.entries(form.claims)
      .map(([local, upstream]) => [local, upstream.trim()] as const)
      .filter(([, upstream]) => upstream !== ''),
  );
  return {
    issuer: form.issuer.trim(),
    client_id: form.clientId.trim(),
    client_auth: form.clientAuth,
    ...(form.clientAuth === 'client_secret_basic'
      ? { client_secret: form.credential }
      : { private_jwk: JSON.parse(form.credential) as unknown }),
    scopes: wordsOf(form.scopes),
    ...(form.displayName.trim() === '' ? {} : { display_name: form.displayName.trim() }),
    ...(form.icon.trim() === '' ? {} : { icon: form.icon.trim() }),
    domains: wordsOf(form.domains),
    trust_email_verified_domains: wordsOf(form.trustedDomains),
    provision: form.provision,
    claims,
    end_session: form.endSession,
    mfa_acr_values: wordsOf(form.mfaAcrValues),
  };
}
