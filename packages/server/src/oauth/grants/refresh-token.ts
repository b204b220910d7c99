import { OAuthError } from '@gatehouse/contract';
import { grantHandler } from './grant.js';
import { exchangeRefreshToken } from '../tokens/index.js';
import { parseScope } from '../tokens/index.js';
import { heldAccessClaims, holderAccessRead, tokenResponse, userAccessClaims } from '../tokens/index.js';
import { withRefreshIdToken } from '../tokens/index.js';
import { grantOrganization, heldGrantOrganization } from '../tokens/index.js';

/**
 * grant_type=refresh_token. The rules live in refresh-token-lifecycle.ts; this reads the request
 * and turns the outcome into a response.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6 RFC 6749 §6
 */
export const refreshTokenGrant = grantHandler({
  grantType: 'refresh_token',
  notesDpopProof: true,
  async handle(params, client, { store, audit, clock, accessTokens, refreshSuccessors, idTokens }, proof) {
    const presentedToken = params.require('refresh_token');
    const scope = parseScope(params.get('scope'));
    const now = clock.now();
    const outcome = await exchangeRefreshToken(audit, {
      presentedToken,
      client,
      scope,
      now,
      successors: refreshSuccessors,
      dpop: proof,
      holderAccess: holderAccessRead(accessTokens),
    });
    if (!outcome.ok) throw new OAuthError(outcome.reason);
    const { grant, holder } = outcome;
    // Read after the exchange began (with its locked read where the store can), so a role removed
    // before it started is not carried. A token exchange's grant carries none: its roles were
    // capped by its subject token's (RFC 8693 §2.1), which is not kept, so none is the only set
    // never larger.
    const access =
      grant.exchange != null
        ? undefined
        : holder !== undefined
          ? heldAccessClaims(accessTokens, holder.held)
          : await userAccessClaims(store, accessTokens, grant.subject);
    // The organization chosen at /authorize, with the member's roles as they are now.
    const organization =
      grant.organizationId == null
        ? undefined
        : holder !== undefined
          ? heldGrantOrganization(grant, holder.organization)
          : await grantOrganization(store, grant);
    const response = tokenResponse(accessTokens, {
      client,
      subject: grant.subject,
      scope: outcome.scope,
      grantId: grant.id,
      refreshToken: outcome.refreshToken,
      now,
      dpopJkt: proof?.jkt,
      // RFC 8693 §4.1: a token exchange's grant keeps its actor (and audience) at every refresh.
      exchange: grant.exchange,
      access,
      organization,
      // RFC 9068 §2.2.1: the grant's sign-in, as the first access token carried it.
      signIn: outcome.signIn,
    });
    const { authTime, amr } = outcome.signIn ?? { authTime: null, amr: null };
    const c = { client, grant, scope: outcome.scope, authTime, amr, now, organization };
    return withRefreshIdToken({ store, idTokens, accessTokens }, response, c);
  },
});
