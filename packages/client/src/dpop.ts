import { base64UrlEncode } from './base64.js';

/**
 * The private half of an ES256 DPoP key as a JWK (RFC 7517 §6.2.2), as a store that holds private
 * keys keeps it (`TokenStore.holdsPrivateKeys`: the encrypted token file).
 */
export interface DpopPrivateJwk {
  readonly kty: 'EC';
  readonly crv: 'P-256';
  readonly x: string;
  readonly y: string;
  readonly d: string;
}

const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/**
 * A DPoP key (RFC 9449) and the proofs it signs, for the token endpoint and the API. WebCrypto
 * only: in a browser the private key is made non-extractable, so script that reads the token store
 * still cannot use a copied token elsewhere. Remembers the last server-provided nonce (§8, §9) per
 * origin and puts it in the next proof.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9449 RFC 9449
 */
export class DpopKey {
  readonly #privateKey: CryptoKey;
  readonly #header: string;
  readonly #nonces = new Map<string, string>();

  private constructor(privateKey: CryptoKey, publicJwk: JsonWebKey) {
    this.#privateKey = privateKey;
    const jwk = { kty: 'EC', crv: 'P-256', x: publicJwk.x, y: publicJwk.y };
    this.#header = base64UrlJson({ alg: 'ES256', typ: 'dpop+jwt', jwk });
  }

  /** A new ES256 key; its private half cannot be exported (`extractable: false`). */
  static async generate(): Promise<DpopKey> {
    const pair = await crypto.subtle.generateKey(ES256, false, ['sign', 'verify']);
    return DpopKey.fromKeyPair(pair);
  }

  /**
   * A new ES256 key whose private half is exported once, as the JWK to store (only in a store that
   * holds private keys: the encrypted token file); the key in memory is that JWK imported back
   * non-extractable.
   */
  static async generateForStorage(): Promise<{ key: DpopKey; jwk: DpopPrivateJwk }> {
    const pair = await crypto.subtle.generateKey(ES256, true, ['sign', 'verify']);
    const { x, y, d } = await crypto.subtle.exportKey('jwk', pair.privateKey);
    if (x === undefined || y === undefined || d === undefined) throw new TypeError('WebCrypto exported no EC JWK');
    const jwk: DpopPrivateJwk = { kty: 'EC', crv: 'P-256', x, y, d };
    return { key: await DpopKey.fromPrivateJwk(jwk), jwk };
  }

  /** A stored key: the private JWK imported non-extractable. WebCrypto refuses a JWK that is not a P-256 key. */
  static async fromPrivateJwk(jwk: DpopPrivateJwk): Promise<DpopKey> {
    const { kty, crv, x, y, d } = jwk;
    const privateKey = await crypto.subtle.importKey('jwk', { kty, crv, x, y, d }, ES256, false, ['sign']);
    return new DpopKey(privateKey, { x, y });
  }

  /** An existing ES256 key pair (a stored one: its private key may stay non-extractable). */
  static async fromKeyPair(pair: CryptoKeyPair): Promise<DpopKey> {
    return new DpopKey(pair.privateKey, await crypto.subtle.exportKey('jwk', pair.publicKey));
  }

  /** A proof for one request (§4.2): `htu` without query and fragment, `ath` when a token goes with it. */
  async proof(htm: string, url: string, accessToken?: string): Promise<string> {
    const target = new URL(url);
    const claims: Record<string, unknown> = {
      htm,
      htu: `${target.origin}${target.pathname}`,
      iat: Math.floor(Date.now() / 1000),
      jti: crypto.randomUUID(),
    };
    const nonce = this.#nonces.get(target.origin);
    if (nonce !== undefined) claims.nonce = nonce;
    if (accessToken !== undefined)
      claims.ath = base64UrlEncode(
        new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken))),
      );
    const input = `${this.#header}.${base64UrlJson(claims)}`;
    const signature = await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      this.#privateKey,
      new TextEncoder().encode(input),
    );
    return `${input}.${base64UrlEncode(new Uint8Array(signature))}`;
  }

  /**
   * Notes the `DPoP-Nonce` of a response (§8.1, §9); true when it is new, that is when a request
   * refused with `use_dpop_nonce` is worth one retry.
   */
  noteNonce(url: string, response: Response): boolean {
    const nonce = response.headers.get('dpop-nonce');
    if (nonce === null) return false;
    const origin = new URL(url).origin;
    const changed = this.#nonces.get(origin) !== nonce;
    this.#nonces.set(origin, nonce);
    return changed;
  }
}

/** Whether `value` has the shape of a DpopPrivateJwk (what a store gave back, before WebCrypto reads it). */
export function isDpopPrivateJwk(value: unknown): value is DpopPrivateJwk {
  if (typeof value !== 'object' || value === null) return false;
  const { kty, crv, x, y, d } = value as Record<string, unknown>;
  return kty === 'EC' && crv === 'P-256' && [x, y, d].every((part) => typeof part === 'string' && part !== '');
}

function base64UrlJson(value: object): string {
  return base64UrlEncode(new TextEncoder().encode(JSON.stringify(value)));
}
