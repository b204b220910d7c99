import { OAuthError } from '@gatehouse/contract';
import { per } from '../../abuse/rate-policies.js';
import { noStore } from '../../http/oauth-errors.js';
import { inSpan, isTracing } from '../../telemetry/tracing.js';
import type { ClientRecord } from '../../primitives/records.js';
import { grantHandlerOf } from '../grants/index.js';
import type { OAuthServices } from '../services.js';
import { noteTokenProof } from '../sender-constraints/index.js';
import { endpointProof } from './endpoint-proof.js';
import { oauthEndpoint } from './endpoint.js';

const PATH = '/token';

/**
 * POST /token: `grant_type` first, then the client authenticates within the limits, then the grant
 * type answers. Public clients are served (RFC 6749 §2.1): the authorization code grant with PKCE.
 * A DPoP proof (RFC 9449 §5) binds the tokens to its key, for every grant.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.2 RFC 6749 §3.2
 */
export const tokenEndpoint = oauthEndpoint({
  name: 'token',
  method: 'POST',
  path: PATH,
  metadataKey: 'token_endpoint',
  clientAuthentication: 'public_allowed',
  // An agent's https URL client_id is resolved through its document, as at /authorize: a document
  // past its stale time is fetched again, a stale one in the background (docs/agents.md).
  resolvesClientIdMetadataDocuments: true,
  // A backend refreshing for many users shares one client and often one address.
  rateLimits: { client: per(6000, 'min'), address: per(1200, 'min') },
  precheck: (params) => grantHandlerOf(params.require('grant_type')),
  async handle({ request, reply, params, client, checked: grant }, services) {
    // RFC 6749 §5.2 unauthorized_client: the client may not use this grant type.
    if (!client.grantTypes.includes(grant.grantType)) throw new OAuthError('grant_type_not_allowed');
    const target = grant.resolvesOwnTarget === true ? undefined : params.get('resource');
    // No resource named (the usual request): the services as they are, without an async call's microtask.
    const scoped = target === undefined ? services : await servicesFor(target, services);
    // No DPoP header, no work: the plain request reads nothing more. The jti is noted by the grant, in
    // its transaction (GrantHandler.notesDpopProof), or just below.
    const proof =
      request.headers.dpop === undefined ? noProof(client) : await endpointProof(request, reply, services, PATH);
    // RFC 9449 §11.1: a grant without a transaction of its own has the jti noted here, on its own.
    if (proof !== undefined && grant.notesDpopProof !== true) await noteTokenProof(services.store, proof);
    const response = isTracing()
      ? await inSpan(
          `oauth.grant ${grant.grantType}`,
          { 'oauth.grant_type': grant.grantType, 'oauth.client_id': client.id },
          () => grant.handle(params, client, scoped, proof),
        )
      : await grant.handle(params, client, scoped, proof);
    return noStore(reply).send(response);
  },
});

/**
 * RFC 9449 §5.2 `dpop_bound_access_tokens`: such a client's token requests must carry a proof; so
 * must a fapi2 client's (FAPI 2.0 §5.3.2.1: sender-constrained tokens, here by DPoP).
 */
function noProof(client: ClientRecord): undefined {
  if (client.dpopBoundAccessTokens === true || client.profile === 'fapi2') throw new OAuthError('dpop_proof_required');
  return undefined;
}

/**
 * RFC 8707 §2: a token request may name the resource the access token is for; the token is then
 * restricted to it (its `aud`). The resources are those this server serves, and the resource
 * servers registered here (`clients add --resource-server`), named by their client id: a token for
 * one carries that API's roles (docs/roles.md). Anything else is invalid_target. Every grant of this
 * server covers all of them, so the request alone decides (§2.2).
 */
async function servicesFor(resource: string | undefined, services: OAuthServices): Promise<OAuthServices> {
  if (resource === undefined) return services;
  if (!services.accessTokens.audiences.includes(resource)) {
    const server = await services.store.findClient(resource);
    if (server?.resourceServer !== true) throw new OAuthError('resource_unknown');
  }
  return { ...services, accessTokens: services.accessTokens.forAudience(resource) };
}
