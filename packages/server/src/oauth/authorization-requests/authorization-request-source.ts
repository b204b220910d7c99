import type { ClientRecord } from '../../primitives/records.js';
import { clientIdOf } from './authorization-request.js';
import { pushedParameters } from './pushed-authorization-requests.js';
import { requestObjectParameters } from './request-objects.js';
import type { OAuthServices } from '../services.js';

/** Why a request's parameters could not be read: shown to the user, never redirected. */
export type UntrustedSource = {
  readonly kind: 'untrusted';
  readonly problem: 'invalid_authorization_request' | 'invalid_request_uri' | 'invalid_request_object';
  readonly detail: string;
};

/** Where an authorization request's parameters come from, and what the sign-in carries on. */
export type AuthorizationSource =
  | {
      readonly kind: 'parameters';
      /** The parameters to check, as a query string. */
      readonly parameters: string;
      /** What the sign-in's forms and redirects carry instead of the parameters; undefined: the parameters. */
      readonly continuation: string | undefined;
      /** The parameters were pushed by the authenticated client (RFC 9126). */
      readonly pushed: boolean;
      /** The client, when it was looked up already. */
      readonly client?: ClientRecord;
    }
  | UntrustedSource;

/**
 * The parameters of an authorization request: the query itself; or the request pushed to the PAR
 * endpoint that `request_uri` names (RFC 9126 §4), used once here unless `peek`; or those of the
 * signed request object `request` (RFC 9101 §6.3: only the object's, whatever the query says).
 * A request_uri of any other kind is refused: no request object is fetched from a URL. `address`:
 * the requester's, for the audit of a refused client ID metadata document.
 */
export async function authorizationSource(
  services: Pick<OAuthServices, 'store' | 'clientKeys' | 'issuer' | 'clock' | 'clientIdMetadataDocuments'>,
  { query, address, peek }: { readonly query: string; readonly address: string; readonly peek: boolean },
): Promise<AuthorizationSource> {
  const params = new URLSearchParams(query);
  const [requestUris, requests] = [params.getAll('request_uri'), params.getAll('request')];
  if (requestUris.length === 0 && requests.length === 0)
    return { kind: 'parameters', parameters: query, continuation: undefined, pushed: false };
  if (requestUris.length > 1 || requests.length > 1)
    return untrusted('invalid_authorization_request', 'request or request_uri was sent more than once.');
  // RFC 9101 §5, RFC 9126 §4: client_id comes with either, and names the client whose they are.
  const clientId = clientIdOf(query);
  if (clientId === undefined) return untrusted('invalid_authorization_request', 'The request has no client_id.');
  const [requestUri, request] = [requestUris[0], requests[0]];
  if (requestUri !== undefined && request !== undefined)
    return untrusted('invalid_request_object', 'request and request_uri cannot both be sent (RFC 9101 §5).');
  const now = services.clock.now();
  if (requestUri !== undefined) {
    const pushed = await pushedParameters(services.store, requestUri, { clientId, now, peek });
    if (!pushed)
      return untrusted(
        'invalid_request_uri',
        `The request_uri is unknown, expired, already used, or not pushed by the client '${clientId}'.`,
      );
    const continuation = new URLSearchParams({ client_id: clientId, request_uri: pushed.continuation });
    return { kind: 'parameters', parameters: pushed.parameters, continuation: continuation.toString(), pushed: true };
  }
  // The object's keys are the client's: a metadata document's client is resolved as /authorize does.
  const client = await services.clientIdMetadataDocuments.clientNamed(clientId, address);
  if (!client)
    return untrusted('invalid_authorization_request', `No client is registered with client_id '${clientId}'.`);
  const verified = await requestObjectParameters(request as string, client, { ...services, now });
  if (verified === 'no_keys')
    return untrusted(
      'invalid_request_object',
      `The client '${clientId}' has registered no keys to sign requests with.`,
    );
  if (verified === 'invalid')
    return untrusted(
      'invalid_request_object',
      "The request object is not signed by the client's keys, or its iss, aud, exp, nbf or client_id is wrong.",
    );
  return { kind: 'parameters', parameters: verified.query, continuation: query, pushed: false, client };
}

function untrusted(problem: UntrustedSource['problem'], detail: string): UntrustedSource {
  return { kind: 'untrusted', problem, detail };
}
