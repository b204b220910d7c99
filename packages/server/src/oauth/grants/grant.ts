import type { AuditSink } from '../../audit/audit.js';
import type { ServerContext } from '../../context.js';
import type { FormParams } from '../../http/form.js';
import type { ClientRecord, GrantType } from '../../primitives/records.js';
import type { TokenResponse } from '../token-response.js';

/** One grant type of the token endpoint: reads its parameters, answers tokens or throws OAuthError. */
export interface GrantHandler {
  readonly grantType: GrantType;
  /** `audit` receives the security events the exchange recorded (e.g. a detected reuse). */
  handle(params: FormParams, client: ClientRecord, context: ServerContext, audit?: AuditSink): Promise<TokenResponse>;
}
