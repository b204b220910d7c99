import { sign, type KeyObject } from 'node:crypto';

/**
 * Compact JWS with ES256 (RFC 7515 §7.1, RFC 7518 §3.4), signed with node:crypto: on the token hot
 * path it is several times faster than a general JOSE library. Verification is jose's job. Signed on
 * the event loop: handed to libuv's pool, as RS256 is below, a refresh cost more CPU and answered
 * fewer requests a second (docs/performance.md, "Measured and not adopted").
 */
export function signEs256Jwt(header: JwsHeader, payload: object, key: KeyObject): string {
  const signingInput = `${encodedHeader(header)}.${base64url(payload)}`;
  // RFC 7518 §3.4: the signature is R || S, not DER.
  const signature = sign('sha256', Buffer.from(signingInput), { key, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${signature.toString('base64url')}`;
}

/**
 * Compact JWS with RS256 (RFC 7518 §3.3: RSASSA-PKCS1-v1_5 with SHA-256), for ID tokens (OIDC Core
 * §15.1 makes RS256 the algorithm every provider supports). Signed on libuv's thread pool, not on
 * the event loop: an RSA-2048 signature costs about ten ES256 ones (320-370 µs against 39 on the
 * bench's machine), and meanwhile the loop serves other requests, so that one process uses a second
 * core for them (docs/performance.md, "Refresh").
 */
export function signRs256Jwt(header: JwsHeader, payload: object, key: KeyObject): Promise<string> {
  const signingInput = `${encodedHeader(header)}.${base64url(payload)}`;
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(signingInput), key, (error, signature) => {
      if (error) reject(error);
      else resolve(`${signingInput}.${signature.toString('base64url')}`);
    });
  });
}

/** The JOSE header of a token signed here (RFC 7515 §4.1): its algorithm, key id and type. */
export interface JwsHeader {
  readonly alg: 'ES256' | 'RS256';
  readonly typ: string;
  readonly kid: string;
}

/**
 * Encoded headers, by algorithm, type and key id: a server signs with one or two keys, so its every
 * token repeats one of a few headers, and encoding one again (JSON, then base64url) cost 1.2 µs of
 * each signature. Emptied past a few dozen, which only key rotations make.
 */
const encodedHeaders = new Map<string, string>();
const MAX_ENCODED_HEADERS = 32;

function encodedHeader({ alg, typ, kid }: JwsHeader): string {
  // typ's length makes the id unambiguous whatever the two strings hold.
  const id = `${alg} ${typ.length} ${typ}${kid}`;
  let encoded = encodedHeaders.get(id);
  if (encoded === undefined) {
    if (encodedHeaders.size >= MAX_ENCODED_HEADERS) encodedHeaders.clear();
    // Always these three members in this order, whatever object the caller built.
    encoded = base64url({ alg, typ, kid });
    encodedHeaders.set(id, encoded);
  }
  return encoded;
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
