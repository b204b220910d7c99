import type { JsonWebKeySet } from '../../primitives/records.js';
import { safeFetch, type SafeFetchOptions } from '../../outbound/safe-fetch.js';
import { jwksProblem, type JwksFetcher } from './client-keys.js';

/** A client's key set is small: a few public keys. */
const JWKS_MAX_BYTES = 64 * 1024;
/** One fetch, resolution to body, while a client waits for its token. */
const JWKS_TIMEOUT_MS = 3000;

/** Where a jwks_uri may lead beyond public addresses, and the test hooks of the safe fetch. */
export type JwksFetchPolicy = Pick<SafeFetchOptions, 'allowAddresses' | 'ca' | 'resolve'>;

/**
 * Fetches a client's `jwks_uri` (RFC 7591 §2) through the SSRF-safe fetch (outbound/safe-fetch.ts):
 * https (or http on loopback, as registration accepts: primitives/loopback.ts), public addresses
 * only unless the operator allows others (JWKS_URI_ALLOW_ADDRESSES, which a loopback jwks_uri
 * needs too), no redirects, at most 64 KiB within 3 s; a 200 holding a JWK Set of public keys, or it
 * throws (and the client's authentication fails).
 */
export function safeJwksFetcher(policy: JwksFetchPolicy = {}): JwksFetcher {
  return async (uri) => {
    const response = await safeFetch(uri, {
      ...policy,
      allowLoopbackHttp: true,
      maxBytes: JWKS_MAX_BYTES,
      timeoutMs: JWKS_TIMEOUT_MS,
      accept: 'application/jwk-set+json, application/json',
    });
    if (response.status !== 200) throw new Error(`jwks_uri answered ${response.status}`);
    const set = JSON.parse(response.body.toString('utf8')) as unknown;
    const problem = jwksProblem(set);
    if (problem !== undefined) throw new Error(`jwks_uri: ${problem}`);
    return set as JsonWebKeySet;
  };
}
