import { InvalidAccessToken, type Liveness } from '@gatehouse/contract';
import type { Clock } from '../primitives/clock.js';
import type { Repository } from '../store/repository.js';
import type { AccessTokenClaims, AccessTokens } from './access-tokens.js';
import { clientStillHolds } from './client-token-liveness.js';

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
  readonly store: Pick<Repository, 'findGrantRevokedAt' | 'findClient'>;
  readonly clock: Clock;
  readonly issuer: string;
}

/** The server's steps of the contract's access-token verifier: its own keys, and its own store. */
export interface LocalTokenSteps {
  readonly verify: (token: string) => AccessTokenClaims | Promise<AccessTokenClaims>;
  readonly liveness: Liveness<AccessTokenClaims, GrantState>;
}

/**
 * What the store says of a token's holder: when its grant was revoked (null: live; undefined: no
 * grant), or, for a grant-less token, whether its client still holds it.
 */
type GrantState = number | null | undefined | boolean;

export function localTokenSteps(services: LocalTokenServices): LocalTokenSteps {
  return {
    /** Synchronous for a token verified before (a client presents the same one on every call). */
    verify(token) {
      const claims = services.accessTokens.check(token, services.clock.now());
      if (claims instanceof Promise) return claims.then((verified) => verified ?? refused(services, token));
      return claims ?? refused(services, token);
    },
    liveness: {
      /** Read on every request: a revocation, by any process, takes effect at once. */
      read: (_token, claims) =>
        claims.grant_id === undefined
          ? clientStillHolds(services.store, claims)
          : // Promise.resolve: whatever the store returns, the wait is a promise.
            Promise.resolve(services.store.findGrantRevokedAt(claims.grant_id)),
      judge(state, claims) {
        if (claims.grant_id === undefined) {
          if (state !== true) throw new InvalidAccessToken('The client of this access token has been removed.');
        } else if (state !== null) {
          // No grant at all (its client or user was removed) is refused like a revoked one.
          throw new InvalidAccessToken('The grant of this access token has been revoked.');
        }
      },
    },
  };
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
