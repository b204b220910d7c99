import { OAuthError, type FixedOAuthReason } from '@gatehouse/contract';
import type { FastifyReply } from 'fastify';
import { releasedClaims } from '../../users/claims.js';
import { OPENID_SCOPE } from '../id-tokens.js';
import { oauthEndpoint } from './endpoint.js';

/** An RFC 6750 §2.1 Authorization header, and its token. */
export const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * GET and POST /userinfo (OIDC Core §5.3): the claims of the access token's user that its scope
 * releases (§5.4), with `sub` always. The token comes as an RFC 6750 bearer (header, or the form's
 * `access_token` on POST, §2.2); a token of a revoked grant is refused like an expired one.
 */
export const userinfoEndpoint = oauthEndpoint({
  name: 'userinfo',
  method: 'GET',
  bearer: true,
  path: '/userinfo',
  metadataKey: 'userinfo_endpoint',
  clientAuthentication: 'none',
  rateLimits: null,
  async handle({ request, reply, params }, { accessTokens, clock, store, issuer }) {
    const header = request.headers.authorization;
    const fromBody = params.get('access_token');
    // RFC 6750 §2: one method per request.
    const token = header === undefined ? fromBody : fromBody === undefined ? BEARER.exec(header)?.[1] : undefined;
    if (token === undefined) return challenge(reply, issuer, 'userinfo_token_missing');
    const claims = await accessTokens.check(token, clock.now());
    if (!claims) {
      // RFC 9068 §4: a token of this server's keys for another issuer or audience is named as such.
      const foreign = await accessTokens.foreignClaim(token, clock.now());
      return challenge(reply, issuer, foreign ? 'userinfo_token_foreign' : 'userinfo_token_invalid');
    }
    // A token restricted to another resource (RFC 8707, e.g. the REST API) is not one for userinfo.
    if (claims.grant_id === undefined || claims.aud !== issuer)
      return challenge(reply, issuer, 'userinfo_token_invalid');
    // The grant, read on every request: a revoked one's tokens stop at once; its subject is the
    // user's current name (a renamed user's older access tokens still carry the old one).
    const grant = await store.findGrant(claims.grant_id);
    if (!grant || grant.revokedAt !== null) return challenge(reply, issuer, 'userinfo_token_invalid');
    const scope = claims.scope.split(' ');
    if (!scope.includes(OPENID_SCOPE)) return challenge(reply, issuer, 'userinfo_scope_missing');
    const user = await store.findUser(grant.subject);
    if (!user) return challenge(reply, issuer, 'userinfo_token_invalid');
    return reply.header('cache-control', 'no-store').send(releasedClaims(user, scope));
  },
});

/** RFC 6750 §3: the error in a WWW-Authenticate challenge, and as a body too. */
function challenge(reply: FastifyReply, issuer: string, reason: FixedOAuthReason): FastifyReply {
  const error = new OAuthError(reason);
  const body = error.toBody(issuer);
  // §3.1: a request without any token gets a challenge without an error code.
  const attributes =
    reason === 'userinfo_token_missing'
      ? 'Bearer realm="gatehouse"'
      : `Bearer realm="gatehouse", error="${body.error}", error_description="${body.error_description ?? ''}"`;
  return reply.code(error.status).header('www-authenticate', attributes).header('cache-control', 'no-store').send(body);
}
