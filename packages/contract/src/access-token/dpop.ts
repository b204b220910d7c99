/**
 * The rules of a DPoP proof (RFC 9449), once for the token endpoint, the server's resources and the
 * resource-server kit. The JWS signature itself is checked by an injected step (jose, in the server
 * and the kit): this file runs in browsers and has no JOSE library.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9449 RFC 9449
 */
import { B64TOKEN } from './authorization-header.js';

/**
 * RFC 9449 §4.3 step 5: asymmetric algorithms only, never `none` nor a MAC. What the server and the
 * kit accept and announce (`dpop_signing_alg_values_supported`, the challenge's `algs`).
 */
export const DPOP_SIGNING_ALGORITHMS: readonly string[] = Object.freeze([
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'EdDSA',
]);

/** How long after its `iat` a proof is accepted (RFC 9449 §4.3 step 11), and how far ahead of the clock. */
export const DPOP_PROOF_LIFETIME = 60;
export const DPOP_CLOCK_SKEW = 5;

/** Why a proof was refused: the `invalid_dpop_proof` of RFC 9449 §5 and §7.1. */
export class InvalidDpopProof extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'InvalidDpopProof';
  }
}

/** RFC 9449 §8, §9: the proof lacks the nonce the server gives (or an old one); retry with `nonce`. */
export class DpopNonceRequired extends Error {
  readonly nonce: string;
  constructor(nonce: string) {
    super('The DPoP proof must carry the nonce the server provides in the DPoP-Nonce header.');
    this.name = 'DpopNonceRequired';
    this.nonce = nonce;
  }
}

/** A proof whose JWS verified with the public key of its own `jwk` header (RFC 9449 §4.3 steps 2-7). */
export interface SignedDpopProof {
  readonly header: { readonly typ?: unknown; readonly alg?: unknown };
  readonly payload: Readonly<Record<string, unknown>>;
  /** The RFC 7638 SHA-256 thumbprint of the proof's `jwk`, base64url. */
  readonly jkt: string;
}

/**
 * Verifies the proof's JWS: compact, `typ` `dpop+jwt`, `alg` one of `algorithms`, signed by the
 * public key in its `jwk` header (a private key there is refused). Refuses by throwing (or rejecting
 * with) InvalidDpopProof; answers at once when nothing has to wait (a key verified synchronously).
 */
export type DpopSignatureStep = (
  proof: string,
  algorithms: readonly string[],
) => SignedDpopProof | Promise<SignedDpopProof>;

/** What a proof must say of the request it comes with. */
export interface DpopExpectations {
  /** The request's method (`htm`). */
  readonly method: string;
  /** The request's URL as the client addressed it (`htu` is compared without query and fragment). */
  readonly url: string;
  /** Epoch seconds. */
  readonly now: number;
  /** At a resource (§7.1): the access token, whose hash `ath` must be. */
  readonly accessToken?: string;
  /** The key the proof must be signed by (§7.1 `cnf.jkt`, §10 `dpop_jkt`), when one is known. */
  readonly jkt?: string;
}

/** A proof that passed every check but the replay check, which the caller's store answers. */
export interface CheckedDpopProof {
  readonly jkt: string;
  readonly jti: string;
  readonly iat: number;
  readonly nonce: string | undefined;
}

/**
 * RFC 9449 §4.3 step 9 and §4.3's note on normalization: the `htu` and the request's URL compared
 * after the syntax- and scheme-based normalization of RFC 3986 §6.2.2 and §6.2.3 (case of the scheme
 * and host, default port, percent-encoding, dot segments, an empty path as `/`), without query and
 * fragment. Undefined when the value is not an absolute http(s) URL.
 */
export function normalizedHtu(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** The last request URL normalized, and its normalization: an endpoint is asked of the same URL again and again. */
let lastUrl: string | undefined;
let lastNormalized: string | undefined;

/** §4.3 step 9: an `htu` written as the URL itself (as clients write it) needs no second parse. */
function sameHtu(htu: string, url: string): boolean {
  if (url !== lastUrl) {
    lastNormalized = normalizedHtu(url);
    lastUrl = url;
  }
  const expected = lastNormalized;
  return expected !== undefined && (htu === url || normalizedHtu(htu) === expected);
}

/** RFC 9449 §4.2: the compact JWS syntax, three base64url parts, nothing else. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * RFC 9449 §4.3: checks one `DPoP` header value. Steps 1-7 (a single well-formed JWT, `typ`, `alg`,
 * signature, public `jwk`) through `verifySignature`; then the claims: `jti`, `htm` (step 8), `htu`
 * (step 9), `iat` within the window (step 11), `ath` (step 12, at a resource) and the key (§7.1,
 * §10). The nonce (step 10) and the replay of `jti` are the caller's: they need its state.
 *
 * Synchronous when `verifySignature` and `hashOfToken` answer at once (node:crypto's path, the
 * proofs SDKs send): the checked proof is returned, a refusal thrown as InvalidDpopProof. A promise
 * otherwise, rejecting with the refusal. Callers `await` it either way; a resource's hot path skips
 * the promise and its microtasks.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9449#section-4.3 RFC 9449 §4.3
 */
export function checkDpopProof(
  proof: string,
  expected: DpopExpectations,
  verifySignature: DpopSignatureStep,
  hashOfToken: (token: string) => string | Promise<string>,
): CheckedDpopProof | Promise<CheckedDpopProof> {
  // §4.3 step 1: exactly one header, a JWT (a list or a JSON serialization is refused).
  if (!COMPACT_JWS.test(proof)) throw new InvalidDpopProof('The DPoP header is not a single compact JWS.');
  const signed = verifySignature(proof, DPOP_SIGNING_ALGORITHMS);
  return signed instanceof Promise
    ? signed.then((verified) => checkedClaims(verified, expected, hashOfToken))
    : checkedClaims(signed, expected, hashOfToken);
}

/** §4.3 steps 8, 9, 11, 12 and §7.1 of a proof whose signature verified (see checkDpopProof). */
function checkedClaims(
  { payload, jkt }: SignedDpopProof,
  expected: DpopExpectations,
  hashOfToken: (token: string) => string | Promise<string>,
): CheckedDpopProof | Promise<CheckedDpopProof> {
  const { jti, htm, htu, iat, ath, nonce } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256)
    throw new InvalidDpopProof('The DPoP proof has no usable jti.');
  if (htm !== expected.method) throw new InvalidDpopProof('The DPoP proof htm does not match the request method.');
  if (typeof htu !== 'string' || !sameHtu(htu, expected.url))
    throw new InvalidDpopProof('The DPoP proof htu does not match the request URL.');
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new InvalidDpopProof('The DPoP proof has no iat.');
  if (iat > expected.now + DPOP_CLOCK_SKEW || iat < expected.now - DPOP_PROOF_LIFETIME)
    throw new InvalidDpopProof('The DPoP proof iat is outside the accepted window.');
  if (nonce !== undefined && typeof nonce !== 'string')
    throw new InvalidDpopProof('The DPoP proof nonce is malformed.');
  const checked: CheckedDpopProof = { jkt, jti, iat, nonce };
  if (expected.accessToken === undefined) return boundTo(checked, expected);
  // §4.3 step 12, §7.1: ath is the base64url SHA-256 of the access token's ASCII.
  const hash = hashOfToken(expected.accessToken);
  return typeof hash === 'string'
    ? withAth(checked, ath, hash, expected)
    : hash.then((digest) => withAth(checked, ath, digest, expected));
}

function withAth(checked: CheckedDpopProof, ath: unknown, hash: string, expected: DpopExpectations): CheckedDpopProof {
  if (typeof ath !== 'string' || ath !== hash)
    throw new InvalidDpopProof('The DPoP proof ath does not match the access token.');
  return boundTo(checked, expected);
}

/** §7.1, §10: the proof is signed by the key the token (or the authorization code) is bound to. */
function boundTo(checked: CheckedDpopProof, expected: DpopExpectations): CheckedDpopProof {
  if (expected.jkt !== undefined && checked.jkt !== expected.jkt)
    throw new InvalidDpopProof('The DPoP proof is not signed by the key the token is bound to.');
  return checked;
}

/**
 * `DPoP <token>` (RFC 9449 §7.1, the token68 syntax of RFC 6750's b64token), the scheme
 * case-insensitive: the token, or undefined.
 */
export const DPOP_CREDENTIALS = new RegExp(`^DPoP +(${B64TOKEN})$`, 'i');

export function dpopTokenOf(authorization: string): string | undefined {
  return DPOP_CREDENTIALS.exec(authorization)?.[1];
}

/**
 * The access token's hash as `ath` carries it (§4.2): base64url(SHA-256(ASCII)), through WebCrypto,
 * for runtimes without node:crypto. On Node.js, pass `sha256Base64url` of `@gatehouse/contract/node`
 * to `checkDpopProof` instead: WebCrypto's digest is a job on libuv's thread pool and a promise,
 * measured (2026-11-30) as the largest single cost of a DPoP request at the kit, above the proof's
 * ECDSA verification.
 */
export async function accessTokenHash(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
