import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { isHttpsOrLoopbackHttp } from '../../primitives/loopback.js';
import type { ClientRecord, JsonWebKeySet } from '../../primitives/records.js';

/**
 * The algorithms a client may sign its assertions (RFC 7523 §2.2) and request objects (RFC 9101)
 * with: asymmetric only. `none` proves nothing, and an HMAC key would be the client secret, which a
 * client of private_key_jwt does not have (RFC 7518 §3.1; OIDC Core §9 names client_secret_jwt
 * apart, and Gatehouse does not offer it).
 */
export const CLIENT_SIGNING_ALGS = [
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
  'EdDSA',
] as const;

/** Fetches a client's JWK Set from its `jwks_uri`: an SSRF-safe fetch with a timeout and a size limit. */
export type JwksFetcher = (uri: string) => Promise<JsonWebKeySet>;

interface CachedSet {
  readonly keys: JWTVerifyGetKey;
  readonly fetchedAt: number;
}

/** How long a fetched key set is used before it is fetched again (seconds). */
const JWKS_URI_CACHE_SECONDS = 300;
/** A key set is fetched again for an unknown `kid` at most this often (seconds): key rotation, not a flood. */
const JWKS_URI_REFETCH_SECONDS = 30;
/** Key sets cached at most; the oldest leave first. */
const JWKS_URI_CACHE_ENTRIES = 1000;

/**
 * The public keys of clients: the inline `jwks` of a client, or the set at its `jwks_uri`, fetched
 * through `fetcher` and cached per URI for five minutes (fetched again sooner, at most every 30 s,
 * when a token names a key the cached set lacks: the client rotated its keys).
 */
export class ClientKeys {
  readonly #fetcher: JwksFetcher | undefined;
  readonly #now: () => number;
  readonly #byUri = new Map<string, CachedSet>();

  constructor(fetcher: JwksFetcher | undefined, now: () => number) {
    this.#fetcher = fetcher;
    this.#now = now;
  }

  /** A key getter for jose over the client's keys; undefined when the client has none. */
  keysOf(client: Pick<ClientRecord, 'jwks' | 'jwksUri'>): JWTVerifyGetKey | undefined {
    if (client.jwks) return createLocalJWKSet(client.jwks as JSONWebKeySet);
    const uri = client.jwksUri;
    if (!uri) return undefined;
    return async (header, token) => {
      const cached = await this.#cached(uri, false);
      try {
        return await cached.keys(header, token);
      } catch (error) {
        if (this.#now() - cached.fetchedAt < JWKS_URI_REFETCH_SECONDS) throw error;
        return (await this.#cached(uri, true)).keys(header, token);
      }
    };
  }

  async #cached(uri: string, refresh: boolean): Promise<CachedSet> {
    const now = this.#now();
    const cached = this.#byUri.get(uri);
    if (cached && !refresh && now - cached.fetchedAt < JWKS_URI_CACHE_SECONDS) return cached;
    if (!this.#fetcher) throw new Error('no fetcher for jwks_uri');
    const set = await this.#fetcher(uri);
    const entry = { keys: createLocalJWKSet(set as JSONWebKeySet), fetchedAt: now };
    this.#byUri.delete(uri);
    this.#byUri.set(uri, entry);
    if (this.#byUri.size > JWKS_URI_CACHE_ENTRIES) this.#byUri.delete(this.#byUri.keys().next().value as string);
    return entry;
  }
}

/**
 * A JWK Set a client may register: an object with `keys`, each a public key of a kind the signing
 * algorithms use (EC, RSA, OKP), never a private part or a symmetric key. Returns the problem, or
 * undefined when the set is acceptable.
 */
export function jwksProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'jwks must be a JSON object';
  const keys = (value as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0) return 'jwks must hold a non-empty "keys" array';
  if (keys.length > 20) return 'jwks may hold at most 20 keys';
  for (const key of keys as unknown[]) {
    if (typeof key !== 'object' || key === null) return 'each key of jwks must be a JSON object';
    const jwk = key as Record<string, unknown>;
    if (!['EC', 'RSA', 'OKP'].includes(jwk['kty'] as string)) return 'each key of jwks must be of kty EC, RSA or OKP';
    // RFC 7517 §9.2 / RFC 7518 §6: a private key's parameters never belong in a registration.
    if (['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'].some((member) => member in jwk))
      return 'jwks must hold public keys only';
  }
  return undefined;
}

/** RFC 7591 §2: `jwks_uri` is an https URL (http only on loopback, for development: primitives/loopback.ts). */
export function jwksUriProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'jwks_uri must be a string';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'jwks_uri must be an absolute URL';
  }
  if (!isHttpsOrLoopbackHttp(url)) return 'jwks_uri must use https';
  if (url.hash !== '' || url.username !== '' || url.password !== '')
    return 'jwks_uri must have no fragment or credentials';
  return undefined;
}
