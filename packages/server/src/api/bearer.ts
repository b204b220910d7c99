import { ProblemError } from '@gatehouse/contract';
import type { ServerContext } from '../context.js';
import type { AccessTokenClaims } from '../oauth/access-tokens.js';
import { resourceMetadataUrl } from './resource-metadata.js';

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

/**
 * Authenticates an RFC 6750 bearer access token and checks it carries `scope`. Tokens of a revoked
 * grant are refused even before they expire. A refusal known at once is thrown; a promise is
 * returned only to wait for the store (the grant) or a signature check.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1 RFC 6750 §3.1
 */
export function checkBearer(
  context: BearerContext,
  authorization: string | undefined,
  scope: string,
): AccessTokenClaims | Promise<AccessTokenClaims> {
  // RFC 6750 §3.1: a request without credentials gets a challenge without an error code.
  if (!authorization)
    throw new BearerChallenge('invalid_token', 'The request carries no bearer access token.', challengeOf(context));
  const match = BEARER.exec(authorization);
  if (!match?.[1]) throw invalidToken(context, 'The Authorization header is not a bearer access token.');
  const verified = context.accessTokens.check(match[1], context.clock.now());
  if (verified instanceof Promise) return verified.then((claims) => withLiveGrant(context, claims, scope));
  return withLiveGrant(context, verified, scope);
}

/** The grant is read on every request: a revocation, by any process, takes effect at once. */
function withLiveGrant(
  context: BearerContext,
  claims: AccessTokenClaims | undefined,
  scope: string,
): AccessTokenClaims | Promise<AccessTokenClaims> {
  if (!claims) throw invalidToken(context, 'The access token is malformed, expired, or not signed by this server.');
  if (claims.grant_id === undefined) return inScope(context, claims, scope);
  // Promise.resolve: callers tell "wait" from "done" by `instanceof Promise`, whatever the store returns.
  return Promise.resolve(context.store.findGrantRevokedAt(claims.grant_id)).then((revokedAt) => {
    // No grant at all (its client or user was removed) is refused like a revoked one.
    if (revokedAt !== null) throw invalidToken(context, 'The grant of this access token has been revoked.');
    return inScope(context, claims, scope);
  });
}

function inScope(context: BearerContext, claims: AccessTokenClaims, scope: string): AccessTokenClaims {
  if (!claims.scope.split(' ').includes(scope)) {
    throw new BearerChallenge(
      'insufficient_scope',
      `This operation needs the scope '${scope}'.`,
      `${challengeOf(context)}, error="insufficient_scope", scope="${scope}"`,
    );
  }
  return claims;
}

function invalidToken(context: BearerContext, detail: string): BearerChallenge {
  return new BearerChallenge('invalid_token', detail, `${challengeOf(context)}, error="invalid_token"`);
}
