import { acrOf } from '../../primitives/acr.js';
import { createHash } from 'node:crypto';
import type { ClientRecord } from '../../primitives/records.js';
import type { UserRecord } from '../../store/identity-repository.js';
import { releasedClaims } from '../../users/claims.js';
import type { AccessClaims } from '../../access/index.js';
import { signEs256Jwt, signRs256Jwt } from './jwt.js';
import type { KeyRing } from '../keys/index.js';
import type { OrganizationClaims } from '../../organizations/index.js';

/** How long an ID token is valid: it proves a sign-in, it is no credential to keep (OIDC Core §2 exp). */
export const ID_TOKEN_TTL = 10 * 60;

/** The scope that makes a request an OpenID Connect request (OIDC Core §3.1.2.1). */
export const OPENID_SCOPE = 'openid';

export interface IdTokenRequest {
  readonly client: ClientRecord;
  readonly user: UserRecord;
  /** The grant's scope: `profile` and `email` add their claims (OIDC Core §5.4). */
  readonly scope: readonly string[];
  /** The access token issued with it, for `at_hash` (OIDC Core §3.1.3.6). */
  readonly accessToken: string;
  /** The sign-in time, or null when unknown (a grant issued by an operator). */
  readonly authTime: number | null;
  /** How the user signed in (RFC 8176 `amr` values, from the sign-in's session), or null when unknown. */
  readonly amr: readonly string[] | null;
  /** Echoed exactly (§3.1.2.1); null on refresh (§12.2) or when the request sent none. */
  readonly nonce: string | null;
  readonly now: number;
  /** `roles` and `groups` (RFC 9068 §2.2.3.1), for a scope that asks for them. */
  readonly access?: AccessClaims;
  /** The organization the sign-in was for (`org_id`, `org_name`, `org_roles`). */
  readonly organization?: OrganizationClaims | undefined;
}

/**
 * Signs ID tokens (OIDC Core §2) with the key ring that signs access tokens: RS256 unless the client
 * registered ES256 as its `id_token_signed_response_alg`. Signed with node:crypto, as access tokens are.
 */
export class IdTokens {
  readonly #issuer: string;
  readonly #keys: KeyRing;

  constructor(issuer: string, keys: KeyRing) {
    this.#issuer = issuer;
    this.#keys = keys;
  }

  /** The signed ID token; an RS256 one is signed off the event loop (jwt.ts). */
  async mint(r: IdTokenRequest): Promise<string> {
    const alg = r.client.idTokenAlg ?? 'RS256';
    const { kid, key } = this.#keys.signingKeyFor(alg);
    const claims = {
      // The scope's claims go in the ID token too: there is no access token to the userinfo
      // endpoint for a client that only signs users in (§5.4 allows either).
      ...releasedClaims(r.user, r.scope),
      ...r.access,
      iss: this.#issuer,
      sub: r.user.subject,
      aud: r.client.id,
      exp: r.now + ID_TOKEN_TTL,
      iat: r.now,
      ...(r.authTime === null ? {} : { auth_time: r.authTime }),
      ...(r.nonce === null ? {} : { nonce: r.nonce }),
      // §2: azp is the party the token was issued to; with a single audience it equals aud.
      azp: r.client.id,
      at_hash: atHash(r.accessToken),
      // OIDC Core §2, RFC 8176 §2: the methods the sign-in's session recorded ("pwd" for a password).
      ...(r.amr === null || r.amr.length === 0 ? {} : { amr: r.amr }),
      // OIDC Core §2: acr, the class of the sign-in, `mfa` when its amr says so (primitives/acr.ts).
      ...(r.amr === null || r.amr.length === 0 ? {} : { acr: acrOf(r.amr) }),
      ...r.organization,
    };
    const header = { alg, typ: 'JWT', kid };
    return alg === 'RS256' ? signRs256Jwt(header, claims, key) : signEs256Jwt(header, claims, key);
  }
}

/**
 * OIDC Core §3.1.3.6: the base64url of the left half of the hash of the access token's ASCII, with
 * the hash of the ID token's alg (SHA-256 for both RS256 and ES256).
 */
export function atHash(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest().subarray(0, 16).toString('base64url');
}
