import { OperatorInputError } from '../../primitives/operator-input-error.js';
import { GRANT_TYPE_NAMES, isGrantTypeName, type GrantTypeName } from '../../primitives/grant-types.js';
import {
  isPublicClient,
  SECOND_FACTOR_POLICIES,
  type ClientRecord,
  type JsonWebKeySet,
  type SecondFactorPolicy,
} from '../../primitives/records.js';
import { jwksProblem, jwksUriProblem } from '../keys/index.js';
import { checkFapi2Client, profileOf } from '../sender-constraints/index.js';
import type { Repository } from '../../store/repository.js';
import { digestOf } from '../../primitives/secrets.js';
import { newOpaqueSecret } from '../../primitives/random.js';
import { redirectUriRefusal, redirectUriRefusalMessage } from './redirect-uris.js';

const DAY = 24 * 60 * 60;

/** Defaults for a new client's token policy. */
const CLIENT_DEFAULTS = {
  rotation: true,
  rotationLimit: 1,
  maxRotations: null,
  refreshTokenTtl: 14 * DAY,
  refreshTokenAbsoluteTtl: 90 * DAY,
  accessTokenTtl: 5 * 60,
  replayWindow: 0,
} as const;

/** The longest replay window a client may have (docs/architecture.md, "Concurrent refresh"). */
export const MAX_REPLAY_WINDOW = 300;

export const DEFAULT_ACCESS_TOKEN_TTL = CLIENT_DEFAULTS.accessTokenTtl;

/**
 * The refresh policy of an agent that describes itself (a client ID metadata document): the same
 * rotation contract as every client (single use, reuse revokes the family, RFC 9700 §4.14.2), with a
 * 60-second replay window because agents refresh from several processes or hosts at once (an MCP
 * connector, a CLI and its background task) and would otherwise revoke their own family
 * (docs/refresh-tokens.md, "Concurrent refresh"; docs/agents.md).
 */
export const AGENT_REFRESH_POLICY = {
  rotation: CLIENT_DEFAULTS.rotation,
  rotationLimit: CLIENT_DEFAULTS.rotationLimit,
  maxRotations: CLIENT_DEFAULTS.maxRotations,
  refreshTokenTtl: CLIENT_DEFAULTS.refreshTokenTtl,
  refreshTokenAbsoluteTtl: CLIENT_DEFAULTS.refreshTokenAbsoluteTtl,
  replayWindow: 60,
} as const;

export interface ClientRegistration {
  readonly id: string;
  readonly name: string;
  readonly public?: boolean;
  readonly redirectUris?: readonly string[];
  /** Checked against the grant registry. */
  readonly grantTypes?: readonly string[];
  readonly scope?: readonly string[];
  readonly rotation?: boolean;
  readonly rotationLimit?: number;
  readonly maxRotations?: number | null;
  readonly refreshTokenTtl?: number;
  readonly refreshTokenAbsoluteTtl?: number;
  /** Seconds; 0 (the default) turns the single-successor replay window off. */
  readonly replayWindow?: number;
  readonly accessTokenTtl?: number;
  readonly resourceServer?: boolean;
  /** `id_token_signed_response_alg` (OIDC Registration §2): RS256 (the default, OIDC Core §15.1) or ES256. */
  readonly idTokenAlg?: string;
  /** Where RP-initiated logout may return the browser, compared exactly. */
  readonly postLogoutRedirectUris?: readonly string[];
  /** RFC 9449 §5.2 `dpop_bound_access_tokens`: every token request must carry a DPoP proof. */
  readonly dpopBoundAccessTokens?: boolean;
  /**
   * An admin client (`gatehouse clients add --admin`): confidential with client_credentials alone, or
   * an operators' sign-in client (authorization_code); the only kind of client that may hold the
   * ADMIN_SCOPES. No other path sets it.
   */
  readonly admin?: boolean;
  /** Token exchange (RFC 8693) policy: audiences it may ask for besides this server's own. */
  readonly exchangeAudiences?: readonly string[];
  /** Audiences of the subject tokens it may exchange besides its own tokens (the APIs it serves). */
  readonly exchangeSubjectAudiences?: readonly string[];
  /** Whether an exchange without an actor token impersonates (no `act`). */
  readonly exchangeImpersonation?: boolean;
  /** Whether an exchange may ask for a refresh token (RFC 8693 §2.1 `requested_token_type`). */
  readonly exchangeRefreshTokens?: boolean;
  /** The client's public keys (RFC 7591 §2 `jwks`), a JWK Set; at most one of `jwks` and `jwksUri`. */
  readonly jwks?: unknown;
  /** Where the client publishes its public keys (RFC 7591 §2 `jwks_uri`), https. */
  readonly jwksUri?: string | null;
  /**
   * `private_key_jwt` (RFC 7523 §2.2): the client authenticates only with assertions signed by its
   * keys and has no secret. Registering keys for a confidential client chooses it unless it says otherwise.
   */
  readonly authMethod?: 'private_key_jwt';
  /** RFC 9126 §6: its authorization requests must be pushed to /par. */
  readonly requirePushedAuthorizationRequests?: boolean;
  /** `second_factor`: off, optional or required; absent: the server's SECOND_FACTOR. */
  readonly secondFactor?: string;
  /** The security profile (oauth/sender-constraints/fapi-profile.ts): `fapi2`, or `none`/absent for none. */
  readonly profile?: string | null;
}

/** The scopes of the admin API (`/admin/v1`): `:read` for its read-only operations. */
export const ADMIN_SCOPE = 'gatehouse:admin';
export const ADMIN_READ_SCOPE = 'gatehouse:admin:read';
const ADMIN_SCOPES: readonly string[] = [ADMIN_SCOPE, ADMIN_READ_SCOPE];

/**
 * The scopes `client` may be granted: its registered scope, less the admin scopes unless it is an
 * admin client. A client registered before admin clients existed may have them in its scope; it
 * still never gets them.
 */
export function grantableScope(client: Pick<ClientRecord, 'scope' | 'admin'>): readonly string[] {
  return client.admin === true ? client.scope : client.scope.filter((s) => !ADMIN_SCOPES.includes(s));
}

const CLIENT_ID = /^[A-Za-z0-9._~-]{1,128}$/;

/** Registers a client; returns it with the secret's plaintext, which exists only in this answer. */
export async function registerClient(
  store: Repository,
  r: ClientRegistration,
  now: number,
): Promise<{ client: ClientRecord; secret: string | null }> {
  // A confidential client registered with keys authenticates with them (private_key_jwt), not a secret.
  const keyed = (r.jwks ?? null) !== null || (r.jwksUri ?? null) !== null;
  const client = clientFromRegistration(keyed && !r.public ? { authMethod: 'private_key_jwt', ...r } : r, now);
  const secret = r.public || client.authMethod === 'private_key_jwt' ? null : newOpaqueSecret();
  const stored: ClientRecord = { ...client, secretDigest: secret === null ? null : digestOf(secret) };
  // One statement decides: two registrations of one id at once get one client and one conflict.
  if (!(await store.insertClientIfAbsent(stored)))
    throw new OperatorInputError(`client '${client.id}' already exists`, 'conflict');
  return { client: stored, secret };
}

/**
 * The client `r` registers (every field checked), without a secret; nothing is stored. `idStored`:
 * the new settings of a client already stored, whose id is not checked again (a client ID metadata
 * document's URL is one, which no one registers).
 */
export function clientFromRegistration(
  r: ClientRegistration,
  now: number,
  { idStored = false }: { readonly idStored?: boolean } = {},
): ClientRecord {
  if (!idStored && !CLIENT_ID.test(r.id))
    throw new OperatorInputError('client id must be 1 to 128 characters of [A-Za-z0-9._~-]');
  const grantTypes = (
    r.grantTypes ??
    (r.admin
      ? r.public
        ? ['authorization_code', 'refresh_token']
        : ['client_credentials']
      : r.public
        ? ['authorization_code', 'refresh_token']
        : ['authorization_code', 'refresh_token', 'client_credentials'])
  ).map(knownGrantType);
  if (r.public && grantTypes.includes('client_credentials'))
    throw new OperatorInputError('a public client cannot use client_credentials');
  const scope = [...new Set(r.scope ?? (r.admin ? ADMIN_SCOPES : []))];
  checkAdminRules(r, grantTypes, scope);
  // RFC 6749 §3.3: a request may ask only for scope the client is registered for, so a public client
  // (authorization code only) without any could never be granted anything of use.
  if (r.public && scope.length === 0)
    throw new OperatorInputError(
      "a public client needs a scope (--scope, e.g. 'openid contacts:read'): without one, every authorization request that asks for a scope is refused with invalid_scope, and one that asks for none is granted nothing",
    );
  const redirectUris = r.redirectUris ?? [];
  redirectUris.forEach(checkRedirectUri);
  const policy = {
    rotation: r.rotation ?? CLIENT_DEFAULTS.rotation,
    rotationLimit: positive('rotation limit', r.rotationLimit ?? CLIENT_DEFAULTS.rotationLimit),
    maxRotations: r.maxRotations == null ? null : positive('max rotations', r.maxRotations),
    refreshTokenTtl: positive('refresh token TTL', r.refreshTokenTtl ?? CLIENT_DEFAULTS.refreshTokenTtl),
    refreshTokenAbsoluteTtl: positive(
      'absolute TTL',
      r.refreshTokenAbsoluteTtl ?? CLIENT_DEFAULTS.refreshTokenAbsoluteTtl,
    ),
    replayWindow: replayWindowOf(r.replayWindow ?? CLIENT_DEFAULTS.replayWindow),
  };
  const profile = profileOf(r.profile);
  const keys = clientKeysOf(r);
  checkFapi2Client({ id: r.id, profile, ...keys }, r.public === true);
  return {
    id: r.id,
    name: r.name,
    secretDigest: null,
    redirectUris,
    grantTypes: [...new Set(grantTypes)],
    scope,
    policy,
    accessTokenTtl: positive('access token TTL', r.accessTokenTtl ?? CLIENT_DEFAULTS.accessTokenTtl),
    resourceServer: r.resourceServer ?? false,
    createdAt: now,
    idTokenAlg: idTokenAlgOf(r.idTokenAlg),
    postLogoutRedirectUris: checkedPostLogoutRedirectUris(r.postLogoutRedirectUris ?? []),
    ...(r.dpopBoundAccessTokens === true ? { dpopBoundAccessTokens: true } : {}),
    admin: r.admin === true,
    tokenExchange: {
      audiences: exchangeAudiences('exchange audience', r.exchangeAudiences),
      subjectAudiences: exchangeAudiences('exchange subject audience', r.exchangeSubjectAudiences),
      impersonation: r.exchangeImpersonation === true,
      refreshTokens: r.exchangeRefreshTokens === true,
    },
    ...keys,
    ...(r.requirePushedAuthorizationRequests === true ? { requirePushedAuthorizationRequests: true } : {}),
    ...(r.secondFactor === undefined ? {} : { secondFactor: secondFactorOf(r.secondFactor) }),
    ...(profile === undefined ? {} : { profile }),
  };
}

function secondFactorOf(value: string): SecondFactorPolicy {
  const policy = SECOND_FACTOR_POLICIES.find((p) => p === value);
  if (policy === undefined)
    throw new OperatorInputError(`second_factor is off, optional or required, got ${JSON.stringify(value)}`);
  return policy;
}

/**
 * The keys a registration names (RFC 7591 §2: `jwks` or `jwks_uri`, never both) and its method: a
 * client of private_key_jwt needs keys; a confidential client with a secret may hold keys as well.
 */
function clientKeysOf(r: ClientRegistration): Pick<ClientRecord, 'jwks' | 'jwksUri' | 'authMethod'> {
  const jwks = r.jwks ?? null;
  const jwksUri = r.jwksUri ?? null;
  if (jwks !== null && jwksUri !== null) throw new OperatorInputError('a client has jwks or a jwks_uri, not both');
  const problem = jwks !== null ? jwksProblem(jwks) : jwksUri !== null ? jwksUriProblem(jwksUri) : undefined;
  if (problem !== undefined) throw new OperatorInputError(problem);
  const keyed = jwks !== null || jwksUri !== null;
  if (r.public && keyed) throw new OperatorInputError('a public client has no keys: it cannot authenticate');
  if (r.authMethod === 'private_key_jwt' && !keyed)
    throw new OperatorInputError('a client of private_key_jwt needs its keys: jwks or jwks_uri');
  return {
    ...(jwks === null ? {} : { jwks: jwks as JsonWebKeySet }),
    ...(jwksUri === null ? {} : { jwksUri }),
    ...(r.authMethod === undefined ? {} : { authMethod: r.authMethod }),
  };
}

/**
 * RFC 8693 §2.1 `audience` values are logical names or URIs: any printable text without spaces,
 * at most 512 characters, as a client sends it.
 */
function exchangeAudiences(what: string, values: readonly string[] | undefined): string[] {
  const list = [...new Set(values ?? [])];
  for (const value of list)
    if (!/^[\x21-\x7e]{1,512}$/.test(value))
      throw new OperatorInputError(`${what} '${value}' must be 1 to 512 printable characters without spaces`);
  return list;
}

/**
 * The admin scopes belong to admin clients only, whoever registers the client (CLI, admin API,
 * dynamic registration). An admin client is either a confidential client of client_credentials alone
 * (RFC 6749 §4.4), whose tokens name the client itself, or a sign-in client for operators (the
 * console): authorization_code with PKCE (and refresh_token), public or confidential, whose tokens
 * name a user and reach the admin API only for its audience and with the user's admin roles
 * (admin-api/caller.ts).
 */
function checkAdminRules(r: ClientRegistration, grantTypes: readonly string[], scope: readonly string[]): void {
  if (!r.admin) {
    const reserved = scope.find((s) => ADMIN_SCOPES.includes(s));
    if (reserved !== undefined)
      throw new OperatorInputError(
        `the scope '${reserved}' is only for admin clients, made with gatehouse clients add --admin`,
      );
    return;
  }
  const clientCredentials = grantTypes.length === 1 && grantTypes[0] === 'client_credentials';
  const signIn =
    grantTypes.includes('authorization_code') &&
    grantTypes.every((g) => g === 'authorization_code' || g === 'refresh_token');
  if (!clientCredentials && !signIn)
    throw new OperatorInputError(
      'an admin client uses the client_credentials grant alone, or authorization_code (and refresh_token) for operators signing in',
    );
  if (r.public && !signIn) throw new OperatorInputError('an admin client is confidential: it cannot be --public');
}

/** A `grant_type` of the registry's vocabulary (primitives/grant-types.ts, implemented by oauth/grants/). */
function knownGrantType(name: string): GrantTypeName {
  if (!isGrantTypeName(name))
    throw new OperatorInputError(`unknown grant type '${name}'; use ${GRANT_TYPE_NAMES.join(', ')}`);
  return name;
}

function replayWindowOf(seconds: number): number {
  if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > MAX_REPLAY_WINDOW)
    throw new OperatorInputError(`replay window must be from 0s to ${MAX_REPLAY_WINDOW}s`);
  return seconds;
}

function idTokenAlgOf(alg: string | undefined): 'RS256' | 'ES256' {
  if (alg === undefined || alg === 'RS256' || alg === 'ES256') return alg ?? 'RS256';
  throw new OperatorInputError(`the ID token algorithm is RS256 or ES256, not '${alg}'`);
}

/** RP-Initiated Logout 1.0 §3.1: absolute URIs, registered in advance, compared exactly. */
function checkedPostLogoutRedirectUris(uris: readonly string[]): string[] {
  uris.forEach((uri) => {
    try {
      checkRedirectUri(uri);
    } catch (error) {
      if (error instanceof OperatorInputError)
        throw new OperatorInputError(error.message.replace('redirect URI', 'post-logout redirect URI'));
      throw error;
    }
  });
  return [...new Set(uris)];
}

function positive(what: string, n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new OperatorInputError(`${what} must be a whole number of at least 1`);
  return n;
}

/**
 * RFC 6749 §3.1.2: absolute, no fragment; plain http only for loopback (RFC 8252 §7.3). URI
 * characters only (RFC 3986 §2), the rule the authorization endpoint matches by: `new URL` would
 * drop a tab or a trailing NUL and encode a space or `é`, so such a URI would register and never match.
 */
function checkRedirectUri(uri: string): void {
  const refusal = redirectUriRefusal(uri);
  if (refusal !== undefined) throw new OperatorInputError(redirectUriRefusalMessage(uri, refusal));
}

/** The client as operators see it: never the secret or its digest. */
export function describeClient(c: ClientRecord): Record<string, unknown> {
  return {
    client_id: c.id,
    name: c.name,
    type: isPublicClient(c) ? 'public' : 'confidential',
    redirect_uris: c.redirectUris,
    grant_types: c.grantTypes,
    scope: c.scope.join(' '),
    rotation: c.policy.rotation,
    rotation_limit: c.policy.rotationLimit,
    max_rotations: c.policy.maxRotations,
    refresh_token_ttl: c.policy.refreshTokenTtl,
    refresh_token_absolute_ttl: c.policy.refreshTokenAbsoluteTtl,
    replay_window: c.policy.replayWindow,
    access_token_ttl: c.accessTokenTtl,
    resource_server: c.resourceServer,
    id_token_signed_response_alg: c.idTokenAlg ?? 'RS256',
    post_logout_redirect_uris: c.postLogoutRedirectUris ?? [],
    token_exchange: {
      audiences: c.tokenExchange?.audiences ?? [],
      subject_audiences: c.tokenExchange?.subjectAudiences ?? [],
      impersonation: c.tokenExchange?.impersonation ?? false,
      refresh_tokens: c.tokenExchange?.refreshTokens ?? false,
    },
    created_at: new Date(c.createdAt * 1000).toISOString(),
    ...(c.admin === true ? { admin: true } : {}),
    token_endpoint_auth_method: c.authMethod ?? (isPublicClient(c) ? 'none' : 'client_secret_basic'),
    ...(c.jwks ? { jwks: c.jwks } : {}),
    ...(c.jwksUri ? { jwks_uri: c.jwksUri } : {}),
    require_pushed_authorization_requests: c.requirePushedAuthorizationRequests === true,
    ...(c.dpopBoundAccessTokens === true ? { dpop_bound_access_tokens: true } : {}),
    ...(c.secondFactor === undefined ? {} : { second_factor: c.secondFactor }),
    profile: c.profile ?? 'none',
  };
}
