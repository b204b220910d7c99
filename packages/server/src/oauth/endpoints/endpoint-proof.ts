import { DpopNonceRequired, InvalidDpopProof, OAuthError } from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UnnotedDpopProof } from '../sender-constraints/index.js';
import type { OAuthServices } from '../services.js';

/**
 * RFC 9449 §4.3 at an endpoint of the authorization server (`/token`, and `/par` by §10.1): one
 * proof, for POST to the endpoint's URL as the client addresses it (the issuer's, whatever a proxy in
 * front rewrote). With nonces required (§8), every answer carries the current nonce, the
 * `use_dpop_nonce` refusal too. The jti is left for the caller to note (`noteTokenProof`), in the
 * transaction of its own writes where it has one.
 */
export async function endpointProof(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Pick<OAuthServices, 'dpop' | 'clock' | 'issuer'>,
  path: string,
): Promise<UnnotedDpopProof> {
  const nonces = services.dpop.nonces;
  if (nonces !== undefined) reply.header('dpop-nonce', nonces.current(services.clock.now()));
  const header = request.headers.dpop;
  // §4.3 step 1: exactly one DPoP header.
  if (typeof header !== 'string') throw new OAuthError('dpop_proof_invalid');
  try {
    return await services.dpop.checkUnnoted(header, { method: 'POST', url: `${services.issuer}${path}` });
  } catch (error) {
    if (error instanceof DpopNonceRequired) throw new OAuthError('dpop_nonce_required');
    if (error instanceof InvalidDpopProof) throw new OAuthError('dpop_proof_invalid');
    throw error;
  }
}
