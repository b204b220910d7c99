import type { FormParams } from '../../http/form.js';
import type { ClientRecord } from '../../primitives/records.js';
import type { TokenServices } from '../services.js';
import type { GatehouseTokenResponse } from '@gatehouse/contract';
import type { UnnotedDpopProof } from '../sender-constraints/index.js';

/**
 * One grant type of the token endpoint: reads its parameters, answers tokens or throws OAuthError.
 * Registered in `grants/index.ts` (from which `grant_types_supported` derives), under a name of
 * `GRANT_TYPE_NAMES` (primitives/grant-types.ts).
 */
export interface GrantHandler<Type extends string = string> {
  readonly grantType: Type;
  /**
   * The grant judges `resource` (RFC 8707) itself, e.g. a token exchange naming another service
   * (RFC 8693 §2.1); otherwise the token endpoint restricts the token to a resource this server serves.
   */
  readonly resolvesOwnTarget?: boolean;
  /**
   * The grant notes the proof's jti itself (`noteTokenProof`), in the transaction it runs anyway, so
   * that a DPoP request costs no commit more than a plain one; otherwise the endpoint notes it first.
   */
  readonly notesDpopProof?: boolean;
  /** The security events the exchange records (e.g. a detected reuse) go through `services.audit`. */
  handle(
    params: FormParams,
    client: ClientRecord,
    services: TokenServices,
    proof?: TokenRequestProof,
  ): Promise<GatehouseTokenResponse>;
}

/**
 * The token request's verified DPoP proof (RFC 9449 §5): the thumbprint of its key, and its jti not
 * yet noted as used (§11.1); see `GrantHandler.notesDpopProof`.
 */
export type TokenRequestProof = UnnotedDpopProof;

/** Declares a grant, keeping its `grant_type` as a literal type so `GrantType` derives from the registry. */
export function grantHandler<const Type extends string>(handler: GrantHandler<Type>): GrantHandler<Type> {
  return handler;
}
