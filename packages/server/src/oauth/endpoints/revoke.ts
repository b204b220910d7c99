import { OAuthError } from '@gatehouse/contract';
import { per } from '../../abuse/rate-policies.js';
import { noStore } from '../../http/oauth-errors.js';
import { revokeToken } from '../grant-administration/index.js';
import { oauthEndpoint } from './endpoint.js';

/** POST /revoke (RFC 7009 §2.1): public clients may revoke their own tokens too. */
export const revokeEndpoint = oauthEndpoint({
  name: 'revoke',
  method: 'POST',
  path: '/revoke',
  metadataKey: 'revocation_endpoint',
  clientAuthentication: 'public_allowed',
  // Revocation comes at sign-out, far rarer than refresh; the address limit bounds secret guessing.
  rateLimits: { client: per(3000, 'min'), address: per(600, 'min') },
  async handle({ reply, params, client }, services) {
    const token = params.require('token');
    params.get('token_type_hint');
    const outcome = await revokeToken(services, client, token);
    if (outcome === 'access_token') throw new OAuthError('access_token_not_revocable');
    if (outcome === 'other_client') throw new OAuthError('refresh_token_client_mismatch');
    return noStore(reply).code(200).send();
  },
});
