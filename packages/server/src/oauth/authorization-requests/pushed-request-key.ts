import { OAuthError } from '@gatehouse/contract';
import type { AuthorizationRequest } from './authorization-request.js';

/**
 * The parameters to store for a pushed authorization request sent with a DPoP proof of the key
 * `jkt`: RFC 9449 §10.1 has the server behave as if the key's thumbprint had been sent as `dpop_jkt`,
 * so the request's code is bound to that key (§10) exactly as by the parameter, and refuse the
 * request when both are sent and name different keys. Without a proof, the parameters as checked.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9449#section-10.1 RFC 9449 §10.1
 */
export function parametersBoundToProofKey(request: AuthorizationRequest, jkt: string | undefined): string {
  if (jkt === undefined) return request.query;
  if (request.dpopJkt !== undefined) {
    if (request.dpopJkt !== jkt) throw new OAuthError('pushed_request_dpop_jkt_mismatch');
    return request.query;
  }
  const parameters = new URLSearchParams(request.query);
  parameters.set('dpop_jkt', jkt);
  return parameters.toString();
}
