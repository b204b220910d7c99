import { OAuthError } from '@gatehouse/contract';
import { isGrantTypeName } from '../../primitives/grant-types.js';
import { hasOnlyUriCharacters, isLoopbackIpRedirectUri } from './redirect-uris.js';
import { parseScope } from '../tokens/index.js';
import type { JsonWebKeySet } from '../../primitives/records.js';
import { jwksProblem, jwksUriProblem } from '../keys/index.js';
import {
  CLIENT_PROFILES,
  fapi2Problem,
  type ClientProfileName,
  type Fapi2Problem,
} from '../sender-constraints/index.js';

/** The client authentication methods a registered client may choose (RFC 7591 §2, RFC 8414 §2). */
const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const;
export type TokenEndpointAuthMethod = (typeof AUTH_METHODS)[number];

/**
 * Client metadata as registered (RFC 7591 §2): what the client sent that the server understands,
 * with the defaults of §2 filled in. Wire names, as the registration response echoes them.
 */
export interface ClientMetadata {
  readonly redirect_uris: readonly string[];
  readonly token_endpoint_auth_method: TokenEndpointAuthMethod;
  readonly grant_types: readonly string[];
  readonly response_types: readonly string[];
  readonly client_name?: string;
  readonly scope: string;
  readonly client_uri?: string;
  readonly logo_uri?: string;
  readonly tos_uri?: string;
  readonly policy_uri?: string;
  readonly contacts?: readonly string[];
  readonly software_id?: string;
  readonly software_version?: string;
  /** §2: the client's public keys, by value or by reference (never both). */
  readonly jwks?: JsonWebKeySet;
  readonly jwks_uri?: string;
  /** RFC 9126 §6: its authorization requests must be pushed. */
  readonly require_pushed_authorization_requests?: boolean;
  /**
   * A Gatehouse extension (RFC 7591 §2 lets a server define more metadata): the security profile the
   * client is held to, `fapi2` (the FAPI 2.0 Security Profile, oauth/sender-constraints/fapi-profile.ts) or `none`.
   */
  readonly profile?: ClientProfileName;
  /** §2.2: the client's name in other languages, `client_name#de`, by canonical BCP 47 tag. */
  readonly [localizedName: `client_name#${string}`]: string;
}

const TEXT_FIELDS = ['client_name', 'software_id', 'software_version'] as const;
const URL_FIELDS = ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri'] as const;
const MAX_TEXT = 200;
const MAX_URI = 2000;
const MAX_LIST = 20;
// Printable text: no control characters, which a consent page or a log would have to escape.
const PRINTABLE = /^[^\p{Cc}]+$/u;
// Any non-empty string: redirect URIs get the stricter character rule of matching, with its own error.
const ANY_TEXT = /^[^]+$/u;

/**
 * Checks a registration request's metadata (RFC 7591 §2) and returns it as registered. Fields the
 * server does not understand are ignored (§2). `offeredScopes` are the scopes a client may ask for;
 * when the request names none, the client is registered for all of them (§2, `scope`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-2 RFC 7591 §2
 */
export function checkClientMetadata(body: unknown, offeredScopes: readonly string[]): ClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OAuthError('client_metadata_not_object');
  }
  // RFC 7592 §2.2: a field sent as null is a field left out.
  const fields = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
  const authMethod = tokenEndpointAuthMethod(fields['token_endpoint_auth_method']);
  // §2: grant_types defaults to authorization_code, response_types to code. A public client of the
  // code flow that names no grant types also gets refresh_token (§3.2.1 lets the server substitute a
  // value, and the response says so): agents that leave it out, like those that forget
  // offline_access, would otherwise send their user through the browser every hour (docs/agents.md,
  // "Refresh tokens for agents"). Naming grant_types without refresh_token is the way to say no.
  const grantTypes =
    stringList(fields, 'grant_types') ??
    (authMethod === 'none' ? ['authorization_code', 'refresh_token'] : ['authorization_code']);
  if (!grantTypes.every(isGrantTypeName)) throw new OAuthError('registered_grant_type_unsupported');
  const responseTypes =
    stringList(fields, 'response_types') ?? (grantTypes.includes('authorization_code') ? ['code'] : []);
  // §2.1: code goes with authorization_code, and this server has no other response type.
  const usesCode = grantTypes.includes('authorization_code');
  if (responseTypes.some((t) => t !== 'code') || responseTypes.includes('code') !== usesCode) {
    throw new OAuthError('registered_response_types_inconsistent');
  }
  if (authMethod === 'none' && grantTypes.includes('client_credentials')) {
    throw new OAuthError('registered_public_client_credentials');
  }
  const redirectUris = checkedRedirectUris(fields, usesCode);
  const metadata: Record<string, unknown> = {
    redirect_uris: redirectUris,
    token_endpoint_auth_method: authMethod,
    grant_types: [...new Set(grantTypes)],
    response_types: [...new Set(responseTypes)],
    scope: checkedScope(fields['scope'], offeredScopes),
  };
  for (const name of TEXT_FIELDS) {
    const value = optionalText(fields, name);
    if (value !== undefined) metadata[name] = value;
  }
  Object.assign(metadata, checkPresentationFields(fields));
  const contacts = stringList(fields, 'contacts');
  if (contacts !== undefined) metadata['contacts'] = contacts;
  const keys = checkedKeys(fields, authMethod);
  Object.assign(metadata, keys);
  const profile = checkedProfile(fields['profile'], authMethod, keys);
  if (profile !== undefined) metadata['profile'] = profile;
  const requirePar: unknown = fields['require_pushed_authorization_requests'];
  if (requirePar !== undefined && typeof requirePar !== 'boolean')
    throw new OAuthError('client_metadata_field_invalid', 'require_pushed_authorization_requests');
  if (requirePar === true) metadata['require_pushed_authorization_requests'] = true;
  return metadata as unknown as ClientMetadata;
}

/**
 * §2 `jwks` or `jwks_uri`, never both: required for private_key_jwt (RFC 7523 §2.2), allowed beside
 * a secret (for signed request objects), refused for a public client, which authenticates with nothing.
 */
function checkedKeys(
  fields: Readonly<Record<string, unknown>>,
  authMethod: TokenEndpointAuthMethod,
): Pick<ClientMetadata, 'jwks' | 'jwks_uri'> {
  const { jwks, jwks_uri: jwksUri } = fields;
  if (jwks !== undefined && jwksUri !== undefined) throw new OAuthError('client_metadata_field_invalid', 'jwks_uri');
  if (jwks !== undefined && jwksProblem(jwks) !== undefined)
    throw new OAuthError('client_metadata_field_invalid', 'jwks');
  if (jwksUri !== undefined && jwksUriProblem(jwksUri) !== undefined)
    throw new OAuthError('client_metadata_field_invalid', 'jwks_uri');
  const keyed = jwks !== undefined || jwksUri !== undefined;
  if (keyed === false && authMethod === 'private_key_jwt')
    throw new OAuthError('client_metadata_field_invalid', 'jwks');
  if (keyed && authMethod === 'none') throw new OAuthError('client_metadata_field_invalid', 'jwks');
  return {
    ...(jwks === undefined ? {} : { jwks: jwks as JsonWebKeySet }),
    ...(jwksUri === undefined ? {} : { jwks_uri: jwksUri as string }),
  };
}

/** The catalog reason of each way a registration could not comply with the fapi2 profile. */
const FAPI2_REFUSALS = {
  public: 'registered_fapi2_public',
  no_keys: 'registered_fapi2_no_keys',
  client_secret: 'registered_fapi2_client_secret',
} as const satisfies Record<Fapi2Problem, string>;

/**
 * `profile`, `fapi2` or `none`: a fapi2 registration is held to the compliance check the CLI and the
 * admin API use (FAPI 2.0 §5.3.2.1: a confidential client; §5.4.1: private_key_jwt, no secret), and
 * refused with RFC 7591 §3.2.2 invalid_client_metadata naming why.
 */
function checkedProfile(
  value: unknown,
  authMethod: TokenEndpointAuthMethod,
  keys: Pick<ClientMetadata, 'jwks' | 'jwks_uri'>,
): ClientProfileName | undefined {
  if (value === undefined) return undefined;
  const profile = CLIENT_PROFILES.find((p) => p === value);
  if (profile === undefined) throw new OAuthError('client_metadata_field_invalid', 'profile');
  if (profile !== 'fapi2') return profile;
  const client = {
    jwks: keys.jwks ?? null,
    jwksUri: keys.jwks_uri ?? null,
    ...(authMethod === 'private_key_jwt' ? { authMethod } : {}),
  };
  const problem = fapi2Problem(client, authMethod === 'none');
  if (problem !== undefined) throw new OAuthError(FAPI2_REFUSALS[problem]);
  return profile;
}

function tokenEndpointAuthMethod(value: unknown): TokenEndpointAuthMethod {
  // §2: client_secret_basic when omitted.
  if (value === undefined) return 'client_secret_basic';
  if (typeof value !== 'string') throw new OAuthError('client_metadata_field_invalid', 'token_endpoint_auth_method');
  const method = AUTH_METHODS.find((m) => m === value);
  if (method === undefined) throw new OAuthError('registered_auth_method_unsupported');
  return method;
}

/**
 * §2 redirect_uris, required for the redirect-based grant; RFC 6749 §3.1.2: absolute, no fragment.
 * https, or plain http on a loopback IP literal only (RFC 8252 §7.3, §8.3: not `localhost`). URI
 * characters only (RFC 3986 §2), as the authorization endpoint matches them: a control, a space or
 * non-ASCII is refused here (RFC 7591 §3.2.2, invalid_redirect_uri) rather than never matched later.
 */
function checkedRedirectUris(fields: Readonly<Record<string, unknown>>, required: boolean): string[] {
  const uris = stringList(fields, 'redirect_uris', MAX_URI, ANY_TEXT) ?? [];
  if (required && uris.length === 0) throw new OAuthError('redirect_uris_missing');
  for (const uri of uris) {
    if (!hasOnlyUriCharacters(uri)) throw new OAuthError('registered_redirect_uri_characters');
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new OAuthError('registered_redirect_uri_malformed');
    }
    if (uri.includes('#') || url.username !== '' || url.password !== '') {
      throw new OAuthError('registered_redirect_uri_malformed');
    }
    if (url.protocol !== 'https:' && !isLoopbackIpRedirectUri(uri)) {
      throw new OAuthError('registered_redirect_uri_insecure');
    }
  }
  return [...new Set(uris)];
}

function checkedScope(value: unknown, offered: readonly string[]): string {
  if (value === undefined) return offered.join(' ');
  if (typeof value !== 'string') throw new OAuthError('client_metadata_field_invalid', 'scope');
  let scopes: string[] | undefined;
  try {
    scopes = parseScope(value);
  } catch {
    throw new OAuthError('client_metadata_field_invalid', 'scope');
  }
  if (scopes === undefined || scopes.length === 0) throw new OAuthError('client_metadata_field_invalid', 'scope');
  if (!scopes.every((s) => offered.includes(s))) throw new OAuthError('registered_scope_unsupported');
  return scopes.join(' ');
}

/** The fields of how a client is presented (its links, logo and names by language), as given. */
export type PresentationFields = Partial<Record<(typeof URL_FIELDS)[number], string>> &
  Readonly<Record<`client_name#${string}`, string>>;

/**
 * The client's URLs (`client_uri`, `logo_uri`, `tos_uri`, `policy_uri`: http or https) and its
 * names by language (§2.2), checked; `client_metadata_field_invalid` naming the first that is not.
 */
export function checkPresentationFields(fields: Readonly<Record<string, unknown>>): PresentationFields {
  const checked: Record<string, string> = localizedNames(fields);
  for (const name of URL_FIELDS) {
    const value = optionalText(fields, name, MAX_URI);
    if (value !== undefined && !isWebUrl(value)) throw new OAuthError('client_metadata_field_invalid', name);
    if (value !== undefined) checked[name] = value;
  }
  return checked;
}

/** How many languages a client may name itself in (RFC 7591 §2.2). */
const MAX_LOCALIZED_NAMES = 20;

/**
 * RFC 7591 §2.2: `client_name#<BCP 47 tag>`, the client's name in that language, each held to
 * client_name's rules, its tag canonical (`client_name#DE-at` is kept as `client_name#de-AT`).
 */
function localizedNames(fields: Readonly<Record<string, unknown>>): Record<string, string> {
  const names: Record<string, string> = {};
  for (const field of Object.keys(fields).filter((f) => f.startsWith('client_name#'))) {
    const value = optionalText(fields, field);
    let tag: string | undefined;
    try {
      [tag] = Intl.getCanonicalLocales(field.slice('client_name#'.length));
    } catch {
      tag = undefined;
    }
    if (tag === undefined || value === undefined) throw new OAuthError('client_metadata_field_invalid', field);
    names[`client_name#${tag}`] = value;
  }
  if (Object.keys(names).length > MAX_LOCALIZED_NAMES)
    throw new OAuthError('client_metadata_field_invalid', 'client_name#');
  return names;
}

function optionalText(fields: Readonly<Record<string, unknown>>, name: string, max = MAX_TEXT): string | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > max || !PRINTABLE.test(value)) {
    throw new OAuthError('client_metadata_field_invalid', name);
  }
  return value;
}

/** A list of up to 20 strings of `text` (printable, unless told); undefined when absent. */
function stringList(
  fields: Readonly<Record<string, unknown>>,
  name: string,
  max = MAX_TEXT,
  text = PRINTABLE,
): string[] | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  const valid =
    Array.isArray(value) &&
    value.length <= MAX_LIST &&
    value.every((v) => typeof v === 'string' && v.length <= max && text.test(v));
  if (!valid) throw new OAuthError('client_metadata_field_invalid', name);
  return value as string[];
}

function isWebUrl(value: string): boolean {
  try {
    return ['https:', 'http:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
