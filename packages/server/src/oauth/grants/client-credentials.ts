import { OAuthError } from '@gatehouse/contract';
import { isPublicClient } from '../../primitives/records.js';
import { grantHandler } from './grant.js';
import { isScopeSubset, parseScope } from '../tokens/index.js';
import { tokenResponse } from '../tokens/index.js';
import { grantableScope } from '../clients/index.js';

/**
 * grant_type=client_credentials: confidential clients only, an access token and no refresh token
 * (RFC 6749 §4.4.3). The subject is the client itself.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.4 RFC 6749 §4.4
 */
export const clientCredentialsGrant = grantHandler({
  grantType: 'client_credentials',
  async handle(params, client, { clock, accessTokens }, proof) {
    if (isPublicClient(client)) throw new OAuthError('grant_type_not_allowed');
    // Only an admin client may be granted the admin scopes (oauth/clients/clients.ts).
    const allowed = grantableScope(client);
    const scope = parseScope(params.get('scope')) ?? allowed;
    if (!isScopeSubset(scope, allowed)) throw new OAuthError('scope_not_allowed');
    return tokenResponse(accessTokens, {
      client,
      subject: client.id,
      scope,
      grantId: null,
      refreshToken: null,
      now: clock.now(),
      dpopJkt: proof?.jkt,
    });
  },
});
