import { ProblemError } from '@gatehouse/contract';
import type { ServerContext } from '../context.js';
import type { AccessTokenClaims } from '../oauth/access-tokens.js';
import { clientStillHolds } from '../oauth/client-token-liveness.js';
import { resourceMetadataUrl } from '../api/resource-metadata.js';

/** A refusal of the bearer token, with the RFC 6750 §3 challenge to send. */
export class BearerChallenge extends ProblemError {
  readonly challenge: string;
  constructor(problem: 'invalid_token' | 'insufficient_scope', detail: string, challenge: string) {
    super(problem, detail);
    this.challenge = challenge;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

type BearerContext = Pick<ServerContext, 'accessTokens' | 'store' | 'clock' | 'issuer'>;

/**
 * The challenge's first attributes: the realm, and where the API's protected resource metadata is
 * (RFC 9728 §5.1), from which a client that has no token yet discovers the authorization server.
 */
function challengeOf(context: BearerContext): string {
  return `Bearer realm="gatehouse", resource_metadata="${resourceMetadataUrl(context.issuer)}"`;
}

/** The scope an operation needs, or the scopes of which any one suffices. */
export type RequiredScope = string | readonly string[];

/**
 * Authenticates an RFC 6750 bearer access token and checks it carries `scope`. Tokens of a revoked
 * grant, and client-credentials tokens of a removed client, are refused even before they expire. A refusal known at once is thrown; a promise is
 * returned only to wait for the store (the grant) or a signature check.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1 RFC 6750 §3.1
 */
export function checkBearer(
  context: BearerContext,
  authorization: string | undefined,
  scope: RequiredScope,
): AccessTokenClaims | Promise<AccessTokenClaims> {
  // RFC 6750 §3.1: a request without credentials gets a challenge without an error code.
  if (!authorization)
    throw new BearerChallenge('invalid_token', 'The request carries no bearer access token.', challengeOf(context));
  const match = BEARER.exec(authorization);
  if (!match?.[1]) throw invalidToken(context, 'The Authorization header is not a bearer access token.');
  const token = match[1];
  const verified = context.accessTokens.check(token, context.clock.now());
  if (verified instanceof Promise) return verified.then((claims) => withLiveGrant(context, token, claims, scope));
  return withLiveGrant(context, token, verified, scope);
}

/** The grant is read on every request: a revocation, by any process, takes effect at once. */
function withLiveGrant(
  context: BearerContext,
  token: string,
  claims: AccessTokenClaims | undefined,
  scope: RequiredScope,
): AccessTokenClaims | Promise<AccessTokenClaims> {
  if (!claims) return refused(context, token);
  if (claims.grant_id === undefined)
    return clientStillHolds(context.store, claims).then((held) => {
      if (!held) throw invalidToken(context, 'The client of this access token has been removed.');
      return inScope(context, claims, scope);
    });
  // Promise.resolve: callers tell "wait" from "done" by `instanceof Promise`, whatever the store returns.
  return Promise.resolve(context.store.findGrantRevokedAt(claims.grant_id)).then((revokedAt) => {
    // No grant at all (its client or user was removed) is refused like a revoked one.
    if (revokedAt !== null) throw invalidToken(context, 'The grant of this access token has been revoked.');
    return inScope(context, claims, scope);
  });
}

function inScope(context: BearerContext, claims: AccessTokenClaims, scope: RequiredScope): AccessTokenClaims {
  const held = claims.scope.split(' ');
  if (typeof scope === 'string' ? !held.includes(scope) : !scope.some((s) => held.includes(s))) {
    // RFC 6750 §3: the challenge names the scope to ask for, the narrowest that suffices.
    const named = typeof scope === 'string' ? scope : (scope[0] ?? '');
    const others = typeof scope === 'string' ? [] : scope.slice(1);
    throw new BearerChallenge(
      'insufficient_scope',
      `This operation needs the scope '${named}'${others.map((s) => ` or '${s}'`).join('')}.`,
      `${challengeOf(context)}, error="insufficient_scope", scope="${named}"`,
    );
  }
  return claims;
}

/**
 * The refusal of a token that did not verify. A token this server's keys signed for another issuer
 * or audience (RFC 9068 §4) says so, naming both: it was minted with another ISSUER, e.g. by
 * `gatehouse grants issue` run with another PORT. Looked into only once the token is refused.
 */
async function refused(context: BearerContext, token: string): Promise<never> {
  const foreign = await context.accessTokens.foreignClaim(token, context.clock.now());
  if (foreign?.claim === 'iss')
    throw invalidToken(
      context,
      `The access token was issued by '${foreign.value}', not by this server ('${context.issuer}').`,
    );
  if (foreign?.claim === 'aud')
    throw invalidToken(
      context,
      `The access token is for the audience '${foreign.value}', not for this server ('${context.issuer}').`,
    );
  throw invalidToken(context, 'The access token is malformed, expired, or not signed by this server.');
}

function invalidToken(context: BearerContext, detail: string): BearerChallenge {
  return new BearerChallenge('invalid_token', detail, `${challengeOf(context)}, error="invalid_token"`);
}
