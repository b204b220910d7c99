import { base64UrlEncode } from './base64.js';

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
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    return DpopKey.fromKeyPair(pair);
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

function base64UrlJson(value: object): string {
  return base64UrlEncode(new TextEncoder().encode(JSON.stringify(value)));
}
