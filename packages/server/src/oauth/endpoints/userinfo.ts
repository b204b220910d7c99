import {
  accessTokenVerifier,
  bearerChallenge,
  BearerChallenge,
  bearerTokenOf,
  dpopTokenOf,
  InvalidAccessToken,
  OAuthError,
  type AccessTokenVerifier,
  type FixedOAuthReason,
} from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { publicRequestReader } from '../../http/bearer-request.js';
import { releasedClaims } from '../../users/claims.js';
import { ForeignAccessToken, localTokenSteps } from '../tokens/index.js';
import type { AccessTokenClaims } from '../tokens/index.js';
import { OPENID_SCOPE, releasedAccessClaims, userinfoOrganization } from '../tokens/index.js';
import type { OAuthServices } from '../services.js';
import { oauthEndpoint } from './endpoint.js';

const REALM = { realm: 'gatehouse' } as const;
const NEEDS_OPENID = [[OPENID_SCOPE]] as const;

/**
 * GET and POST /userinfo (OIDC Core §5.3): the claims of the access token's user that its scope
 * releases (§5.4), with `sub` always; `org_id`, `org_name` and `org_roles` of the token's organization
 * with the `organization` scope. The token comes as an RFC 6750 bearer (header, or the form's
 * `access_token` on POST, §2.2) and is checked by the contract's access-token verifier; a token of a
 * revoked grant is refused like an expired one.
 */
export const userinfoEndpoint = oauthEndpoint({
  name: 'userinfo',
  method: 'GET',
  bearer: true,
  path: '/userinfo',
  metadataKey: 'userinfo_endpoint',
  clientAuthentication: 'none',
  rateLimits: null,
  async handle({ request, reply, params }, services) {
    const header = request.headers.authorization;
    const fromBody = params.get('access_token');
    // RFC 9449 §7.1: a DPoP-bound token comes in the header with its proof, checked as a whole.
    const dpop = header !== undefined && fromBody === undefined && dpopTokenOf(header) !== undefined;
    // RFC 6750 §2: one method per request.
    const token = header === undefined ? fromBody : fromBody === undefined ? bearerTokenOf(header) : undefined;
    if (token === undefined && !dpop) return challenge(reply, services.issuer, 'userinfo_token_missing');
    let claims: AccessTokenClaims;
    try {
      const verifier = verifierOf(services);
      claims = await (dpop ? verifier(request, NEEDS_OPENID) : verifier.token(token as string, request, NEEDS_OPENID));
    } catch (error) {
      if (!(error instanceof BearerChallenge)) throw error;
      return challenge(reply, services.issuer, reasonOf(error), error);
    }
    // The verifier found the grant live and took its subject as `sub` (a token minted before
    // migration 0015 named the username).
    const user = await services.store.findUserBySubject(claims.sub);
    if (!user) return challenge(reply, services.issuer, 'userinfo_token_invalid');
    const scope = claims.scope.split(' ');
    // The whole lists (the overflow marker of a long access token points here), for the token's audience.
    const access = await releasedAccessClaims(services.store, services.accessTokens, {
      subject: user.subject,
      audience: services.issuer,
      scope,
      bound: false,
    });
    // The organization the token is for, with the `organization` scope (docs/organizations.md).
    const organization = await userinfoOrganization(services.store, {
      scope,
      org_id: claims.org_id,
      sub: user.subject,
    });
    return reply
      .header('cache-control', 'no-store')
      .send({ ...releasedClaims(user, scope), ...access, ...organization });
  },
});

const verifiers = new WeakMap<OAuthServices, AccessTokenVerifier<FastifyRequest, AccessTokenClaims>>();

/**
 * The contract's verifier over this server's keys and store, for userinfo: only a token of a grant
 * (not client_credentials) for this server itself, not one restricted to another resource (RFC 8707,
 * e.g. the REST API).
 */
function verifierOf(services: OAuthServices): AccessTokenVerifier<FastifyRequest, AccessTokenClaims> {
  let verifier = verifiers.get(services);
  if (verifier !== undefined) return verifier;
  const steps = localTokenSteps(services);
  const forUserinfo = (claims: AccessTokenClaims): AccessTokenClaims => {
    if (claims.grant_id === undefined || claims.aud !== services.issuer)
      throw new InvalidAccessToken('The access token is not for userinfo.');
    return claims;
  };
  verifier = accessTokenVerifier({
    challenge: REALM,
    request: publicRequestReader(services.issuer),
    liveness: steps.liveness,
    dpop: steps.dpop,
    verify: (token) => {
      const claims = steps.verify(token);
      return claims instanceof Promise ? claims.then(forUserinfo) : forUserinfo(claims);
    },
  });
  verifiers.set(services, verifier);
  return verifier;
}

/**
 * The catalog reason of a refusal. RFC 9068 §4: a token of this server's keys for another issuer or
 * audience is named as such.
 */
function reasonOf(error: BearerChallenge): FixedOAuthReason {
  if (error.code === 'insufficient_scope') return 'userinfo_scope_missing';
  if (error.code === 'invalid_dpop_proof') return 'userinfo_dpop_proof_invalid';
  if (error.code === 'use_dpop_nonce') return 'userinfo_dpop_nonce_required';
  return error.refusal instanceof ForeignAccessToken ? 'userinfo_token_foreign' : 'userinfo_token_invalid';
}

/** RFC 6750 §3: the error in a WWW-Authenticate challenge, and as a body too. */
function challenge(
  reply: FastifyReply,
  issuer: string,
  reason: FixedOAuthReason,
  refusal?: BearerChallenge,
): FastifyReply {
  const error = new OAuthError(reason);
  const body = error.toBody(issuer);
  // RFC 9449 §7.1: a DPoP refusal keeps the verifier's DPoP challenge (with `algs`), and §9 its nonce.
  if (refusal?.challenge.startsWith('DPoP ')) {
    if (refusal.nonce !== undefined) reply.header('dpop-nonce', refusal.nonce);
    return reply
      .code(error.status)
      .header('www-authenticate', refusal.challenge)
      .header('cache-control', 'no-store')
      .send(body);
  }
  // §3.1: a request without any token gets a challenge without an error code.
  const attributes =
    reason === 'userinfo_token_missing'
      ? bearerChallenge(REALM)
      : bearerChallenge(REALM, {
          error: body.error as 'invalid_token' | 'insufficient_scope',
          errorDescription: body.error_description ?? '',
        });
  return reply.code(error.status).header('www-authenticate', attributes).header('cache-control', 'no-store').send(body);
}
