import { ProblemError } from '@gatehouse/contract';
import type { ServerContext } from '../context.js';
import type { AccessTokenClaims } from '../oauth/access-tokens.js';

/** A refusal of the bearer token, with the RFC 6750 §3 challenge to send. */
export class BearerChallenge extends ProblemError {
  readonly challenge: string;
  constructor(problem: 'invalid_token' | 'insufficient_scope', detail: string, challenge: string) {
    super(problem, detail);
    this.challenge = challenge;
  }
}

const REALM = 'realm="gatehouse"';

/**
 * Authenticates an RFC 6750 bearer access token and checks it carries `scope`. Tokens of a revoked
 * grant are refused even before they expire.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1 RFC 6750 §3.1
 */
export async function authenticateBearer({ accessTokens, store, clock }: ServerContext, authorization: string | undefined, scope: string): Promise<AccessTokenClaims> {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization ?? '');
  // RFC 6750 §3.1: a request without credentials gets a challenge without an error code.
  if (!authorization) throw new BearerChallenge('invalid_token', 'The request carries no bearer access token.', `Bearer ${REALM}`);
  if (!match?.[1]) throw invalidToken('The Authorization header is not a bearer access token.');
  const claims = await accessTokens.verify(match[1], clock.now());
  if (!claims) throw invalidToken('The access token is malformed, expired, or not signed by this server.');
  if (claims.grant_id !== undefined) {
    const grant = await store.findGrant(claims.grant_id);
    if (!grant || grant.revokedAt !== null) throw invalidToken('The grant of this access token has been revoked.');
  }
  if (!claims.scope.split(' ').includes(scope)) {
    throw new BearerChallenge('insufficient_scope', `This operation needs the scope '${scope}'.`, `Bearer ${REALM}, error="insufficient_scope", scope="${scope}"`);
  }
  return claims;
}

function invalidToken(detail: string): BearerChallenge {
  return new BearerChallenge('invalid_token', detail, `Bearer ${REALM}, error="invalid_token"`);
}
