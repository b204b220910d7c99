import {
  accessTokenVerifier,
  type AccessTokenVerifier,
  type ChallengeParameters,
  type RequiredScopes,
} from '@gatehouse/contract';
import type { FastifyRequest } from 'fastify';
import { publicRequestReader } from '../http/bearer-request.js';
import { localTokenSteps } from '../oauth/tokens/index.js';
import type { AccessTokenClaims } from '../oauth/tokens/index.js';
import type { ServerContext } from '../context.js';

/** The scope a route needs, or the scopes of which any one suffices (a route's `config.scope`). */
export type RequiredScope = string | readonly string[];

/** A route's scope as the contract's verifier takes it, alternatives of one scope each; made once per route. */
export function requiredScopes(scope: RequiredScope): RequiredScopes {
  return typeof scope === 'string' ? [[scope]] : scope.map((one) => [one]);
}

export type BearerCheck = AccessTokenVerifier<FastifyRequest, AccessTokenClaims>;

/**
 * The bearer check of a JSON API: the contract's access-token verifier over this server's keys and
 * store. Tokens of a revoked grant, and client-credentials tokens of a removed client, are refused
 * even before they expire. A refusal known at once is thrown; a promise is returned only to wait
 * for the store (the grant) or a signature check.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1 RFC 6750 §3.1
 */
export function bearerCheck(
  context: Pick<ServerContext, 'accessTokens' | 'store' | 'clock' | 'issuer' | 'dpop'>,
  challenge: ChallengeParameters,
): BearerCheck {
  return accessTokenVerifier({ challenge, request: publicRequestReader(context.issuer), ...localTokenSteps(context) });
}
