import type { AccessTokenClaims, ActorClaim } from '@gatehouse/contract';
import { jwtVerify } from 'jose';
import type { KeyRing } from '../keys/index.js';
import type { AccessClaims } from '../../access/index.js';
import { signEs256Jwt } from './jwt.js';
import { digestOf } from '../../primitives/secrets.js';
import { newId } from '../../primitives/ids.js';
import type { OrganizationClaims } from '../../organizations/index.js';

/** The claims of a Gatehouse access token: the contract's RFC 9068 §2.2 type, with the grant id. */
export type { AccessTokenClaims };

/** A claim of a token signed by this server's keys that names another server, and its value. */
export interface ForeignClaim {
  readonly claim: 'iss' | 'aud';
  readonly value: string;
}

interface MintRequest {
  readonly subject: string;
  readonly clientId: string;
  readonly scope: readonly string[];
  readonly grantId: string | null;
  readonly ttl: number;
  readonly now: number;
  /** RFC 8693 §4.1: a delegated token's actor chain. */
  readonly act?: ActorClaim;
  /** The `aud`, when not the signer's own (a token exchange's target, RFC 8693 §2.1). */
  readonly audience?: string;
  /** The latest `exp` allowed (a token exchange's never outlives its subject token). */
  readonly notAfter?: number;
  /** RFC 9449 §6.1: the thumbprint of the DPoP key the token is bound to (`cnf.jkt`). */
  readonly dpopJkt?: string;
  /** RFC 9068 §2.2.3.1: the user's `roles` and `groups` for this audience (or their overflow marker). */
  readonly access?: AccessClaims;
  /** The organization the token is for (`org_id`, `org_name`, `org_roles`), read at issuance. */
  readonly organization?: OrganizationClaims | undefined;
  /** RFC 9068 §2.2.1: the user's sign-in (its `acr` and `auth_time`), when the grant came from one. */
  readonly signIn?: SignInClaims | undefined;
}

/** The authentication information an access token carries (RFC 9068 §2.2.1). */
export interface SignInClaims {
  readonly acr: string;
  readonly auth_time: number;
}

/**
 * Signs access tokens as RFC 9068 JWTs and verifies them. The audience is the issuer's own API, or
 * a resource indicator (RFC 8707) the server serves, which it also accepts.
 */
export class AccessTokens {
  readonly #issuer: string;
  readonly #keys: KeyRing;
  readonly #audiences: readonly string[];
  #audience: string;
  readonly #verified = new VerifiedTokens(4096);

  constructor(issuer: string, keys: KeyRing, resourceIndicators: readonly string[] = []) {
    this.#issuer = issuer;
    this.#keys = keys;
    this.#audiences = [issuer, ...resourceIndicators];
    this.#audience = issuer;
  }

  /** The resources whose tokens this server signs and accepts: the issuer, and its resource indicators. */
  get audiences(): readonly string[] {
    return this.#audiences;
  }

  /**
   * The same signer, minting tokens restricted to `audience` (RFC 8707 §2): one of `audiences`, or
   * a resource server registered here, whose tokens this server signs but does not accept.
   */
  forAudience(audience: string): AccessTokens {
    const view = new AccessTokens(this.#issuer, this.#keys, this.#audiences.slice(1));
    view.#audience = audience;
    return view;
  }

  /** The `aud` of the tokens this signer mints. */
  get audience(): string {
    return this.#audience;
  }

  /** The issuer identifier (RFC 8414 §2) these tokens name as `iss`. */
  get issuer(): string {
    return this.#issuer;
  }

  mint({
    subject,
    clientId,
    scope,
    grantId,
    ttl,
    now,
    act,
    audience,
    notAfter,
    dpopJkt,
    access,
    organization,
    signIn,
  }: MintRequest): string {
    const claims: AccessTokenClaims = {
      iss: this.#issuer,
      sub: subject,
      aud: audience ?? this.#audience,
      client_id: clientId,
      scope: scope.join(' '),
      jti: newId(),
      iat: now,
      exp: notAfter === undefined ? now + ttl : Math.min(now + ttl, notAfter),
      ...(grantId === null ? {} : { grant_id: grantId }),
      ...(act === undefined ? {} : { act }),
      ...(dpopJkt === undefined ? {} : { cnf: { jkt: dpopJkt } }),
      ...access,
      ...organization,
      ...signIn,
    };
    // RFC 9068 §2.1: typ "at+jwt" keeps access tokens from being confused with other JWTs.
    return signEs256Jwt(
      { alg: 'ES256', typ: 'at+jwt', kid: this.#keys.signingKey.kid },
      claims,
      this.#keys.signingKey.key,
    );
  }

  /**
   * The claims of `token` when it was verified before (with these keys) and has not expired at
   * `now`; undefined otherwise, with nothing checked: `check` then says why.
   */
  known(token: string, now: number): AccessTokenClaims | undefined {
    const known = this.#verified.get(digestOf(token), this.#keys.jwks);
    return known && isCurrent(known, now) ? known : undefined;
  }

  /**
   * The claims of a token this server signed and that has not expired at `now`; undefined otherwise.
   * Answered synchronously for a token verified before (the bearer of a REST client presents the same
   * one on every call); a promise only when the signature has to be checked.
   */
  check(token: string, now: number): AccessTokenClaims | undefined | Promise<AccessTokenClaims | undefined> {
    // The key set the token is checked against; a reload during the verification does not retag it.
    const keySet = this.#keys.jwks;
    // Remembered by digest: looking a bearer token up compares digests, never the token itself.
    const digest = digestOf(token);
    const known = this.#verified.get(digest, keySet);
    if (known) return isCurrent(known, now) ? known : undefined;
    return this.#verifySignature(token, digest, keySet, now, 'own');
  }

  /**
   * The claims of a token this server signed and that has not expired at `now`, whatever its
   * audience: the server's own endpoints know every token it issued, a token exchange's for another
   * service too (RFC 8693 §2.1), and judge `aud` themselves (introspection shows it, RFC 7662 §2.2;
   * a token exchange's policy decides on it). A token for this server's audiences is remembered as
   * `check` remembers it; one of another audience is verified each time and never remembered, so
   * that `check` and `known` still answer only tokens for this server.
   */
  checkIssued(token: string, now: number): AccessTokenClaims | undefined | Promise<AccessTokenClaims | undefined> {
    const keySet = this.#keys.jwks;
    const digest = digestOf(token);
    const known = this.#verified.get(digest, keySet);
    if (known) return isCurrent(known, now) ? known : undefined;
    return this.#verifySignature(token, digest, keySet, now, 'any');
  }

  /**
   * For a token `check` refused: the claim that names another server, when the token is otherwise
   * one this server would accept (its keys signed it, it has not expired) — typically minted by a
   * command run with another ISSUER on the same database. RFC 9068 §4: the resource server checks
   * `iss` and `aud`.
   */
  async foreignClaim(token: string, now: number): Promise<ForeignClaim | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#keys.verificationKey, {
        typ: 'at+jwt',
        algorithms: ['ES256'],
        currentDate: new Date(now * 1000),
      });
      if (payload.iss !== this.#issuer) return { claim: 'iss', value: String(payload.iss) };
      const audience = Array.isArray(payload.aud) ? payload.aud : [String(payload.aud)];
      if (!audience.includes(this.#issuer)) return { claim: 'aud', value: audience.join(' ') };
    } catch {
      // Not signed by these keys, expired, or malformed: nothing more to say than check did.
    }
    return undefined;
  }

  /** `audiences`: 'own' refuses a token for any other audience than this server's, 'any' takes it. */
  async #verifySignature(
    token: string,
    digest: string,
    keySet: object,
    now: number,
    audiences: 'own' | 'any',
  ): Promise<AccessTokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#keys.verificationKey, {
        issuer: this.#issuer,
        ...(audiences === 'own' ? { audience: this.#audiences as string[] } : {}),
        typ: 'at+jwt',
        algorithms: ['ES256'],
        currentDate: new Date(now * 1000),
        requiredClaims: ['sub', 'aud', 'client_id', 'scope', 'jti', 'iat', 'exp'],
      });
      const claims = Object.freeze(payload) as unknown as AccessTokenClaims;
      if (audiences === 'own' || this.#isOwnAudience(claims.aud)) this.#verified.set(digest, claims, keySet);
      return claims;
    } catch {
      return undefined;
    }
  }

  /** RFC 7519 §4.1.3 as jose checks `audience`: one of the token's audiences is one of this server's. */
  #isOwnAudience(aud: AccessTokenClaims['aud']): boolean {
    return typeof aud === 'string' ? this.#audiences.includes(aud) : aud.some((a) => this.#audiences.includes(a));
  }
}

/** What jwtVerify checks that depends on the time (RFC 7519 §4.1.4, §4.1.5), as jose checks it. */
function isCurrent(claims: AccessTokenClaims & { nbf?: unknown }, now: number): boolean {
  return claims.exp > now && (typeof claims.nbf !== 'number' || claims.nbf <= now);
}

/**
 * Tokens whose signature and claims were verified, by the SHA-256 of their text: a bearer presents
 * the same token on every call, and an ES256 verification costs more than the rest of a REST request. Only
 * what does not change with the time is remembered; the expiry is checked on every use, and the
 * grant's revocation by the caller. Every entry is dropped when the key set is reloaded (a retired
 * key's tokens then fail as before), and the oldest when `capacity` is reached.
 */
class VerifiedTokens {
  readonly #capacity: number;
  readonly #claims = new Map<string, AccessTokenClaims>();
  #keySet: object | undefined;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(digest: string, keySet: object): AccessTokenClaims | undefined {
    if (keySet !== this.#keySet) return undefined;
    return this.#claims.get(digest);
  }

  set(digest: string, claims: AccessTokenClaims, keySet: object): void {
    if (keySet !== this.#keySet) {
      this.#claims.clear();
      this.#keySet = keySet;
    }
    if (this.#claims.size >= this.#capacity) this.#claims.delete(this.#claims.keys().next().value as string);
    this.#claims.set(digest, claims);
  }
}
