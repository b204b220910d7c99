import { OAuthError } from '@gatehouse/contract';
import { per } from '../../abuse/rate-policies.js';
import { noStore } from '../../http/oauth-errors.js';
import { inSpan, isTracing } from '../../telemetry/tracing.js';
import { grantHandlerOf } from '../grants/index.js';
import type { OAuthServices } from '../services.js';
import { oauthEndpoint } from './endpoint.js';

/**
 * POST /token: `grant_type` first, then the client authenticates within the limits, then the grant
 * type answers. Public clients are served (RFC 6749 §2.1): the authorization code grant with PKCE.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.2 RFC 6749 §3.2
 */
export const tokenEndpoint = oauthEndpoint({
  name: 'token',
  method: 'POST',
  path: '/token',
  metadataKey: 'token_endpoint',
  clientAuthentication: 'public_allowed',
  // A backend refreshing for many users shares one client and often one address.
  rateLimits: { client: per(6000, 'min'), address: per(1200, 'min') },
  precheck: (params) => grantHandlerOf(params.require('grant_type')),
  async handle({ reply, params, client, checked: grant }, services) {
    // RFC 6749 §5.2 unauthorized_client: the client may not use this grant type.
    if (!client.grantTypes.includes(grant.grantType)) throw new OAuthError('grant_type_not_allowed');
    const target = grant.resolvesOwnTarget === true ? undefined : params.get('resource');
    const scoped = servicesFor(target, services);
    const response = isTracing()
      ? await inSpan(
          `oauth.grant ${grant.grantType}`,
          { 'oauth.grant_type': grant.grantType, 'oauth.client_id': client.id },
          () => grant.handle(params, client, scoped),
        )
      : await grant.handle(params, client, scoped);
    return noStore(reply).send(response);
  },
});

/**
 * RFC 8707 §2: a token request may name the resource the access token is for; the token is then
 * restricted to it (its `aud`). Only resources this server serves are known; anything else is
 * invalid_target. Every grant of this server covers all of them, so the request alone decides (§2.2).
 */
function servicesFor(resource: string | undefined, services: OAuthServices): OAuthServices {
  if (resource === undefined) return services;
  if (!services.accessTokens.audiences.includes(resource)) throw new OAuthError('resource_unknown');
  return { ...services, accessTokens: services.accessTokens.forAudience(resource) };
}
