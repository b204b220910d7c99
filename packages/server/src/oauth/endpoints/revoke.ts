import { OAuthError } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { auditLogOf } from '../../http/audit-log.js';
import { formParamsOf } from '../../http/form.js';
import { noStore } from '../../http/oauth-errors.js';
import { authenticateClient, presentedClient } from '../client-authentication.js';
import { revokeToken } from '../revocation.js';

/** POST /revoke (RFC 7009 §2.1): public clients may revoke their own tokens too. */
export function revokeEndpoint(app: FastifyInstance, context: ServerContext): void {
  app.post('/revoke', async (request, reply) => {
    const params = formParamsOf(request.body);
    const audit = auditLogOf(request);
    const caller = await authenticateClient(context.store, presentedClient(request.headers.authorization, params), {
      address: request.ip,
      now: context.clock.now(),
      audit,
    });
    const token = params.require('token');
    params.get('token_type_hint');
    const outcome = await revokeToken(context, caller, token, audit);
    if (outcome === 'access_token') throw new OAuthError('access_token_not_revocable');
    if (outcome === 'other_client') throw new OAuthError('refresh_token_client_mismatch');
    return noStore(reply).code(200).send();
  });
}
