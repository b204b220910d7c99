import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/** A client's signing key pair and its public JWK Set, as the client would register it. */
export interface ClientKeyPair {
  readonly privateKey: CryptoKey;
  readonly jwks: { readonly keys: JWK[] };
  readonly kid: string;
  readonly alg: string;
}

export async function clientKeyPair(alg = 'ES256'): Promise<ClientKeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { privateKey, jwks: { keys: [jwk] }, kid, alg };
}

export const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** A private_key_jwt client assertion (RFC 7523 §3), with `claims` overriding the defaults. */
export async function clientAssertion(
  keys: ClientKeyPair,
  clientId: string,
  audience: string,
  now: number,
  claims: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT({
    iss: clientId,
    sub: clientId,
    aud: audience,
    jti: randomUUID(),
    iat: now,
    exp: now + 60,
    ...claims,
  })
    .setProtectedHeader({ alg: keys.alg, kid: keys.kid })
    .sign(keys.privateKey);
}

/** The form fields of client authentication by private_key_jwt. */
export function assertionFields(assertion: string): Record<string, string> {
  return { client_assertion_type: JWT_BEARER, client_assertion: assertion };
}

/** An unsecured JWT (RFC 7519 §6, `alg: none`) with `claims`: what no server may accept. */
export function unsecuredJwt(claims: Record<string, unknown>): string {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(claims)}.`;
}
