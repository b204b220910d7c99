import { OAuthError } from '@gatehouse/contract';
import { per } from '../../abuse/rate-policies.js';
import { noStore } from '../../http/oauth-errors.js';
import {
  checkAuthorizationRequest,
  parametersBoundToProofKey,
  pushAuthorizationRequest,
  requestObjectParameters,
} from '../authorization-requests/index.js';
import { noteTokenProof } from '../sender-constraints/index.js';
import { endpointProof } from './endpoint-proof.js';
import { oauthEndpoint } from './endpoint.js';

const PATH = '/par';

/** The parameters of client authentication (RFC 6749 §2.3.1, RFC 7523 §2.2): not part of the request pushed. */
const CLIENT_AUTHENTICATION_PARAMETERS = ['client_secret', 'client_assertion', 'client_assertion_type'];

/**
 * POST /par (RFC 9126 §2): the client authenticates as at /token and pushes its authorization
 * request, which is checked exactly as /authorize checks it (the same parsing), stored, and named by
 * a request_uri the browser takes to /authorize, once, within `expires_in`. A signed request object
 * (`request`, RFC 9101) gives the parameters alone (RFC 9126 §3). A DPoP proof is checked as at
 * /token and binds the request's code to its key, as `dpop_jkt` does (RFC 9449 §10.1).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-2 RFC 9126 §2
 * @see https://www.rfc-editor.org/rfc/rfc9449#section-10.1 RFC 9449 §10.1
 */
export const pushedAuthorizationEndpoint = oauthEndpoint({
  name: 'pushed_authorization',
  method: 'POST',
  path: PATH,
  metadataKey: 'pushed_authorization_request_endpoint',
  clientAuthentication: 'public_allowed',
  // A client of a metadata document pushes with its URL as client_id (docs/agents.md).
  resolvesClientIdMetadataDocuments: true,
  // Each request stores a row and precedes a browser's visit: as rare as sign-ins.
  rateLimits: { client: per(600, 'min'), address: per(120, 'min') },
  async handle({ request, reply, params, client }, services) {
    const { store, clock, issuer, clientKeys, accessTokens } = services;
    // RFC 9126 §2.1: request_uri cannot itself be pushed.
    if (params.get('request_uri') !== undefined) throw new OAuthError('pushed_request_uri_sent');
    // RFC 9449 §10.1: a proof sent here is checked as at the token endpoint (§4.3, the nonce of §8).
    const proof = request.headers.dpop === undefined ? undefined : await endpointProof(request, reply, services, PATH);
    const now = clock.now();
    const requestObject = params.get('request');
    let query: string;
    if (requestObject !== undefined) {
      const verified = await requestObjectParameters(requestObject, client, { clientKeys, issuer, now });
      if (verified === 'no_keys') throw new OAuthError('request_object_not_supported');
      if (verified === 'invalid') throw new OAuthError('request_object_invalid');
      query = verified.query;
    } else {
      const form = new URLSearchParams(params.serialize(CLIENT_AUTHENTICATION_PARAMETERS));
      // A client_id in the form is the authenticated client's (client authentication refused any
      // other); a client of client_secret_basic may send none.
      form.set('client_id', client.id);
      query = form.toString();
    }
    const check = checkAuthorizationRequest(query, client, accessTokens.audiences);
    // RFC 9126 §2.3: what /authorize would show the user or redirect is an error response here.
    if (check.kind === 'untrusted') throw new OAuthError('pushed_request_redirect_uri_invalid');
    if (check.kind === 'refused') throw check.error;
    const parameters = parametersBoundToProofKey(check.request, proof?.jkt);
    // §11.1: the proof is used once; a replay is refused before anything is stored.
    if (proof !== undefined) await noteTokenProof(store, proof);
    const pushed = await pushAuthorizationRequest(store, { clientId: client.id, parameters, now });
    return noStore(reply).code(201).send({ request_uri: pushed.requestUri, expires_in: pushed.expiresIn });
  },
});
