import { OAuthError } from '@gatehouse/contract';
import { grantHandler } from './grant.js';
import { redeemAuthorizationCode } from '../tokens/index.js';
import { tokenResponse, userAccessClaims } from '../tokens/index.js';
import { withIdToken } from '../tokens/index.js';
import { grantOrganization } from '../tokens/index.js';

// RFC 7636 §4.1: code_verifier = 43*128unreserved.
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * grant_type=authorization_code with PKCE S256, required for every client. redirect_uri is
 * required because every authorization request carries one.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3 RFC 6749 §4.1.3
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.5 RFC 7636 §4.5
 */
export const authorizationCodeGrant = grantHandler({
  grantType: 'authorization_code',
  notesDpopProof: true,
  async handle(params, client, services, proof) {
    const { audit, clock, accessTokens } = services;
    const code = params.require('code');
    const redirectUri = params.require('redirect_uri');
    const codeVerifier = params.require('code_verifier');
    if (!CODE_VERIFIER.test(codeVerifier)) throw new OAuthError('pkce_verifier_malformed');
    const now = clock.now();
    const outcome = await redeemAuthorizationCode(audit, {
      code,
      client,
      redirectUri,
      codeVerifier,
      now,
      dpop: proof,
    });
    if (!outcome.ok) throw new OAuthError(outcome.reason);
    const { grant, refreshToken, nonce, authTime, amr } = outcome;
    const access = await userAccessClaims(services.store, accessTokens, grant.subject);
    const organization = await grantOrganization(services.store, grant);
    const response = tokenResponse(accessTokens, {
      client,
      subject: grant.subject,
      scope: grant.scope,
      grantId: grant.id,
      refreshToken,
      now,
      dpopJkt: proof?.jkt,
      access,
      organization,
      signIn: { authTime, amr },
    });
    const c = { client, grant, scope: grant.scope, nonce, authTime, amr, now, organization };
    return withIdToken(services, response, c);
  },
});
