import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { ClientRecord } from '../primitives/records.js';
import { GRANT_TYPES, isGrantType } from './grants/index.js';
import type { Repository } from '../store/repository.js';
import { digestOf } from '../primitives/secrets.js';
import { newOpaqueSecret } from '../primitives/random.js';

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
}

const CLIENT_ID = /^[A-Za-z0-9._~-]{1,128}$/;

/** Registers a client; returns it with the secret's plaintext, which exists only in this answer. */
export async function registerClient(
  store: Repository,
  r: ClientRegistration,
  now: number,
): Promise<{ client: ClientRecord; secret: string | null }> {
  const client = clientFromRegistration(r, now);
  if (await store.findClient(client.id)) throw new OperatorInputError(`client '${client.id}' already exists`);
  const secret = r.public ? null : newOpaqueSecret();
  const stored: ClientRecord = { ...client, secretDigest: secret === null ? null : digestOf(secret) };
  await store.insertClient(stored);
  return { client: stored, secret };
}

export function clientFromRegistration(r: ClientRegistration, now: number): ClientRecord {
  if (!CLIENT_ID.test(r.id)) throw new OperatorInputError('client id must be 1 to 128 characters of [A-Za-z0-9._~-]');
  const grantTypes =
    r.grantTypes ??
    (r.public
      ? ['authorization_code', 'refresh_token']
      : ['authorization_code', 'refresh_token', 'client_credentials']);
  for (const g of grantTypes)
    if (!isGrantType(g)) throw new OperatorInputError(`unknown grant type '${g}'; use ${GRANT_TYPES.join(', ')}`);
  if (r.public && grantTypes.includes('client_credentials'))
    throw new OperatorInputError('a public client cannot use client_credentials');
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
  return {
    id: r.id,
    name: r.name,
    secretDigest: null,
    redirectUris,
    grantTypes: [...new Set(grantTypes)],
    scope: [...new Set(r.scope ?? [])],
    policy,
    accessTokenTtl: positive('access token TTL', r.accessTokenTtl ?? CLIENT_DEFAULTS.accessTokenTtl),
    resourceServer: r.resourceServer ?? false,
    createdAt: now,
    idTokenAlg: idTokenAlgOf(r.idTokenAlg),
    postLogoutRedirectUris: checkedPostLogoutRedirectUris(r.postLogoutRedirectUris ?? []),
  };
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

/** RFC 6749 §3.1.2: absolute, no fragment; plain http only for loopback (RFC 8252 §7.3). */
function checkRedirectUri(uri: string): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new OperatorInputError(`redirect URI '${uri}' is not an absolute URI`);
  }
  if (url.hash !== '' || uri.includes('#'))
    throw new OperatorInputError(`redirect URI '${uri}' must not have a fragment`);
  const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  if (url.protocol === 'http:' && !loopback)
    throw new OperatorInputError(`redirect URI '${uri}' must use https (http only for loopback)`);
}

/** The client as operators see it: never the secret or its digest. */
export function describeClient(c: ClientRecord): Record<string, unknown> {
  return {
    client_id: c.id,
    name: c.name,
    type: c.secretDigest === null ? 'public' : 'confidential',
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
    created_at: new Date(c.createdAt * 1000).toISOString(),
  };
}
