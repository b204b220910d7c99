import * as crypto from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { InvalidDpopProof, type DpopSignatureStep, type SignedDpopProof } from '../access-token/index.js';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify, type JWK } from 'jose';

const NOT_SIGNED =
  'The DPoP proof is not a JWS of typ dpop+jwt signed with an accepted algorithm by the public key of its jwk.';

/**
 * RFC 9449 §4.3 steps 2-7 through jose: compact, `typ` dpop+jwt, `alg` in the allow-list, signed by
 * the public key of its own `jwk` header (jose's EmbeddedJWK refuses a private or symmetric key).
 * Every proof the node:crypto path below does not take comes here.
 */
export const joseDpopSignature: DpopSignatureStep = async (proof, algorithms) => {
  try {
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: [...algorithms],
    });
    const jkt = await calculateJwkThumbprint(protectedHeader.jwk as JWK, 'sha256');
    return { header: protectedHeader, payload, jkt };
  } catch (error) {
    throw new InvalidDpopProof(NOT_SIGNED, { cause: error });
  }
};

/** The header a client SDK writes (RFC 9449 §4.2), and nothing else. */
const PLAIN_HEADER = new Set(['alg', 'typ', 'jwk']);
/** An RFC 7638 P-256 public key without optional members; `d` (a private key) is not among them. */
const PLAIN_JWK = new Set(['kty', 'crv', 'x', 'y']);
/** A P-256 coordinate: 32 bytes, base64url without padding (RFC 7518 §6.2.1.2). */
const P256_COORDINATE = /^[A-Za-z0-9_-]{43}$/;
/** The longest proof header (base64url) DpopKeys keeps: twice a plain ES256 header's 200 or so. */
const MAX_REMEMBERED_HEADER = 400;

/**
 * The signature step of the server's token endpoint and resources and of the resource-server kit: proofs as client SDKs make them (ES256, typ dpop+jwt,
 * a bare P-256 `jwk`, no `exp` or `nbf`) verified with node:crypto and the key of a recent proof
 * reused; anything else through jose (`joseDpopSignature`). The path accepts only what jose
 * accepts, and refuses on its own only a signature that does not verify.
 *
 * A plain proof is answered synchronously (a forged one refused by a throw), so that a resource's
 * check needs no promise; any other proof gets jose's promise.
 *
 * A proof costs one ECDSA verification and, for a key seen before, no key import nor thumbprint:
 * jose's jwtVerify imports the key through WebCrypto on every call, several times the cost of the
 * verification itself (docs/performance.md, "DPoP").
 */
export function dpopSignatureStep(keyCacheSize: number): DpopSignatureStep {
  const keys = new DpopKeys(keyCacheSize);
  // Not async: a plain ES256 proof is answered (or refused, by a throw) at once; jose's path is a promise.
  return (proof, algorithms) =>
    (algorithms.includes('ES256') ? plainEs256(proof, keys) : undefined) ?? joseDpopSignature(proof, algorithms);
}

/**
 * The proof, if it is a plain ES256 one whose signature verifies; InvalidDpopProof if its signature
 * does not; undefined sends it to jose.
 */
export function plainEs256(proof: string, keys: DpopKeys): SignedDpopProof | undefined {
  const parts = proof.split('.');
  if (parts.length !== 3) return undefined;
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  // A header seen before, byte for byte (the segment is what the signature covers), passed the
  // checks below then: its key is reused without decoding it again.
  const cached = keys.ofHeader(encodedHeader);
  const known = cached ?? plainHeader(encodedHeader, keys);
  if (known === undefined) return undefined;
  const payload = jsonObjectOf(encodedPayload);
  // RFC 7519 §4.1.4, §4.1.5: jose checks exp and nbf against its own clock; a proof with them is its case.
  if (payload === undefined || Object.hasOwn(payload, 'exp') || Object.hasOwn(payload, 'nbf')) return undefined;
  // §4.3 step 6 (RFC 7518 §3.4: R || S), over the signing input as sent.
  const signature = Buffer.from(encodedSignature, 'base64url');
  const input = Buffer.from(`${encodedHeader}.${encodedPayload}`, 'latin1');
  // jose would verify the same bytes with the same key: a forged proof is refused here, not verified twice.
  if (!verify('sha256', input, { key: known.key.key, dsaEncoding: 'ieee-p1363' }, signature))
    throw new InvalidDpopProof(NOT_SIGNED);
  if (cached === undefined) keys.rememberHeader(encodedHeader, known);
  return { header: known.header, payload, jkt: known.key.jkt };
}

/**
 * RFC 9449 §4.3 steps 4, 5 and 7 for a header first seen: exactly `typ` dpop+jwt, `alg` ES256 (in
 * the allow-list, checked by the caller) and a bare public P-256 `jwk`, its key imported (or found)
 * in `keys`. Undefined sends the proof to jose.
 */
function plainHeader(encodedHeader: string, keys: DpopKeys): PlainHeader | undefined {
  const header = jsonObjectOf(encodedHeader);
  if (header === undefined || !hasOnly(header, PLAIN_HEADER) || header.alg !== 'ES256' || header.typ !== 'dpop+jwt')
    return undefined;
  const jwk = header.jwk;
  if (!isPlainObject(jwk) || !hasOnly(jwk, PLAIN_JWK) || jwk.kty !== 'EC' || jwk.crv !== 'P-256') return undefined;
  if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') return undefined;
  if (!P256_COORDINATE.test(jwk.x) || !P256_COORDINATE.test(jwk.y)) return undefined;
  const key = keys.of(jwk.x, jwk.y);
  if (key === undefined) return undefined;
  return { header: Object.freeze(header), key };
}

/** A base64url segment's JSON object (RFC 7515 §5.2 steps 2-4), strictly decoded; else undefined. */
function jsonObjectOf(segment: string): Record<string, unknown> | undefined {
  // A length of 4n+1 is no base64url: jose refuses it, Buffer would drop its last character.
  if (segment.length % 4 === 1) return undefined;
  const bytes = Buffer.from(segment, 'base64url');
  // Strict UTF-8 (jose decodes it too); checked natively, then decoded without TextDecoder's
  // per-call setup. A BOM is kept, so JSON.parse refuses it and jose, which drops it, decides.
  if (!isUtf8(bytes)) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnly(object: Record<string, unknown>, members: ReadonlySet<string>): boolean {
  for (const member in object) if (!members.has(member)) return false;
  return true;
}

interface DpopKey {
  readonly key: KeyObject;
  /** RFC 7638 SHA-256 thumbprint, base64url. */
  readonly jkt: string;
}

/** A proof header that passed plainHeader's checks, and its key. */
interface PlainHeader {
  readonly header: Readonly<Record<string, unknown>>;
  readonly key: DpopKey;
}

/**
 * The P-256 public keys of recent proofs with their thumbprints, by their RFC 7638 thumbprint input
 * (the key itself): a client proves with one key for many requests. The least recently used goes
 * when `capacity` is reached, so a stream of new keys costs an import each and no memory. Beside
 * them, as many proof headers (base64url, as sent) that passed the checks, with their key: an SDK
 * sends the same header with every proof of a key.
 */
export class DpopKeys {
  readonly #capacity: number;
  readonly #keys = new Map<string, DpopKey>();
  readonly #headers = new Map<string, PlainHeader>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** The checked header of this encoded segment, when seen before. */
  ofHeader(encodedHeader: string): PlainHeader | undefined {
    return this.#headers.get(encodedHeader);
  }

  /**
   * Remembers a checked header of a proof whose signature verified; past the capacity the oldest
   * goes. One longer than an SDK's header (about 200 characters; whitespace may pad a header up to
   * the HTTP limit) is not kept, so the memory stays bounded.
   */
  rememberHeader(encodedHeader: string, plain: PlainHeader): void {
    if (encodedHeader.length > MAX_REMEMBERED_HEADER) return;
    if (this.#headers.size >= this.#capacity) this.#headers.delete(this.#headers.keys().next().value as string);
    this.#headers.set(encodedHeader, plain);
  }

  /** The key of these coordinates; undefined when they are no point of P-256 (jose then refuses). */
  of(x: string, y: string): DpopKey | undefined {
    // RFC 7638 §3.2: the required members, in lexicographic order, no whitespace.
    const canonical = `{"crv":"P-256","kty":"EC","x":"${x}","y":"${y}"}`;
    const known = this.#keys.get(canonical);
    if (known !== undefined) {
      this.#keys.delete(canonical);
      this.#keys.set(canonical, known);
      return known;
    }
    let key: KeyObject;
    try {
      key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x, y }, format: 'jwk' });
    } catch {
      return undefined;
    }
    const made = { key, jkt: sha256Base64url(canonical) };
    if (this.#keys.size >= this.#capacity) this.#keys.delete(this.#keys.keys().next().value as string);
    this.#keys.set(canonical, made);
    return made;
  }
}

const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string }).hash;
/** SHA-256, base64url: through crypto.hash where Node.js has it (20.12 and later), no Hash object per call. */
export function sha256Base64url(text: string): string {
  return typeof oneShotHash === 'function'
    ? oneShotHash('sha256', text, 'base64url')
    : crypto.createHash('sha256').update(text).digest('base64url');
}
