import { DPOP_SIGNING_ALGORITHMS, InvalidAccessToken, type DpopStep, type Liveness } from '@gatehouse/contract';
import type { Clock } from '../../primitives/clock.js';
import type { GrantLiveness } from '../../primitives/records.js';
import type { Store } from '../../store/store.js';
import type { AccessTokenClaims, AccessTokens } from './access-tokens.js';
import { clientStillHolds } from './client-token-liveness.js';
import type { DpopProofs } from '../sender-constraints/index.js';

/**
 * A token this server's keys signed for another issuer or audience (RFC 9068 §4): typically minted
 * by a command run with another ISSUER on the same database.
 */
export class ForeignAccessToken extends InvalidAccessToken {
  constructor(message: string) {
    super(message);
    this.name = 'ForeignAccessToken';
  }
}

interface LocalTokenServices {
  readonly accessTokens: AccessTokens;
  readonly store: Pick<Store, 'findGrantLiveness' | 'findClient' | 'readsAtOnce'>;
  readonly clock: Clock;
  readonly issuer: string;
  readonly dpop: DpopProofs;
}

/** The server's steps of the contract's access-token verifier: its own keys, and its own store. */
export interface LocalTokenSteps {
  /**
   * A token verified before and still current, found without the header's syntax check (the
   * verifier's fast path): a token exactly as verified passed that check when it was verified.
   */
  readonly known: (token: string) => AccessTokenClaims | undefined;
  readonly verify: (token: string) => AccessTokenClaims | Promise<AccessTokenClaims>;
  readonly liveness: Liveness<AccessTokenClaims, GrantState>;
  /** RFC 9449 §7: `Authorization: DPoP` with a proof checked against the store's replay cache. */
  readonly dpop: DpopStep;
}

/**
 * What the store says of a token's holder: its grant's revocation and subject (undefined: no grant),
 * or, for a grant-less token, whether its client still holds it.
 */
type GrantState = GrantLiveness | undefined | boolean;

export function localTokenSteps(services: LocalTokenServices): LocalTokenSteps {
  return {
    dpop: {
      algorithms: DPOP_SIGNING_ALGORITHMS,
      check: async (proof, expected) => {
        await services.dpop.check(proof, expected);
      },
    },
    known: (token) => services.accessTokens.known(token, services.clock.now()),
    /** Synchronous for a token verified before (a client presents the same one on every call). */
    verify(token) {
      const claims = services.accessTokens.check(token, services.clock.now());
      if (claims instanceof Promise) return claims.then((verified) => verified ?? refused(services, token));
      return claims ?? refused(services, token);
    },
    liveness: {
      /**
       * Asked of the store on every request: a revocation, by any process, takes effect at once (the
       * store answers from memory while its row epoch stands, store/row-cache.ts).
       */
      read: (_token, claims) => {
        if (claims.grant_id === undefined) return clientStillHolds(services.store, claims);
        // At once where the store can (SQLite): the request then waits for nothing.
        const reads = services.store.readsAtOnce;
        const atOnce = reads === undefined ? null : reads.findGrantLiveness(claims.grant_id);
        // Promise.resolve: whatever the store returns, the wait is a promise.
        return atOnce !== null ? atOnce : Promise.resolve(services.store.findGrantLiveness(claims.grant_id));
      },
      judge(state, claims) {
        if (claims.grant_id === undefined) {
          if (state !== true) throw new InvalidAccessToken('The client of this access token has been removed.');
          return claims;
        }
        // No grant at all (its client or user was removed) is refused like a revoked one.
        if (typeof state !== 'object' || state.revokedAt !== null)
          throw new InvalidAccessToken('The grant of this access token has been revoked.');
        return withGrantSubject(claims, state.subject);
      },
    },
  };
}

/**
 * The claims with the grant's subject as `sub` (RFC 9068 §2.2: one subject for the user). They
 * differ only for a token minted before migration 0015, whose `sub` was the username: it keeps
 * working until it expires, as its user's, on the API and userinfo alike.
 */
function withGrantSubject(claims: AccessTokenClaims, subject: string): AccessTokenClaims {
  return claims.sub === subject ? claims : Object.freeze({ ...claims, sub: subject });
}

/**
 * The refusal of a token that did not verify. A token this server's keys signed for another issuer
 * or audience says so, naming both. Looked into only once the token is refused.
 */
async function refused({ accessTokens, clock, issuer }: LocalTokenServices, token: string): Promise<never> {
  const foreign = await accessTokens.foreignClaim(token, clock.now());
  if (foreign?.claim === 'iss')
    throw new ForeignAccessToken(
      `The access token was issued by '${foreign.value}', not by this server ('${issuer}').`,
    );
  if (foreign?.claim === 'aud')
    throw new ForeignAccessToken(
      `The access token is for the audience '${foreign.value}', not for this server ('${issuer}').`,
    );
  throw new InvalidAccessToken('The access token is malformed, expired, or not signed by this server.');
}
