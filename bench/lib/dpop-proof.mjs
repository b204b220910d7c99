// One DPoP proof checked as RFC 9449 §4.3 asks, for the floors (servers/floor-dpop.mjs, the DPoP
// Fastify route): proofs as the client SDKs write them (ES256, typ dpop+jwt, a bare P-256 `jwk`),
// the signature verified with node:crypto, the key imported once per key (as Gatehouse and its kit
// keep a recent proof's key), `htm`, `htu` and `iat` checked, `ath` when an access token is presented.
import { createHash, createPublicKey, verify } from 'node:crypto';

/** RFC 7638: the SHA-256 thumbprint of a P-256 public key, its members in lexicographic order. */
export const thumbprint = (jwk) => createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest('base64url');

const IAT_WINDOW = 60;
const keys = new Map();

/** The proof's `jti` and its key's thumbprint when it is valid for `htm` `htu` (and `accessToken`); otherwise null. */
export function checkedProof(proof, htm, htu, accessToken) {
  if (typeof proof !== 'string') return null;
  const parts = proof.split('.');
  if (parts.length !== 3) return null;
  let header;
  let claims;
  try {
    header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const jwk = header.jwk;
  if (header.typ !== 'dpop+jwt' || header.alg !== 'ES256' || jwk?.kty !== 'EC' || jwk.crv !== 'P-256' || 'd' in jwk) return null;
  const id = `${jwk.x}.${jwk.y}`;
  let key = keys.get(id);
  if (key === undefined) {
    try {
      key = { publicKey: createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' }), jkt: thumbprint(jwk) };
    } catch {
      return null;
    }
    if (keys.size >= 100) keys.clear();
    keys.set(id, key);
  }
  const signature = Buffer.from(parts[2], 'base64url');
  if (!verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: key.publicKey, dsaEncoding: 'ieee-p1363' }, signature)) return null;
  if (claims.htm !== htm || claims.htu !== htu || typeof claims.jti !== 'string' || !(Math.abs(claims.iat - Date.now() / 1000) <= IAT_WINDOW)) return null;
  if (accessToken !== undefined && claims.ath !== createHash('sha256').update(accessToken).digest('base64url')) return null;
  return { jti: claims.jti, jkt: key.jkt };
}
